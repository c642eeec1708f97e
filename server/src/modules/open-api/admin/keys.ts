import { randomBytes } from 'node:crypto';

/** Key ids and secrets of open API access records. */

/** Key ids: `dak_` and 20 characters of lower-case base32 (100 random bits). */
const KEY_ID_PREFIX = 'dak_';
const KEY_ID_CHARS = 20;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** Secrets: `dsk_` and 32 random bytes in base64url. */
const SECRET_PREFIX = 'dsk_';
const SECRET_BYTES = 32;
export const SECRET_HINT_CHARS = 4;
/** A key id drawn again when (against all odds) it is taken. */
export const KEY_ID_ATTEMPTS = 5;

export function newKeyId(): string {
  // 256 is a multiple of 32, so every character is equally likely.
  return KEY_ID_PREFIX + [...randomBytes(KEY_ID_CHARS)].map((byte) => BASE32[byte & 31]).join('');
}

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

/** The associated data a record's secrets are sealed with: bound to its key id. */
export const secretContext = (keyId: string): string => `api_access:${keyId}`;
