import type { EndpointBody, Endpoints } from '@dam/contract';
import { call } from '../api/client';
import { endpoints } from '../api/endpoints';

/** Signing in and out, and changing one's own password (SPEC §3, §7 security API). */
export const authApi = {
  /** The caller shows a refusal next to the form. */
  login: (body: EndpointBody<Endpoints['login']>) => call(endpoints.login, { body, silent: true }),
  /** Answers where the browser goes next: the SSO provider's end-session page, or null (/login). */
  signOut: () => call(endpoints.signOut, { silent: true }),
  /** The client shows a refusal; a failed change is only logged (SPEC §7). */
  changeOwnPassword: (body: EndpointBody<Endpoints['changeOwnPassword']>) =>
    call(endpoints.changeOwnPassword, { body }),
  userInfo: () => call(endpoints.userInfo),
  /** Sign-in and reset codes; the form shows a refusal next to the field. */
  sendSignInCode: (body: EndpointBody<Endpoints['sendSignInCode']>) =>
    call(endpoints.sendSignInCode, { body, silent: true }),
  emailResetPassword: (body: EndpointBody<Endpoints['emailResetPassword']>) =>
    call(endpoints.emailResetPassword, { body, silent: true }),
  loginResetPassword: (body: EndpointBody<Endpoints['loginResetPassword']>) =>
    call(endpoints.loginResetPassword, { body, silent: true }),
  sendMobileChangeCode: (body: EndpointBody<Endpoints['sendMobileChangeCode']>) =>
    call(endpoints.sendMobileChangeCode, { body, silent: true }),
  changeOwnEmail: (body: EndpointBody<Endpoints['changeOwnEmail']>) =>
    call(endpoints.changeOwnEmail, { body, silent: true }),
  /** How a mail the caller caused went (the confirmation of a new address, say). */
  mailStatus: (id: number) => call(endpoints.mailStatus, { query: { id }, silent: true }),
  confirmEmail: (body: EndpointBody<Endpoints['confirmEmail']>) =>
    call(endpoints.confirmEmail, { body, silent: true }),
  changeOwnMobile: (body: EndpointBody<Endpoints['changeOwnMobile']>) =>
    call(endpoints.changeOwnMobile, { body, silent: true }),
};
