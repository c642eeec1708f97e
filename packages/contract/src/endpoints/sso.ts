import { ssoFinishRequestSchema, ssoFinishResultSchema, ssoStartQuerySchema, ssoStatusSchema } from '../sso';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Company single sign-on (SPEC §7 Security API `iam-on-off`, `login_sso`; §2 /oauth). */
export const ssoEndpoints = {
  ssoStatus: defineEndpoint({ ...routes.ssoStatus, reply: 'json', result: ssoStatusSchema }),
  /** A navigation, not a call: answers 302 to the provider's sign-in page (or to /oauth with an error). */
  ssoStart: defineEndpoint({ ...routes.ssoStart, query: ssoStartQuerySchema, reply: 'binary' }),
  ssoFinish: defineEndpoint({
    ...routes.ssoFinish,
    body: ssoFinishRequestSchema,
    reply: 'json',
    result: ssoFinishResultSchema,
  }),
};
