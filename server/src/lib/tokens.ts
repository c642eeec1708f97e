import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: what the client keeps in its skToken cookie. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Sessions are looked up by this hash, so a leaked database does not leak live tokens. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
