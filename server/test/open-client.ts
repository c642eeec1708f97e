import { randomBytes } from 'node:crypto';
import { LANG_HEADER, OPEN_CALLS, type OpenCall } from '@dam/contract';
import type { FastifyInstance } from 'fastify';
import { SecretBox } from '../src/lib/secret-box';
import type { TestApp } from './harness';

/** A client of the open API for tests; requests are signed by ./open-signing (the recipe is there). */
export { type OpenKey, type SignOptions, signOpenRequest } from './open-signing';

import { bodyBytes, type OpenKey, type SignOptions, signOpenRequest } from './open-signing';

export interface OpenEnvelope<T = unknown> {
  success: boolean;
  result: T;
  errorCode: string | null;
  errorDesc: string | null;
}

export interface OpenCallOptions extends SignOptions {
  /** Headers to add or override after signing (a tampered signature, a missing header: `''` drops it). */
  headers?: Record<string, string>;
  /** Send these bytes instead of the body that was signed (a tampered body). */
  sendBody?: unknown;
  /** Send to this request target instead of the signed `url` (a tampered query). */
  sendUrl?: string;
  /** Send no x-dam-* headers at all. */
  unsigned?: boolean;
  lang?: 'zh' | 'en';
}

export interface OpenAnswer<T = unknown> {
  status: number;
  /** The parsed envelope (null when the answer is not JSON, e.g. a binary reply). */
  body: OpenEnvelope<T>;
  headers: Record<string, unknown>;
  rawPayload: Buffer;
}

function isTestApp(target: unknown): target is TestApp {
  return typeof target === 'object' && target !== null && 'app' in target && 'database' in target;
}

/**
 * A signed call: through `inject` of the app (a TestApp: timestamps from its clock), or over real
 * HTTP to a base URL (`http://127.0.0.1:1234`). `url` is the request target, sent as it is.
 */
export async function openCall<T = unknown>(
  target: FastifyInstance | TestApp | string,
  key: OpenKey,
  method: string,
  url: string,
  body?: unknown,
  options: OpenCallOptions = {},
): Promise<OpenAnswer<T>> {
  const clock = key.clock ?? (isTestApp(target) ? target.clock : undefined);
  const signed = options.unsigned
    ? {}
    : signOpenRequest(clock ? { ...key, clock } : key, method, url, body, options);
  const headers: Record<string, string> = { ...signed };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === '') delete headers[name];
    else headers[name] = value;
  }
  if (options.lang) headers[LANG_HEADER] = options.lang;
  const sent = options.sendBody !== undefined ? options.sendBody : body;
  const payload = sent === undefined ? undefined : bodyBytes(sent);
  if (payload) headers['content-type'] = 'application/json';
  const requestUrl = options.sendUrl ?? url;
  if (typeof target === 'string') {
    const response = await fetch(new URL(requestUrl, target), {
      method: method.toUpperCase(),
      headers,
      ...(payload ? { body: payload } : {}),
    });
    const raw = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      body: parseEnvelope<T>(raw),
      headers: Object.fromEntries(response.headers.entries()),
      rawPayload: raw,
    };
  }
  const app = isTestApp(target) ? target.app : target;
  const response = await app.inject({
    method: method.toUpperCase() as 'GET',
    url: requestUrl,
    headers,
    ...(payload ? { payload } : {}),
  });
  return {
    status: response.statusCode,
    body: parseEnvelope<T>(response.rawPayload),
    headers: response.headers,
    rawPayload: response.rawPayload,
  };
}

function parseEnvelope<T>(raw: Buffer): OpenEnvelope<T> {
  try {
    return JSON.parse(raw.toString('utf8')) as OpenEnvelope<T>;
  } catch {
    return null as unknown as OpenEnvelope<T>;
  }
}

export interface TestApiAccessOptions {
  /** The run-as user, by id or by mail (default: the first administrator, admin@example.com). */
  userId?: number;
  email?: string;
  /** The calls its enterprise allows (added to those it already has). */
  calls: readonly OpenCall[] | 'all';
  /** The enterprise's calls per minute (default 600); set on an existing enterprise too. */
  ratePerMinute?: number;
  /** An enterprise to use (made when missing); default a new one. */
  enterpriseId?: string;
  name?: string;
  /** 1 on (default), 0 off. */
  status?: 0 | 1;
}

export interface TestApiAccess extends OpenKey {
  accessId: number;
  keyId: string;
  secret: string;
  enterpriseId: string;
  name: string;
  userId: number;
  clock: { now(): Date };
}

let accessCounter = 0;

/**
 * An enterprise (allowing `calls`) and an access record with a key, inserted directly (not
 * through the management calls, which have their own tests). The secret is sealed the way the
 * server seals it, so the key works against `t.app`.
 */
export async function createTestApiAccess(t: TestApp, options: TestApiAccessOptions): Promise<TestApiAccess> {
  const db = t.database.db;
  accessCounter += 1;
  const tag = `${accessCounter}${randomBytes(3).toString('hex')}`;
  const user =
    options.userId !== undefined
      ? await db
          .selectFrom('users')
          .select(['id', 'email'])
          .where('id', '=', options.userId)
          .executeTakeFirstOrThrow()
      : await db
          .selectFrom('users')
          .select(['id', 'email'])
          .where('email', '=', options.email ?? 'admin@example.com')
          .executeTakeFirstOrThrow();
  const enterpriseId = options.enterpriseId ?? `ent_${tag}`;
  await db
    .insertInto('api_enterprises')
    .values({
      enterprise_id: enterpriseId,
      name: `Enterprise ${tag}`,
      ...(options.ratePerMinute !== undefined ? { rate_per_minute: options.ratePerMinute } : {}),
      created_by: null,
      updated_at: new Date(),
    })
    .onConflict((oc) =>
      options.ratePerMinute !== undefined
        ? oc.column('enterprise_id').doUpdateSet({ rate_per_minute: options.ratePerMinute })
        : oc.column('enterprise_id').doNothing(),
    )
    .execute();
  const calls = options.calls === 'all' ? OPEN_CALLS : options.calls;
  if (calls.length > 0) {
    await db
      .insertInto('api_enterprise_calls')
      .values(calls.map((call_code) => ({ enterprise_id: enterpriseId, call_code })))
      .onConflict((oc) => oc.columns(['enterprise_id', 'call_code']).doNothing())
      .execute();
  }
  const keyId = `dak_${randomBytes(13).toString('hex').slice(0, 20).toUpperCase()}`;
  const secret = `dsk_${randomBytes(32).toString('base64url')}`;
  const box = SecretBox.load(t.config.OPEN_API_SECRET_KEY, t.config.DATA_DIR);
  const name = options.name ?? `Access ${tag}`;
  const row = await db
    .insertInto('api_accesses')
    .values({
      key_id: keyId,
      name,
      description: 'A test access record',
      enterprise_id: enterpriseId,
      user_mail: user.email ?? '',
      run_as_user_id: user.id,
      status: options.status ?? 1,
      secret_enc: box.seal(secret, `api_access:${keyId}`),
      secret_hint: secret.slice(-4),
      created_by: null,
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { accessId: row.id, keyId, secret, enterpriseId, name, userId: user.id, clock: t.clock };
}

/**
 * Rotates a test record's secret directly: the new secret becomes current, the old one stays
 * valid until `previousValidUntil` (null: not at all). Returns the new secret.
 */
export async function rotateTestApiSecret(
  t: TestApp,
  access: TestApiAccess,
  previousValidUntil: Date | null,
): Promise<string> {
  const box = SecretBox.load(t.config.OPEN_API_SECRET_KEY, t.config.DATA_DIR);
  const secret = `dsk_${randomBytes(32).toString('base64url')}`;
  const current = await t.database.db
    .selectFrom('api_accesses')
    .select('secret_enc')
    .where('id', '=', access.accessId)
    .executeTakeFirstOrThrow();
  await t.database.db
    .updateTable('api_accesses')
    .set({
      secret_enc: box.seal(secret, `api_access:${access.keyId}`),
      secret_hint: secret.slice(-4),
      previous_secret_enc: previousValidUntil ? current.secret_enc : null,
      previous_valid_until: previousValidUntil,
      rotated_at: t.clock.now(),
    })
    .where('id', '=', access.accessId)
    .execute();
  return secret;
}
