import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * A client of the open API for tests, written from the signing recipe (docs/decisions.md, "Open
 * API: signed requests"; README) and NOT from the server's code, so a drift between the two
 * shows as failing tests.
 *
 * Recipe: headers `x-dam-key` (the key id, `dak_…`), `x-dam-timestamp` (unix seconds),
 * `x-dam-nonce` ([A-Za-z0-9_-]{16,64}, new for every request), `x-dam-content-sha256` (hex
 * SHA-256 of the body's bytes; of "" without a body) and `x-dam-signature`:
 * base64url(HMAC-SHA256(key = the secret's UTF-8 bytes, message = the canonical string)), the
 * canonical string being these lines joined with "\n":
 *   DAM-HMAC-SHA256
 *   <key id>
 *   <timestamp>
 *   <nonce>
 *   <METHOD, upper case>
 *   <request target: path and ?query exactly as sent>
 *   <content sha256>
 */

/** A key as a test holds it. `clock`: where default timestamps come from (the test app's clock). */
export interface OpenKey {
  keyId: string;
  secret: string;
  clock?: { now(): Date };
}

export interface SignOptions {
  /** Unix seconds; default: now by `key.clock`, else the system clock. */
  timestamp?: number;
  nonce?: string;
}

/** The body's bytes as they travel: JSON for objects, as-is for strings and buffers. */
export function bodyBytes(body: unknown): Buffer {
  if (body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.from(JSON.stringify(body), 'utf8');
}

/** The five x-dam-* headers of a signed request. `url` is the request target: path and query as sent. */
export function signOpenRequest(
  key: OpenKey,
  method: string,
  url: string,
  body?: unknown,
  options: SignOptions = {},
): Record<string, string> {
  const timestamp =
    options.timestamp ?? Math.floor((key.clock ? key.clock.now().getTime() : Date.now()) / 1000);
  const nonce = options.nonce ?? randomBytes(18).toString('base64url');
  const contentSha256 = createHash('sha256').update(bodyBytes(body)).digest('hex');
  const canonical = [
    'DAM-HMAC-SHA256',
    key.keyId,
    String(timestamp),
    nonce,
    method.toUpperCase(),
    url,
    contentSha256,
  ].join('\n');
  const signature = createHmac('sha256', Buffer.from(key.secret, 'utf8'))
    .update(canonical)
    .digest('base64url');
  return {
    'x-dam-key': key.keyId,
    'x-dam-timestamp': String(timestamp),
    'x-dam-nonce': nonce,
    'x-dam-content-sha256': contentSha256,
    'x-dam-signature': signature,
  };
}
