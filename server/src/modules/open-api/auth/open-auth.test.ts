import { ERROR_MESSAGES, OperationCode, UserStatus } from '@dam/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenDimension, givenFolder, givenUser, signInAdmin, uniqueName } from '../../../../test/factories';
import { createTestApp, type TestApp } from '../../../../test/harness';
import {
  createTestApiAccess,
  type OpenKey,
  openCall,
  rotateTestApiSecret,
  signOpenRequest,
  type TestApiAccess,
} from '../../../../test/open-client';
import { ok } from '../../../http/envelope';
import { registerErrorHandler } from '../../../http/error-handler';
import { registerRequestContext } from '../../../http/request-context';
import { SecretBox } from '../../../lib/secret-box';
import { AccessRepository } from '../../access/access.repository';
import { OperationRecorder } from '../../logs/recorder';
import { LogsRepository } from '../../logs/repository';
import { LogsService } from '../../logs/service';
import { RateLimiter } from '../../ratelimit/limiter';
import { RateLimitRepository } from '../../ratelimit/repository';
import { registerOpenAuth } from './hooks.routes';
import { OpenAuthRepository } from './repository';
import { OpenAuthService } from './service';

/**
 * The open API's key check (issue 15): signed requests through the real app (the catalogue calls)
 * and, for bodies, a stub POST call behind the same hooks on the same database. Every refusal
 * answers the envelope with its code and writes OPEN09.
 */
const TAGS = '/open/v1/tags';
const FOLDERS = '/open/v1/folders';
const MINUTE = 60_000;

describe('open API key check', () => {
  let t: TestApp;
  let stub: FastifyInstance;
  const stubLog: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    stub = await stubApp(t, stubLog);
  });
  afterAll(async () => {
    await stub?.close();
    await t?.close();
  });

  const lastLogId = async (): Promise<number> => {
    const row = await t.database.db
      .selectFrom('operation_logs')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  };
  /** The entries written after `since` (an id from lastLogId). */
  const entriesSince = (since: number) =>
    t.database.db
      .selectFrom('operation_logs')
      .select(['operator_code', 'operator_id', 'operator_name', 'api_access_id', 'details'])
      .where('id', '>', since)
      .orderBy('id')
      .execute();

  /** Calls `url` with `key` and expects the refusal `code` (status from the catalogue) and one OPEN09 row. */
  const expectRefused = async (
    code: 'SEOA_01' | 'SEOA_02' | 'SEOA_03' | 'SEOA_04',
    reason: string,
    send: () => Promise<{
      status: number;
      body: { success: boolean; errorCode: string | null; errorDesc?: string | null };
    }>,
    access: TestApiAccess | null,
  ) => {
    const since = await lastLogId();
    const answer = await send();
    expect(answer.status).toBe(code === 'SEOA_04' ? 403 : 401);
    expect(answer.body).toMatchObject({ success: false, errorCode: code, result: null });
    const entries = (await entriesSince(since)).filter((e) => e.operator_code === OperationCode.openRefused);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry?.details).toMatchObject({ reason, path: expect.stringMatching(/^\/open\/v1\//) });
    if (access) {
      expect(entry).toMatchObject({
        operator_id: access.userId,
        api_access_id: access.accessId,
        operator_name: `API · ${access.name}`,
      });
    } else {
      expect(entry).toMatchObject({ operator_id: null, api_access_id: null, operator_name: null });
    }
    return answer;
  };

  it('answers the tag catalogue to a signed call, logs OPEN01 with the record as operator, counts it', async () => {
    const dimension = await givenDimension(t);
    const access = await createTestApiAccess(t, { calls: ['tags.list'] });
    const since = await lastLogId();
    const answer = await openCall<
      Array<{ dimensionId: number; tags: Array<{ tagId: number; name: string }> }>
    >(t, access, 'GET', TAGS);
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
    const mine = answer.body.result.find((d) => d.dimensionId === dimension.id);
    expect(mine?.tags.map((tag) => tag.tagId).sort()).toEqual(Object.values(dimension.tags).sort());

    const entries = await entriesSince(since);
    expect(entries).toEqual([
      expect.objectContaining({
        operator_code: OperationCode.openCall,
        operator_id: access.userId,
        operator_name: `API · ${access.name}`,
        api_access_id: access.accessId,
        details: expect.objectContaining({ call: 'tags.list', path: TAGS }),
      }),
    ]);

    const usage = await t.database.db
      .selectFrom('api_usage_daily')
      .selectAll()
      .where('access_id', '=', access.accessId)
      .execute();
    expect(usage).toEqual([
      expect.objectContaining({ call_code: 'tags.list', calls: 1, failures: 0, day: expect.anything() }),
    ]);
    const record = await t.database.db
      .selectFrom('api_accesses')
      .select(['last_used_at', 'last_used_ip'])
      .where('id', '=', access.accessId)
      .executeTakeFirstOrThrow();
    expect(record.last_used_at?.getTime()).toBe(t.clock.now().getTime());
    expect(record.last_used_ip).toBe('127.0.0.1');
  });

  it('lists the folders the run-as user may see, under a parent or at the top', async () => {
    const token = await signInAdmin(t);
    const parent = await givenFolder(t, token);
    const child = await givenFolder(t, token, { parentId: parent.id });
    const access = await createTestApiAccess(t, { calls: ['folders.list'] });

    const top = await openCall<Array<{ id: number; name: string; path: string; hasChildren: boolean }>>(
      t,
      access,
      'GET',
      FOLDERS,
    );
    expect(top.status).toBe(200);
    expect(top.body.result).toContainEqual({
      id: parent.id,
      name: parent.name,
      path: `/${parent.name}`,
      hasChildren: true,
    });

    const under = await openCall(t, access, 'GET', `${FOLDERS}?parentId=${parent.id}`);
    expect(under.status).toBe(200);
    expect(under.body.result).toEqual([
      { id: child.id, name: child.name, path: `/${parent.name}/${child.name}`, hasChildren: false },
    ]);

    // A user who sees nothing gets nothing, and another's folder is not found.
    const blind = await givenUser(t.database);
    const blindAccess = await createTestApiAccess(t, { userId: blind.id, calls: ['folders.list'] });
    const none = await openCall(t, blindAccess, 'GET', `${FOLDERS}?parentId=${parent.id}`);
    expect(none.status).toBe(404);
    expect(none.body.errorCode).toBe('SE_404');
  });

  it('refuses a call without a key (SEOA_01), or with headers missing or malformed (SEOA_02)', async () => {
    await expectRefused(
      'SEOA_01',
      'missing-key',
      () => openCall(t, { keyId: 'x', secret: 'x' }, 'GET', TAGS, undefined, { unsigned: true }),
      null,
    );
    const access = await createTestApiAccess(t, { calls: ['tags.list'] });
    await expectRefused(
      'SEOA_02',
      'missing-header',
      () => openCall(t, access, 'GET', TAGS, undefined, { headers: { 'x-dam-nonce': '' } }),
      null,
    );
    await expectRefused(
      'SEOA_02',
      'malformed-header',
      () => openCall(t, access, 'GET', TAGS, undefined, { nonce: 'short' }),
      null,
    );
    const answer = await openCall(t, { keyId: 'x', secret: 'x' }, 'GET', TAGS, undefined, {
      unsigned: true,
      lang: 'en',
    });
    expect(answer.body.errorDesc).toBe(ERROR_MESSAGES.en.SEOA_01);
  });

  it('writes at most 20 refusals a minute per address whose signature was never proven to the operation log', async () => {
    const since = await lastLogId();
    for (let i = 0; i < 25; i += 1) {
      const answer = await t.app.inject({ method: 'GET', url: TAGS, remoteAddress: '198.51.100.77' });
      expect(answer.statusCode).toBe(401);
    }
    const refused = (await entriesSince(since)).filter((e) => e.operator_code === OperationCode.openRefused);
    expect(refused).toHaveLength(20);
    // The next minute logs again.
    t.clock.advance(MINUTE);
    await t.app.inject({ method: 'GET', url: TAGS, remoteAddress: '198.51.100.77' });
    const after = (await entriesSince(since)).filter((e) => e.operator_code === OperationCode.openRefused);
    expect(after).toHaveLength(21);
  });

  it('refuses an unknown key (SEOA_01)', async () => {
    await expectRefused(
      'SEOA_01',
      'unknown-key',
      () => openCall(t, { keyId: 'dak_NOSUCHKEY00000000000', secret: 'dsk_x', clock: t.clock }, 'GET', TAGS),
      null,
    );
  });

  it('refuses a disabled record, a deleted one and one whose user is no longer active (SEOA_01)', async () => {
    const disabled = await createTestApiAccess(t, { calls: ['tags.list'], status: 0 });
    await expectRefused('SEOA_01', 'disabled', () => openCall(t, disabled, 'GET', TAGS), disabled);

    const deleted = await createTestApiAccess(t, { calls: ['tags.list'] });
    expect((await openCall(t, deleted, 'GET', TAGS)).status).toBe(200);
    await t.database.db
      .updateTable('api_accesses')
      .set({ deleted_at: t.clock.now() })
      .where('id', '=', deleted.accessId)
      .execute();
    await expectRefused('SEOA_01', 'deleted', () => openCall(t, deleted, 'GET', TAGS), deleted);

    const user = await givenUser(t.database);
    const ofUser = await createTestApiAccess(t, { userId: user.id, calls: ['tags.list'] });
    expect((await openCall(t, ofUser, 'GET', TAGS)).status).toBe(200);
    await t.database.db
      .updateTable('users')
      .set({ status: UserStatus.deleted })
      .where('id', '=', user.id)
      .execute();
    await expectRefused('SEOA_01', 'user-inactive', () => openCall(t, ofUser, 'GET', TAGS), ofUser);
  });

  it('accepts the previous secret within its grace, refuses it after (SEOA_01), and takes the new one', async () => {
    const access = await createTestApiAccess(t, { calls: ['tags.list'] });
    const oldKey: OpenKey = { keyId: access.keyId, secret: access.secret, clock: t.clock };
    const secret = await rotateTestApiSecret(t, access, new Date(t.clock.now().getTime() + 10 * MINUTE));
    const newKey: OpenKey = { keyId: access.keyId, secret, clock: t.clock };
    expect((await openCall(t, oldKey, 'GET', TAGS)).status).toBe(200);
    expect((await openCall(t, newKey, 'GET', TAGS)).status).toBe(200);
    t.clock.advance(10 * MINUTE + 1000);
    await expectRefused('SEOA_01', 'rotated-away', () => openCall(t, oldKey, 'GET', TAGS), access);
    expect((await openCall(t, newKey, 'GET', TAGS)).status).toBe(200);

    // Rotated without a grace: the old secret is just wrong.
    const other = await createTestApiAccess(t, { calls: ['tags.list'] });
    await rotateTestApiSecret(t, other, null);
    await expectRefused('SEOA_02', 'signature', () => openCall(t, other, 'GET', TAGS), other);
  });

  it('refuses a wrong secret and a tampered query (SEOA_02)', async () => {
    const access = await createTestApiAccess(t, { calls: ['folders.list'] });
    await expectRefused(
      'SEOA_02',
      'signature',
      () => openCall(t, { ...access, secret: `${access.secret}x` }, 'GET', FOLDERS),
      access,
    );
    const token = await signInAdmin(t);
    const folder = await givenFolder(t, token);
    await expectRefused(
      'SEOA_02',
      'signature',
      () =>
        openCall(t, access, 'GET', `${FOLDERS}?parentId=${folder.id}`, undefined, {
          sendUrl: `${FOLDERS}?parentId=1`,
        }),
      access,
    );
    // The query is signed exactly as sent: a re-encoded one does not match either.
    await expectRefused(
      'SEOA_02',
      'signature',
      () =>
        openCall(t, access, 'GET', `${FOLDERS}?parentId=${folder.id}`, undefined, {
          sendUrl: `${FOLDERS}?parentId=${folder.id}&`,
        }),
      access,
    );
    // A forged signature header of the right form.
    await expectRefused(
      'SEOA_02',
      'signature',
      () =>
        openCall(t, access, 'GET', FOLDERS, undefined, { headers: { 'x-dam-signature': 'A'.repeat(43) } }),
      access,
    );
  });

  it('refuses a timestamp 301 s off either way and a reused nonce (SEOA_03)', async () => {
    const access = await createTestApiAccess(t, { calls: ['tags.list'] });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    await expectRefused(
      'SEOA_03',
      'timestamp',
      () => openCall(t, access, 'GET', TAGS, undefined, { timestamp: now - 301 }),
      null,
    );
    await expectRefused(
      'SEOA_03',
      'timestamp',
      () => openCall(t, access, 'GET', TAGS, undefined, { timestamp: now + 301 }),
      null,
    );
    expect((await openCall(t, access, 'GET', TAGS, undefined, { timestamp: now - 300 })).status).toBe(200);

    const nonce = `nonce-${uniqueName('n')}-0123456789`;
    expect((await openCall(t, access, 'GET', TAGS, undefined, { nonce })).status).toBe(200);
    await expectRefused(
      'SEOA_03',
      'replay',
      () => openCall(t, access, 'GET', TAGS, undefined, { nonce }),
      access,
    );
    // The very same request, replayed byte for byte.
    const headers = signOpenRequest(access, 'GET', TAGS);
    expect((await t.app.inject({ method: 'GET', url: TAGS, headers })).statusCode).toBe(200);
    await expectRefused(
      'SEOA_03',
      'replay',
      async () => {
        const r = await t.app.inject({ method: 'GET', url: TAGS, headers });
        return { status: r.statusCode, body: r.json() };
      },
      access,
    );
  });

  it('refuses a call the enterprise does not allow (403 SEOA_04, naming the call) and counts it as a failure', async () => {
    const access = await createTestApiAccess(t, { calls: ['tags.list'] });
    const answer = await expectRefused(
      'SEOA_04',
      'call-not-allowed',
      () => openCall(t, access, 'GET', FOLDERS, undefined, { lang: 'en' }),
      access,
    );
    expect(answer.body.errorDesc).toContain('folders.list');
    const usage = await t.database.db
      .selectFrom('api_usage_daily')
      .select(['call_code', 'calls', 'failures'])
      .where('access_id', '=', access.accessId)
      .execute();
    expect(usage).toEqual([{ call_code: 'folders.list', calls: 1, failures: 1 }]);
  });

  it("limits a record to its enterprise's calls per minute: the 4th of 3 gets 429 with retry-after, the next minute passes", async () => {
    const access = await createTestApiAccess(t, { calls: ['tags.list'], ratePerMinute: 3 });
    // Start at the beginning of a window, so the three calls share it.
    const now = t.clock.now().getTime();
    t.clock.advance(MINUTE - (now % MINUTE) + 5000);
    for (let i = 0; i < 3; i++) expect((await openCall(t, access, 'GET', TAGS)).status).toBe(200);
    const since = await lastLogId();
    const limited = await openCall(t, access, 'GET', TAGS);
    expect(limited.status).toBe(429);
    expect(limited.body.errorCode).toBe('SE_429');
    expect(limited.headers['retry-after']).toBe('55');
    // 429 is no refusal of the key: nothing in the operation log.
    expect(await entriesSince(since)).toEqual([]);
    t.clock.advance(55_000);
    expect((await openCall(t, access, 'GET', TAGS)).status).toBe(200);
    const usage = await t.database.db
      .selectFrom('api_usage_daily')
      .select(['calls', 'failures'])
      .where('access_id', '=', access.accessId)
      .executeTakeFirstOrThrow();
    expect(usage).toEqual({ calls: 5, failures: 1 });
  });

  it('notes the last use at most once a minute', async () => {
    const access = await createTestApiAccess(t, { calls: ['tags.list'] });
    const lastUsed = async () =>
      (
        await t.database.db
          .selectFrom('api_accesses')
          .select('last_used_at')
          .where('id', '=', access.accessId)
          .executeTakeFirstOrThrow()
      ).last_used_at?.getTime();
    const first = t.clock.now().getTime();
    await openCall(t, access, 'GET', TAGS);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(30_000);
    await openCall(t, access, 'GET', TAGS);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(31_000);
    await openCall(t, access, 'GET', TAGS);
    expect(await lastUsed()).toBe(t.clock.now().getTime());
  });

  it('checks the body against its signed hash: a tampered body is SEOA_02, the signed one passes', async () => {
    const access = await createTestApiAccess(t, { calls: ['tags.list'] });
    const body = { name: 'Ärmel 袖子 🧥', list: [1, 2, 3] };
    const passed = await openCall(stub, access, 'POST', '/open/v1/echo', body);
    expect(passed.status).toBe(200);
    expect(passed.body.result).toEqual({ body, accessId: access.accessId, userId: access.userId });

    await expectRefused(
      'SEOA_02',
      'body-hash',
      () => openCall(stub, access, 'POST', '/open/v1/echo', body, { sendBody: { ...body, list: [1, 2, 4] } }),
      access,
    );
    // A body signed as empty but sent.
    await expectRefused(
      'SEOA_02',
      'body-hash',
      () => openCall(stub, access, 'POST', '/open/v1/echo', undefined, { sendBody: body }),
      access,
    );
  });

  it('refuses a record whose secret the server key cannot open (SEOA_02), logging the record, never the secret', async () => {
    const access = await createTestApiAccess(t, { calls: ['tags.list'] });
    const otherKey = SecretBox.fromKey(Buffer.alloc(32, 7));
    await t.database.db
      .updateTable('api_accesses')
      .set({ secret_enc: otherKey.seal(access.secret, `api_access:${access.keyId}`) })
      .where('id', '=', access.accessId)
      .execute();
    const before = stubLog.length;
    await expectRefused(
      'SEOA_02',
      'secret-unreadable',
      () => openCall(stub, access, 'GET', '/open/v1/linked'),
      access,
    );
    const lines = stubLog.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    const error = lines.find((line) => line.level === 50);
    expect(error).toMatchObject({ accessId: access.accessId, keyId: access.keyId });
    expect(stubLog.slice(before).join('\n')).not.toContain(access.secret);
  });

  it('writes no OPEN01 for a call that wrote its own entry; that entry names the record', async () => {
    const access = await createTestApiAccess(t, { calls: ['tags.list'] });
    const since = await lastLogId();
    expect((await openCall(stub, access, 'GET', '/open/v1/linked')).status).toBe(200);
    expect(await entriesSince(since)).toEqual([
      expect.objectContaining({
        operator_code: OperationCode.openLink,
        operator_id: access.userId,
        operator_name: `API · ${access.name}`,
        api_access_id: access.accessId,
      }),
    ]);
  });

  it('sweeps nonces once they can no longer be replayed', async () => {
    const access = await createTestApiAccess(t, { calls: ['tags.list'] });
    const nonce = `sweep-${uniqueName('n')}-0123456789`;
    expect((await openCall(t, access, 'GET', TAGS, undefined, { nonce })).status).toBe(200);
    const kept = () =>
      t.database.db
        .selectFrom('api_nonces')
        .select('expires_at')
        .where('access_id', '=', access.accessId)
        .where('nonce', '=', nonce)
        .execute();
    const [row] = await kept();
    // Kept for the skew on either side of its timestamp, plus a minute.
    expect(row?.expires_at.getTime()).toBe(Math.floor(t.clock.now().getTime() / 1000) * 1000 + 360_000);
    t.clock.advance(361_000);
    expect((await openCall(t, access, 'GET', TAGS)).status).toBe(200);
    expect(await kept()).toEqual([]);
  });

  it('refuses a route in the open scope that names no open call (SEOA_04)', async () => {
    const access = await createTestApiAccess(t, { calls: 'all' });
    await expectRefused(
      'SEOA_04',
      'not-an-open-call',
      () => openCall(stub, access, 'GET', '/open/v1/unnamed'),
      access,
    );
  });

  it('answers signed calls over real HTTP, with a query string', async () => {
    // The test app itself listens (a second app would hold another DATA_DIR key for the secrets).
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const token = await signInAdmin(t);
    const parent = await givenFolder(t, token);
    const child = await givenFolder(t, token, { parentId: parent.id, name: uniqueName('Sub folder') });
    const access = await createTestApiAccess(t, { calls: ['folders.list', 'tags.list'] });
    const target = `${FOLDERS}?parentId=${parent.id}`;
    const answer = await openCall(address, access, 'GET', target);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, result: [{ id: child.id, name: child.name }] });
    const refused = await openCall(address, access, 'GET', target, undefined, {
      sendUrl: `${FOLDERS}?parentId=${child.id}`,
    });
    expect(refused.status).toBe(401);
    expect(refused.body.errorCode).toBe('SEOA_02');
  });
});

/**
 * The key check's hooks on a scope of their own, over the test app's database and clock, with a
 * POST call that echoes its body (the catalogue calls have no body) and a route naming no call.
 */
async function stubApp(t: TestApp, logLines: string[]): Promise<FastifyInstance> {
  const db = t.database.db;
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestContext(app);
  registerErrorHandler(app);
  const openAuth = new OpenAuthService({
    repo: new OpenAuthRepository(db),
    access: new AccessRepository(db),
    limiter: new RateLimiter(new RateLimitRepository(db), t.clock),
    secretBox: SecretBox.load(t.config.OPEN_API_SECRET_KEY, t.config.DATA_DIR),
    clock: t.clock,
  });
  const oplog = new OperationRecorder(new LogsService(new LogsRepository(db), t.clock, 'UTC'), () => {});
  await app.register(async (scope) => {
    registerOpenAuth(scope, { openAuth, oplog });
    scope.post('/open/v1/echo', { config: { openCall: 'tags.list' } }, async (request) =>
      ok({ body: request.body, accessId: request.openAccess?.accessId, userId: request.auth?.userId }),
    );
    scope.get('/open/v1/unnamed', async () => ok(null));
    // A call that writes its own entry (as a link-issuing call writes OPEN02).
    scope.get('/open/v1/linked', { config: { openCall: 'tags.list' } }, async (request) => {
      await oplog.record(request, OperationCode.openLink, { details: { links: 1 } });
      return ok(null);
    });
  });
  await app.ready();
  return app;
}
