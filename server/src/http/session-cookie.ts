import { TOKEN_COOKIE } from '@dam/contract';
import type { FastifyRequest } from 'fastify';

/** The session token a browser sends with a page it opens: the `skToken` cookie the web app keeps. */
export function cookieToken(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== TOKEN_COOKIE) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim()) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
