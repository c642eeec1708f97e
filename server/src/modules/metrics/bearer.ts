import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an Authorization header carries `Bearer <token>`. Both sides are hashed first, so the
 * comparison takes the same time whatever the header holds and however much of it matches.
 */
export function bearerMatches(header: string | string[] | undefined, token: string): boolean {
  if (typeof header !== 'string') return false;
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/** What a refused scrape gets: 401 with the scheme to use (RFC 6750). */
export const REFUSED = {
  status: 401,
  headers: { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain; charset=utf-8' },
  body: 'A bearer token (METRICS_TOKEN) is needed for the metrics.\n',
} as const;
