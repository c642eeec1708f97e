import { LIMITS, TOKEN_COOKIE } from '@dam/contract';
import Cookies from 'js-cookie';

const sessionListeners = new Set<() => void>();

/** Runs `listener` whenever a session starts or ends in this page (the query cache is emptied). */
export function onSessionChange(listener: () => void): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

/** The session token lives in cookie skToken (SPEC §3); "remember" keeps it 7 days. */
export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE) || undefined;
}

/** Marks a session opened through the company single sign-on (SE_501 then leads to its logout page). */
const SSO_MARK = 'dam-sso-session';

/** Whether this browser's session was opened through the company single sign-on. */
export function signedInWithSso(): boolean {
  try {
    return localStorage.getItem(SSO_MARK) === '1';
  } catch {
    return false;
  }
}

export function setToken(token: string, remember: boolean, via: 'sso' | 'other' = 'other'): void {
  try {
    if (via === 'sso') localStorage.setItem(SSO_MARK, '1');
    else localStorage.removeItem(SSO_MARK);
  } catch {
    // Storage refused (private mode): an expired session then simply goes to /login.
  }
  Cookies.set(TOKEN_COOKIE, token, {
    path: '/',
    sameSite: 'Lax',
    secure: window.location.protocol === 'https:',
    ...(remember ? { expires: LIMITS.rememberedSessionDays } : {}),
  });
  for (const listener of sessionListeners) listener();
}

export function clearToken(): void {
  Cookies.remove(TOKEN_COOKIE, { path: '/' });
  for (const listener of sessionListeners) listener();
}
