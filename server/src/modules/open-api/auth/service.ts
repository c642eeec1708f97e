import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import {
  ApiAccessStatus,
  type ErrorCode,
  OPEN_API_CLOCK_SKEW_SECONDS,
  OPEN_API_HEADERS,
  OPEN_API_SIGNING_SCHEME,
  type OpenCall,
  UserStatus,
} from '@dam/contract';
import { AppError } from '../../../http/app-error';
import type { OpenAccessCaller } from '../../../http/request-context';
import type { Clock } from '../../../lib/clock';
import type { SecretBox } from '../../../lib/secret-box';
import { type AuthContext, sessionlessAuth } from '../../access/access';
import type { AccessRepository } from '../../access/access.repository';
import { clientKeyOf } from '../../ratelimit/client-key';
import type { RateLimiter } from '../../ratelimit/limiter';
import type { AccessForCheck, OpenAuthRepository } from './repository';

/*
 * The open API's key check (issue 15; docs/decisions.md "Open API: signed requests").
 *
 * A caller signs every request with its access record's secret. Headers:
 *   x-dam-key             the key id (`dak_…`, the record's public name)
 *   x-dam-timestamp       unix seconds; within OPEN_API_CLOCK_SKEW_SECONDS (300) of the server's clock
 *   x-dam-nonce           16–64 of [A-Za-z0-9_-], never reused by the record (kept until the
 *                         timestamp could no longer be accepted)
 *   x-dam-content-sha256  lower-case hex SHA-256 of the body's bytes as sent (of "" without a body)
 *   x-dam-signature       base64url (no padding) of HMAC-SHA256(key = the secret's UTF-8 bytes,
 *                         message = the canonical string)
 * The canonical string is these seven lines joined with "\n" (no trailing newline):
 *   DAM-HMAC-SHA256
 *   <key id>
 *   <timestamp, as sent>
 *   <nonce>
 *   <HTTP method, upper case>
 *   <request target: the path and ?query exactly as sent on the request line>
 *   <content sha256, as sent>
 *
 * The checks, in order (the first that fails answers): every header present and well formed
 * (no key: SEOA_01; else SEOA_02) → timestamp within the skew (SEOA_03) → the key names a record
 * not deleted, on, whose user is active (SEOA_01) → the signature matches the current secret, or
 * the previous one while its grace lasts (SEOA_02; the previous one after its grace: SEOA_01,
 * rotated away) → the nonce is new (SEOA_03) → the enterprise allows the call (SEOA_04, 403) →
 * the record's rate limit (SE_429). The body's hash is compared once the body is read (SEOA_02).
 */

/** Calls per minute from one client address to the open API, whatever the key. */
export const OPEN_API_PER_ADDRESS_PER_MINUTE = 1200;
const MINUTE_MS = 60_000;
/** A nonce is kept this long past the latest moment its timestamp could be accepted. */
const NONCE_MARGIN_SECONDS = 60;
const NONCE_SWEEP_INTERVAL_MS = MINUTE_MS;

const KEY_ID_PATTERN = /^dak_[A-Za-z0-9_-]{1,64}$/;
const TIMESTAMP_PATTERN = /^\d{1,12}$/;
const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/;
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** SHA-256 of no bytes: the content hash of a request without a body. */
export const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

/** Why a call was refused, for the operation log and the server log (never shown to the caller). */
export type OpenRefusalReason =
  | 'missing-key'
  | 'malformed-key'
  | 'missing-header'
  | 'malformed-header'
  | 'timestamp'
  | 'unknown-key'
  | 'deleted'
  | 'disabled'
  | 'user-inactive'
  | 'secret-unreadable'
  | 'signature'
  | 'rotated-away'
  | 'replay'
  | 'call-not-allowed'
  | 'not-an-open-call'
  | 'body-hash';

/** The record behind a refused call, when the key named one. */
export interface RefusedAccess {
  accessId: number;
  name: string;
  userId: number;
}

/** A refused open call: the caller sees the code; the logs get the reason and the record. */
export class OpenRefusal extends AppError {
  constructor(
    code: ErrorCode,
    readonly reason: OpenRefusalReason,
    readonly keyId: string | null,
    readonly access: RefusedAccess | null,
    values?: Record<string, string>,
  ) {
    super(code, undefined, values);
  }
}

/** A signed request as the key check sees it. */
export interface SignedRequest {
  method: string;
  /** `request.raw.url`: path and query as sent. */
  target: string;
  ip: string | null;
  headers: Record<string, string | string[] | undefined>;
  /** The route's open call (`config.openCall`); undefined: the route is not an open call. */
  openCall: OpenCall | 'any' | undefined;
}

/** A request whose signature was proven (what usage is counted against). */
export interface VerifiedKey {
  access: RefusedAccess & { keyId: string; enterpriseId: string };
  /** The declared hash of the body, checked once the body is read. */
  contentSha256: string;
}

export interface OpenAuthenticated {
  caller: OpenAccessCaller;
  auth: AuthContext;
}

type ErrorLog = (details: Record<string, unknown>, message: string) => void;

/** Refusals without a proven signature written to the operation log, per client address and minute. */
export const UNPROVEN_REFUSALS_LOGGED_PER_MINUTE = 20;

export class OpenAuthService {
  private lastNonceSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: {
      repo: OpenAuthRepository;
      access: AccessRepository;
      limiter: RateLimiter;
      secretBox: SecretBox;
      clock: Clock;
    },
  ) {}

  /**
   * Whether a refusal whose signature was never proven goes to the operation log: at most
   * UNPROVEN_REFUSALS_LOGGED_PER_MINUTE per client address, so a stranger cannot flood the log
   * (the server log keeps every one). Refusals of proven calls are always logged.
   */
  async logsUnprovenRefusal(ip: string | null): Promise<boolean> {
    try {
      await this.deps.limiter.take([
        {
          key: `open-refusal-log:${clientKeyOf(ip)}`,
          max: UNPROVEN_REFUSALS_LOGGED_PER_MINUTE,
          windowMs: MINUTE_MS,
        },
      ]);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'SE_429') return false;
      throw error;
    }
  }

  /**
   * Checks a signed request up to (not including) its body. `onVerified` is told as soon as the
   * signature is proven, so a call refused after that (replay, not allowed, rate) still counts
   * against the record's usage. `logError` gets a secret that could not be decrypted.
   */
  async authenticate(
    request: SignedRequest,
    onVerified: (verified: VerifiedKey) => void,
    logError: ErrorLog,
  ): Promise<OpenAuthenticated> {
    const { limiter, repo, clock } = this.deps;
    await limiter.take([
      {
        key: `open-ip:${clientKeyOf(request.ip)}`,
        max: OPEN_API_PER_ADDRESS_PER_MINUTE,
        windowMs: MINUTE_MS,
      },
    ]);
    const signed = this.signedHeaders(request.headers);
    const { keyId } = signed;

    const now = clock.now();
    const timestamp = Number(signed.timestamp);
    if (Math.abs(now.getTime() / 1000 - timestamp) > OPEN_API_CLOCK_SKEW_SECONDS)
      throw new OpenRefusal('SEOA_03', 'timestamp', keyId, null);

    const record = await repo.findByKeyId(keyId);
    if (!record) throw new OpenRefusal('SEOA_01', 'unknown-key', keyId, null);
    const known: RefusedAccess = { accessId: record.id, name: record.name, userId: record.run_as_user_id };
    if (record.deleted_at !== null) throw new OpenRefusal('SEOA_01', 'deleted', keyId, known);
    if (record.status !== ApiAccessStatus.on) throw new OpenRefusal('SEOA_01', 'disabled', keyId, known);
    if (record.user_status !== UserStatus.normal)
      throw new OpenRefusal('SEOA_01', 'user-inactive', keyId, known);

    const canonical = [
      OPEN_API_SIGNING_SCHEME,
      keyId,
      signed.timestamp,
      signed.nonce,
      request.method.toUpperCase(),
      request.target,
      signed.contentSha256,
    ].join('\n');
    this.checkSignature(record, canonical, signed.signature, now, known, logError);
    onVerified({
      access: { ...known, keyId, enterpriseId: record.enterprise_id },
      contentSha256: signed.contentSha256,
    });

    await this.sweepNonces(now);
    const expiresAt = new Date((timestamp + OPEN_API_CLOCK_SKEW_SECONDS + NONCE_MARGIN_SECONDS) * 1000);
    if (!(await repo.useNonce(record.id, signed.nonce, expiresAt)))
      throw new OpenRefusal('SEOA_03', 'replay', keyId, known);

    const call = request.openCall;
    if (call === undefined)
      throw new OpenRefusal('SEOA_04', 'not-an-open-call', keyId, known, {
        value: request.target.split('?')[0] ?? '',
      });
    if (call !== 'any' && !(await repo.enterpriseAllows(record.enterprise_id, call)))
      throw new OpenRefusal('SEOA_04', 'call-not-allowed', keyId, known, { value: call });

    await limiter.take([{ key: `open:${record.id}`, max: record.rate_per_minute, windowMs: MINUTE_MS }]);

    return {
      caller: {
        accessId: record.id,
        keyId,
        name: record.name,
        enterpriseId: record.enterprise_id,
        userId: record.run_as_user_id,
      },
      auth: await this.authOf(record),
    };
  }

  /** The headers, each present once and well formed; else SEOA_01 (no key) or SEOA_02. */
  private signedHeaders(headers: SignedRequest['headers']) {
    const one = (name: string): string | undefined => {
      const value = headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const keyId = one(OPEN_API_HEADERS.key);
    if (keyId === undefined || keyId === '') throw new OpenRefusal('SEOA_01', 'missing-key', null, null);
    if (!KEY_ID_PATTERN.test(keyId)) throw new OpenRefusal('SEOA_01', 'malformed-key', null, null);
    const timestamp = one(OPEN_API_HEADERS.timestamp);
    const nonce = one(OPEN_API_HEADERS.nonce);
    const contentSha256 = one(OPEN_API_HEADERS.contentSha256);
    const signature = one(OPEN_API_HEADERS.signature);
    if (!timestamp || !nonce || !contentSha256 || !signature)
      throw new OpenRefusal('SEOA_02', 'missing-header', keyId, null);
    if (
      !TIMESTAMP_PATTERN.test(timestamp) ||
      !NONCE_PATTERN.test(nonce) ||
      !SHA256_HEX_PATTERN.test(contentSha256) ||
      !SIGNATURE_PATTERN.test(signature)
    )
      throw new OpenRefusal('SEOA_02', 'malformed-header', keyId, null);
    return { keyId, timestamp, nonce, contentSha256, signature };
  }

  /**
   * The signature against the current secret, then the previous one while its grace lasts. A
   * previous secret past its grace that still matches is "rotated away" (SEOA_01): the caller
   * holds a key that was valid, and is told it is no longer.
   */
  private checkSignature(
    record: AccessForCheck,
    canonical: string,
    signature: string,
    now: Date,
    known: RefusedAccess,
    logError: ErrorLog,
  ): void {
    const given = Buffer.from(signature, 'base64url');
    const context = `api_access:${record.key_id}`;
    const matches = (sealed: string, which: string): boolean => {
      const secret = this.deps.secretBox.open(sealed, context);
      if (secret === null) {
        // Never the secret itself: which record, and that the server's key does not open it.
        logError(
          { accessId: record.id, keyId: record.key_id, secret: which },
          'open API: an access secret could not be decrypted (OPEN_API_SECRET_KEY changed?)',
        );
        throw new OpenRefusal('SEOA_02', 'secret-unreadable', record.key_id, known);
      }
      const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(canonical, 'utf8').digest();
      return expected.length === given.length && timingSafeEqual(expected, given);
    };
    if (matches(record.secret_enc, 'current')) return;
    const previous = record.previous_secret_enc;
    if (previous !== null && record.previous_valid_until !== null) {
      const inGrace = record.previous_valid_until > now;
      if (matches(previous, 'previous')) {
        if (inGrace) return;
        throw new OpenRefusal('SEOA_01', 'rotated-away', record.key_id, known);
      }
    }
    throw new OpenRefusal('SEOA_02', 'signature', record.key_id, known);
  }

  /** At most once a minute per process: drops nonces that can no longer be replayed. */
  private async sweepNonces(now: Date): Promise<void> {
    if (now.getTime() - this.lastNonceSweep < NONCE_SWEEP_INTERVAL_MS) return;
    this.lastNonceSweep = now.getTime();
    await this.deps.repo.sweepNonces(now);
  }

  /** The run-as user's rights now, under no session of theirs (sessionId 0), like a share's owner. */
  private async authOf(record: AccessForCheck): Promise<AuthContext> {
    const roles = await this.deps.access.rolesOfUser(record.run_as_user_id, record.user_dept_id);
    // A key is not a password: an expired password does not stop the API.
    return sessionlessAuth(
      { id: record.run_as_user_id, deptId: record.user_dept_id, deptPath: record.user_dept_path },
      roles,
    );
  }

  /** Counts one call against the record's usage of the day (UTC) and notes its last use. */
  async countCall(
    verified: VerifiedKey,
    callCode: string,
    status: number,
    authenticated: boolean,
    ip: string | null,
  ): Promise<void> {
    const now = this.deps.clock.now();
    const day = now.toISOString().slice(0, 10);
    await this.deps.repo.countCall(verified.access.accessId, day, callCode, status >= 400);
    if (authenticated) await this.deps.repo.touchLastUsed(verified.access.accessId, now, ip);
  }
}

/**
 * A body as it streams in, unchanged, hashed on the way (SHA-256): the key check compares the
 * hash with `x-dam-content-sha256` once the body has been read. `receivedEncodedLength` counts
 * the bytes as Fastify's body reader expects of a replaced stream.
 */
export class HashingStream extends Transform {
  receivedEncodedLength = 0;
  private readonly hash = createHash('sha256');
  private hex: string | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.receivedEncodedLength += chunk.length;
    this.hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.hex = this.hash.digest('hex');
    callback();
  }

  /** The hash of the whole body once it was read; null while (or if never) read. */
  get digest(): string | null {
    return this.hex;
  }
}
