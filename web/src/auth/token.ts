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

export function setToken(token: string, remember: boolean): void {
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
