import { LIMITS, TOKEN_COOKIE } from '@dam/contract';
import Cookies from 'js-cookie';

/** The session token lives in cookie skToken (SPEC §3); "remember" keeps it 7 days. */
export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE) || undefined;
}

export function setToken(token: string, remember: boolean): void {
  Cookies.set(TOKEN_COOKIE, token, {
    path: '/',
    sameSite: 'Lax',
    secure: window.location.protocol === 'https:',
    ...(remember ? { expires: LIMITS.rememberedSessionDays } : {}),
  });
}

export function clearToken(): void {
  Cookies.remove(TOKEN_COOKIE, { path: '/' });
}
