import type { EndpointBody, Endpoints } from '@dam/contract';
import { useEffect, useState } from 'react';
import { call, endpointUrl } from '../../api/client';
import { endpoints } from '../../api/endpoints';

/** Company single sign-on (SPEC §7 `iam-on-off`, `login_sso`; §2 /oauth). */
export const ssoApi = {
  /** Whether the sign-in page offers the company account; a failure counts as "off". */
  status: () => call(endpoints.ssoStatus, { silent: true }),
  /** The page the browser opens to sign in at the provider, coming back to `redirect` (an in-app path). */
  startUrl: (redirect: string) =>
    endpointUrl(endpoints.ssoStart, redirect === '/' ? {} : { query: { redirect } }),
  /** Finishes the sign-in the provider sent back to /oauth; the page shows a refusal itself. */
  finish: (body: EndpointBody<Endpoints['ssoFinish']>) => call(endpoints.ssoFinish, { body, silent: true }),
};

/** iam-on-off for the sign-in page: undefined until known, then whether to offer the SSO tab. */
export function useSsoStatus(): boolean | undefined {
  const [enabled, setEnabled] = useState<boolean>();
  useEffect(() => {
    let live = true;
    ssoApi
      .status()
      .then((status) => live && setEnabled(status.enabled))
      .catch(() => live && setEnabled(false));
    return () => {
      live = false;
    };
  }, []);
  return enabled;
}
