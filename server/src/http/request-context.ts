import { LANG_HEADER, type Language, type OpenCall, parseLanguage, TOKEN_HEADER } from '@dam/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../modules/access/access';
import { AppError } from './app-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's language from the `lang` header (zh when absent or unknown). */
    lang: Language;
    /** Set by the authentication hook on protected routes. */
    auth: AuthContext | null;
    /**
     * Set by the open API's key check (modules/open-api/auth): the access record a signed call came
     * through. `auth` is then its user's rights, with `sessionId` 0.
     */
    openAccess: OpenAccessCaller | null;
  }
  interface FastifyContextConfig {
    /** An open API call: the code its enterprise must allow (`any`: every valid key). */
    openCall?: OpenCall | 'any';
    /** Reachable while the caller's password must be changed (user-info, sign-out, change). */
    allowExpiredPassword?: boolean;
  }
}

/** The access record behind a signed open API call. */
export interface OpenAccessCaller {
  accessId: number;
  keyId: string;
  /** The record's name, for the operation log (`API · <name>`). */
  name: string;
  enterpriseId: string;
  /** The user whose rights the call uses. */
  userId: number;
}

export function registerRequestContext(app: FastifyInstance): void {
  app.decorateRequest('lang', 'zh');
  app.decorateRequest('auth', null);
  app.decorateRequest('openAccess', null);
  app.addHook('onRequest', async (request) => {
    const header = request.headers[LANG_HEADER];
    request.lang = parseLanguage(Array.isArray(header) ? header[0] : header);
  });
}

export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers[TOKEN_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  return value?.trim() || undefined;
}

/** The authenticated caller of a protected route. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('SE_501');
  return request.auth;
}

/**
 * An onRequest hook (before body parsing, so strangers learn nothing of the schema) that admits only signed-in callers. While a password must be changed, only routes
 * marked `allowExpiredPassword` answer; the rest refuse with SE_502 until it is changed.
 */
export function requireSignIn(authenticate: (token: string | undefined) => Promise<AuthContext>) {
  return async (request: FastifyRequest): Promise<void> => {
    const auth = await authenticate(tokenOf(request));
    if (auth.passwordExpired && !request.routeOptions.config.allowExpiredPassword) {
      throw new AppError('SE_502');
    }
    request.auth = auth;
  };
}
