import { MOBILE_PATTERN, type SsoFinishRequest } from '@dam/contract';
import * as client from 'openid-client';
import type { Config } from '../../config';
import { invalidField } from '../../http/app-error';

/**
 * Single sign-on's side of the provider: the settings from the configuration and what its answers
 * mean (the callback's query, phone claims, the end-session address, unreachable or refused).
 */

/** The provider and this application's client there (config OIDC_*); null when single sign-on is off. */
export interface SsoSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  scopes: string;
  autoCreate: boolean;
  defaultDeptId: number | null;
  defaultRoleId: number | null;
  timeoutMs: number;
  /** `<PUBLIC_URL>/oauth`: where the provider sends the browser back. */
  redirectUri: string;
  /** `<PUBLIC_URL>/login`: where the provider's end-session page sends the browser back. */
  postLogoutRedirectUri: string;
}

/** The settings of single sign-on from the configuration; null when OIDC_ISSUER is unset (off). */
export function ssoSettingsOf(config: Config): SsoSettings | null {
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET) return null;
  const appUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return {
    issuer: new URL(config.OIDC_ISSUER),
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    scopes: config.OIDC_SCOPES.split(/\s+/).join(' '),
    autoCreate: config.OIDC_AUTO_CREATE,
    defaultDeptId: config.OIDC_DEFAULT_DEPT_ID ?? null,
    defaultRoleId: config.OIDC_DEFAULT_ROLE_ID ?? null,
    timeoutMs: config.OIDC_TIMEOUT_MS,
    redirectUri: `${appUrl}/oauth`,
    postLogoutRedirectUri: `${appUrl}/login`,
  };
}

/** The query the provider sent back to /oauth: from the whole address, or the parts posted. */
export function callbackParams(body: SsoFinishRequest): URLSearchParams {
  if (body.callbackUrl !== undefined) {
    if (!URL.canParse(body.callbackUrl, 'http://x')) throw invalidField('callbackUrl', 'invalidFormat');
    return new URL(body.callbackUrl, 'http://x').searchParams;
  }
  const params = new URLSearchParams();
  for (const name of ['code', 'state', 'iss'] as const) {
    const value = body[name];
    if (value !== undefined) params.set(name, value);
  }
  return params;
}

/** A mainland mobile number (11 digits) from an E.164 or formatted phone claim, else null. */
export function mainlandMobile(claim: unknown): string | null {
  if (typeof claim !== 'string') return null;
  let digits = claim.replace(/[\s()-]/g, '');
  if (digits.startsWith('+86')) digits = digits.slice(3);
  else if (digits.startsWith('0086')) digits = digits.slice(4);
  else if (digits.startsWith('+')) return null;
  else if (/^86\d{11}$/.test(digits)) digits = digits.slice(2);
  return MOBILE_PATTERN.test(digits) ? digits : null;
}

/** The provider's end-session address for this session, or null when it has none. */
export function endSessionUrl(
  config: client.Configuration,
  idToken: string | undefined,
  postLogoutRedirectUri: string,
): string | null {
  if (!config.serverMetadata().end_session_endpoint) return null;
  return client.buildEndSessionUrl(config, {
    post_logout_redirect_uri: postLogoutRedirectUri,
    ...(idToken ? { id_token_hint: idToken } : {}),
  }).href;
}

/** A failure to reach the provider (network, time-out, 5xx, not OAuth at all), not a refusal by it. */
export function providerUnreachable(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  if (error instanceof client.ResponseBodyError) return error.status >= 500;
  if (error instanceof client.ClientError) {
    return [
      'OAUTH_TIMEOUT',
      'OAUTH_ABORT',
      'OAUTH_RESPONSE_IS_NOT_CONFORM',
      'OAUTH_RESPONSE_IS_NOT_JSON',
    ].includes(error.code ?? '');
  }
  return false;
}
