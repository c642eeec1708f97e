import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../../http/app-error';
import { route } from '../../http/endpoint';
import type { OperationRecorder } from '../logs/recorder';
import type { ClientMeta } from '../security/service';
import { newBrowserKey, SSO_ATTEMPT_MS, type SsoService } from './service';

export interface SsoRoutesOptions {
  sso: SsoService;
  oplog: OperationRecorder;
  /** Whether the app is reached over https (PUBLIC_URL): the browser cookie is then Secure. */
  secureCookie: boolean;
}

/** Binds a sign-in to the browser that started it; sent back only to the callback call. */
const BROWSER_COOKIE = 'dam_sso';
const BROWSER_COOKIE_PATH = endpoints.ssoFinish.path;
const BROWSER_KEY_PATTERN = /^[\w-]{43}$/;

function browserKeyOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === BROWSER_COOKIE && value && BROWSER_KEY_PATTERN.test(value)) return value;
  }
  return undefined;
}

function browserCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${BROWSER_COOKIE}=${value}`,
    `Path=${BROWSER_COOKIE_PATH}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

const metaOf = (request: FastifyRequest): ClientMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
});

/** The code a failed login_sso sends the browser to /oauth with; SE_400 only ever means a bad `redirect`. */
function startErrorCode(error: unknown): string | null {
  if (error instanceof AppError) return error.code;
  return hasZodFastifySchemaValidationErrors(error) ? 'SE_400' : null;
}

/** Single sign-on (SPEC §7 `iam-on-off`, `login_sso`; §2 /oauth); none of it needs a session. */
export const ssoRoutes: FastifyPluginAsync<SsoRoutesOptions> = async (app, { sso, oplog, secureCookie }) => {
  route(app, endpoints.ssoStatus, async () => sso.status());

  // A browser navigation: to the provider, or (a browser asking for a page) back to /oauth with
  // the error code for the web app to explain; other clients get the usual envelope. A refused
  // `redirect` (the query's only field) goes the same way: the validation is attached, not thrown.
  route(app, endpoints.ssoStart, { attachValidation: true }, async (request, reply) => {
    const browserKey = browserKeyOf(request) ?? newBrowserKey();
    try {
      if (request.validationError) throw request.validationError;
      const url = await sso.start(request.query.redirect, browserKey, metaOf(request));
      reply.header('set-cookie', browserCookie(browserKey, SSO_ATTEMPT_MS / 1000, secureCookie));
      reply.header('cache-control', 'no-store');
      return reply.redirect(url, 302);
    } catch (error) {
      const code = startErrorCode(error);
      if (!code || !request.headers.accept?.includes('text/html')) throw error;
      return reply.redirect(`/oauth?error=${code}`, 302);
    }
  });

  route(app, endpoints.ssoFinish, async (request, reply) => {
    const result = await sso.finish(request.body, browserKeyOf(request), metaOf(request));
    reply.header('set-cookie', browserCookie('', 0, secureCookie));
    await oplog.signedIn(request, OperationCode.signInSso, result.token);
    return result;
  });
};
