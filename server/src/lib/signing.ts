import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compact signed, expiring tokens (`<payload>.<hmac>`, both base64url) for URLs handed to the
 * browser, e.g. the local storage driver's part uploads. Not encrypted: never put secrets inside.
 */
export function signToken(payload: Record<string, unknown>, secret: string, expiresAt: Date): string {
  const body = Buffer.from(JSON.stringify({ ...payload, exp: expiresAt.getTime() })).toString('base64url');
  const mac = createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${mac}`;
}

export type TokenCheck<T> =
  | { ok: true; payload: T }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

export function verifyToken<T extends Record<string, unknown>>(
  token: string,
  secret: string,
  now: Date,
): TokenCheck<T> {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) return { ok: false, reason: 'malformed' };
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'signature' };
  let payload: T & { exp?: number };
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof payload.exp !== 'number' || payload.exp <= now.getTime())
    return { ok: false, reason: 'expired' };
  return { ok: true, payload };
}
