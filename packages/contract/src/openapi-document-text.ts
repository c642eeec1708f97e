import type { ErrorCode } from './errors';
import {
  OPEN_API_CLOCK_SKEW_SECONDS,
  OPEN_API_HEADERS,
  OPEN_API_RATE_DEFAULT,
  OPEN_API_SIGNING_SCHEME,
  OPEN_ART_NUMS_MAX,
  OPEN_LINK_SECONDS_DEFAULT,
  OPEN_LINK_SECONDS_MAX,
} from './open-api-values';

/**
 * The prose and fixed parts of the open API's OpenAPI document: its error answers, tag and info
 * descriptions, the signing recipe and the signed headers. Used by ./openapi-document only.
 */

/**
 * The errors every signed call may answer, by HTTP status: the envelope with one of these codes.
 * Anything else (a missing asset, a conflict) is the `default` answer. Keep each code's status
 * equal to ERROR_HTTP_STATUS (openapi-document.test.ts checks).
 */
export const OPEN_API_ERROR_RESPONSES = {
  400: {
    name: 'BadRequest',
    codes: ['SE_400'],
    description:
      'The request does not match its schema (SE_400); `errorDesc` names the field and the reason.',
  },
  401: {
    name: 'Unauthorized',
    codes: ['SEOA_01', 'SEOA_02', 'SEOA_03'],
    description:
      'The key is missing, unknown, disabled, deleted or rotated away (SEOA_01); a signed header is missing ' +
      'or malformed, or the signature or the body hash does not match (SEOA_02); the timestamp is out of ' +
      'range or the nonce was used before (SEOA_03).',
  },
  403: {
    name: 'Forbidden',
    codes: ['SEOA_04', 'SE_502'],
    description:
      "The access record's enterprise may not use this call (SEOA_04), or the record's user may not (SE_502).",
  },
  429: {
    name: 'TooManyRequests',
    codes: ['SE_429'],
    description:
      'Too many calls in the current minute, for this access record (its enterprise’s rate) or from this ' +
      'address (SE_429); the call was not made. `Retry-After` says how many seconds to wait.',
    headers: {
      'Retry-After': {
        description: 'Seconds until the call may be made again.',
        schema: { type: 'integer' },
      },
    },
  },
} as const satisfies Record<
  number,
  { name: string; codes: readonly ErrorCode[]; description: string; headers?: Record<string, unknown> }
>;

export const TAG_DESCRIPTIONS: Record<string, string> = {
  Meta: 'This document.',
  Assets: 'Find assets and get links to their files.',
  Uploads: 'Push files in: the same rules as an upload by the access record’s user.',
  Catalogue: 'Tags and folders, to resolve the ids the asset calls take.',
};

/** The recipe of a signed request, in the security scheme's description (Markdown). */
export const SIGNING_RECIPE = [
  'Every call except `GET /open/v1/download` is signed with an access record’s key: its public',
  'key id (`dak_…`) and its secret (`dsk_…`, shown once when the record is created or rotated at',
  '/manage/api). Send five headers:',
  '',
  `- \`${OPEN_API_HEADERS.key}\`: the key id;`,
  `- \`${OPEN_API_HEADERS.timestamp}\`: the current time in unix seconds (within ±${OPEN_API_CLOCK_SKEW_SECONDS} s of the server’s clock);`,
  `- \`${OPEN_API_HEADERS.nonce}\`: 16–64 characters of \`[A-Za-z0-9_-]\`, new for every request (a nonce is accepted once);`,
  `- \`${OPEN_API_HEADERS.contentSha256}\`: the lower-case hex SHA-256 of the body’s bytes as sent (of the empty string without a body);`,
  `- \`${OPEN_API_HEADERS.signature}\`: base64url (no padding) of HMAC-SHA256, keyed with the secret’s UTF-8 bytes, of the canonical string.`,
  '',
  'The canonical string is these seven lines joined with `\\n` (no trailing newline):',
  '',
  '```',
  OPEN_API_SIGNING_SCHEME,
  '<key id>',
  '<timestamp>',
  '<nonce>',
  '<METHOD in upper case>',
  '<request target: the path and ?query exactly as sent>',
  '<content sha256>',
  '```',
].join('\n');

export const INFO_DESCRIPTION = [
  'What the brand’s other systems (e-commerce, PIM, ERP) call: find assets by article number, tag,',
  'folder; get time-limited download links, as stored or converted; push files in.',
  '',
  'A call acts with the rights of the access record’s user and only if the record’s enterprise',
  'allows it. Every JSON answer is the envelope `{success, result, errorCode, errorDesc}` with the',
  'matching HTTP status; `errorDesc` is in the language of the `lang` header (zh, en, ja, ko, de).',
  '',
  `Limits: up to ${OPEN_ART_NUMS_MAX.toLocaleString('en')} article numbers per call; each access record`,
  `may make its enterprise’s calls per minute (${OPEN_API_RATE_DEFAULT} unless the administrator set`,
  `another); links live ${OPEN_LINK_SECONDS_DEFAULT} s by default, ${OPEN_LINK_SECONDS_MAX} s at most.`,
  '',
  '## Signing',
  '',
  SIGNING_RECIPE,
].join('\n');

/** The signed headers besides the key (which is the security scheme), as components.parameters. */
export const SIGNED_HEADER_PARAMETERS: Record<
  string,
  { name: string; description: string; schema: Record<string, unknown> }
> = {
  DamTimestamp: {
    name: OPEN_API_HEADERS.timestamp,
    description: `Unix seconds; within ±${OPEN_API_CLOCK_SKEW_SECONDS} s of the server’s clock.`,
    schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
  },
  DamNonce: {
    name: OPEN_API_HEADERS.nonce,
    description: 'New for every request; a nonce is accepted once.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,64}$' },
  },
  DamContentSha256: {
    name: OPEN_API_HEADERS.contentSha256,
    description: 'Lower-case hex SHA-256 of the body as sent (of the empty string without a body).',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  DamSignature: {
    name: OPEN_API_HEADERS.signature,
    description: 'base64url(HMAC-SHA256(secret, canonical string)); see the `damKey` security scheme.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
  },
};
