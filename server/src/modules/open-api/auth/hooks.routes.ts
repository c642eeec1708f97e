import { pipeline } from 'node:stream';
import { OperationCode } from '@dam/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OperationRecorder } from '../../logs/recorder';
import {
  EMPTY_SHA256,
  HashingStream,
  type OpenAuthService,
  OpenRefusal,
  type OpenRefusalReason,
  type VerifiedKey,
} from './service';

/** What the hooks know of one request. */
interface KeyState {
  /** Set once the signature is proven: the call counts against the record's usage. */
  verified: VerifiedKey | null;
  /** Every check passed: request.openAccess and request.auth are set. */
  authenticated: boolean;
  body: HashingStream | null;
  counted: boolean;
}

/** Refusals worth a warning in the server log (someone may be probing or replaying). */
const WARN_REASONS = new Set<OpenRefusalReason>([
  'signature',
  'rotated-away',
  'replay',
  'body-hash',
  'secret-unreadable',
  'timestamp',
]);
const LOGGED_PATH_CHARS = 300;

/**
 * The open API's key check on its scope (app.ts): every route registered in `scope` is a signed
 * call (modules/open-api/auth/service.ts has the recipe and the order of the checks).
 *
 * - onRequest: the key, signature, nonce, allowed call and rate limits, before the body is read;
 *   sets request.openAccess and request.auth (the record's user, sessionId 0).
 * - preParsing / preValidation: the body's bytes are hashed as they stream in and compared with
 *   x-dam-content-sha256 (SEOA_02).
 * - onSend (before the answer leaves, so a client that saw its answer sees the counts): the
 *   record's usage of the day and last use, and OPEN01 in the operation log for an answered call
 *   whose route wrote no entry of its own (routes that log something else, e.g. OPEN02, write it
 *   through the recorder, which names the record by itself).
 * Every refusal (401/403, not 429) is written to the server log, and to the operation log as OPEN09 —
 * those whose signature was never proven at most UNPROVEN_REFUSALS_LOGGED_PER_MINUTE per address.
 */
export function registerOpenAuth(
  scope: FastifyInstance,
  { openAuth, oplog }: { openAuth: OpenAuthService; oplog: OperationRecorder },
): void {
  const states = new WeakMap<FastifyRequest, KeyState>();

  const refused = async (request: FastifyRequest, refusal: OpenRefusal): Promise<void> => {
    const details = {
      reason: refusal.reason,
      ...(refusal.keyId ? { keyId: refusal.keyId } : {}),
      path: (request.url.split('?')[0] ?? '').slice(0, LOGGED_PATH_CHARS),
    };
    const line = { openApi: { ...details, code: refusal.code, accessId: refusal.access?.accessId } };
    if (WARN_REASONS.has(refusal.reason)) request.log.warn(line, 'open API call refused');
    else request.log.info(line, 'open API call refused');
    const proven = states.get(request)?.verified != null;
    if (proven || (await openAuth.logsUnprovenRefusal(request.ip ?? null)))
      await oplog.byApiAccess(request, refusal.access, OperationCode.openRefused, { details });
  };

  scope.addHook('onRequest', async (request) => {
    const state: KeyState = { verified: null, authenticated: false, body: null, counted: false };
    states.set(request, state);
    try {
      const { caller, auth } = await openAuth.authenticate(
        {
          method: request.method,
          target: request.raw.url ?? request.url,
          ip: request.ip ?? null,
          headers: request.headers,
          openCall: request.routeOptions.config.openCall,
        },
        (verified) => {
          state.verified = verified;
        },
        (details, message) => request.log.error(details, message),
      );
      request.openAccess = caller;
      request.auth = auth;
      state.authenticated = true;
    } catch (error) {
      if (error instanceof OpenRefusal) await refused(request, error);
      throw error;
    }
  });

  scope.addHook('preParsing', async (request, _reply, payload) => {
    const state = states.get(request);
    if (!state?.authenticated || request.method === 'GET' || request.method === 'HEAD') return payload;
    const hashing = new HashingStream();
    state.body = hashing;
    // An aborted or failing upload fails the hashing stream too, so the body reader sees it.
    pipeline(payload, hashing, () => {});
    return hashing;
  });

  scope.addHook('preValidation', async (request) => {
    const state = states.get(request);
    if (!state?.authenticated || !state.verified) return;
    // A body that was never read (none sent, or a GET) hashes as "".
    const actual = state.body?.digest ?? EMPTY_SHA256;
    if (actual === state.verified.contentSha256) return;
    const { access } = state.verified;
    request.openAccess = null;
    request.auth = null;
    state.authenticated = false;
    const refusal = new OpenRefusal('SEOA_02', 'body-hash', access.keyId, access);
    await refused(request, refusal);
    throw refusal;
  });

  scope.addHook('onSend', async (request, reply, payload) => {
    const state = states.get(request);
    if (!state?.verified || state.counted) return payload;
    state.counted = true;
    const call = request.routeOptions.config.openCall ?? 'none';
    try {
      await openAuth.countCall(
        state.verified,
        call,
        reply.statusCode,
        state.authenticated,
        request.ip ?? null,
      );
    } catch (err) {
      request.log.error({ err, accessId: state.verified.access.accessId }, 'open API usage not counted');
    }
    if (state.authenticated && reply.statusCode < 400 && !oplog.wroteFor(request)) {
      await oplog.record(request, OperationCode.openCall, {
        details: { call, method: request.method, path: request.url.slice(0, LOGGED_PATH_CHARS) },
      });
    }
    return payload;
  });
}
