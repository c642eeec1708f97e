import { z } from 'zod';
import { loginResultSchema } from './security';

/**
 * Company single sign-on with OpenID Connect (SPEC §1, §2 /oauth, §7 `login_sso`, `iam-on-off`).
 * See docs/decisions.md "Single sign-on (issue 13)".
 */

/**
 * iam-on-off: whether the sign-in page offers the company account, and the provider's end-session
 * page a browser goes to when its single-sign-on session expired (SPEC §8 SE_501), null without one.
 */
export const ssoStatusSchema = z.object({ enabled: z.boolean(), logoutUrl: z.string().nullable() });
export type SsoStatus = z.infer<typeof ssoStatusSchema>;

/**
 * A page of this application to open after signing in: a path of the same origin. `//host` and
 * `/\host` (which browsers read as `//host`) and control characters (which browsers drop) are
 * refused, so a sign-in link can never send anyone elsewhere.
 */
export function isInAppPath(value: string): boolean {
  if (!value.startsWith('/') || value[1] === '/' || value[1] === '\\') return false;
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === '\\') return false;
  }
  return true;
}

export const ssoStartQuerySchema = z.object({
  redirect: z.string().max(2000).refine(isInAppPath, { error: 'invalidValue' }).optional(),
});
export type SsoStartQuery = z.infer<typeof ssoStartQuerySchema>;

/**
 * What /oauth received from the provider: the whole address it was opened at (`callbackUrl`; only
 * its query is read), or its `code` and `state` (and `iss`, RFC 9207) taken out of it.
 */
export const ssoFinishRequestSchema = z
  .object({
    callbackUrl: z.string().max(8000).optional(),
    code: z.string().min(1).max(2000).optional(),
    state: z.string().min(1).max(500).optional(),
    iss: z.string().max(2000).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.callbackUrl !== undefined) return;
    if (body.code === undefined) ctx.addIssue({ code: 'custom', path: ['code'], message: 'required' });
    if (body.state === undefined) ctx.addIssue({ code: 'custom', path: ['state'], message: 'required' });
  });
export type SsoFinishRequest = z.infer<typeof ssoFinishRequestSchema>;

/** A sign-in as `login` answers it, and the page of the app to open now (`redirect` of login_sso, else `/`). */
export const ssoFinishResultSchema = loginResultSchema.extend({ redirect: z.string() });
export type SsoFinishResult = z.infer<typeof ssoFinishResultSchema>;

/**
 * sign-out: where the browser goes next. For a session opened by the company sign-on (while it is
 * on), the provider's end-session page, which signs out there too and comes back to /login.
 */
export const signOutResultSchema = z.object({ logoutUrl: z.string().nullable() });
export type SignOutResult = z.infer<typeof signOutResultSchema>;
