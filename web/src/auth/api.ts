import type { EndpointBody, Endpoints } from '@dam/contract';
import { call } from '../api/client';
import { endpoints } from '../api/endpoints';

/** Signing in and out, and changing one's own password (SPEC §3, §7 security API). */
export const authApi = {
  /** The caller shows a refusal next to the form. */
  login: (body: EndpointBody<Endpoints['login']>) => call(endpoints.login, { body, silent: true }),
  signOut: () => call(endpoints.signOut, { silent: true }),
  /** The client shows a refusal; a failed change is only logged (SPEC §7). */
  changeOwnPassword: (body: EndpointBody<Endpoints['changeOwnPassword']>) =>
    call(endpoints.changeOwnPassword, { body }),
  userInfo: () => call(endpoints.userInfo),
};
