import { randomBytes } from 'node:crypto';
import {
  type ApiAccessSummary,
  endpoints,
  type FunctionCode,
  type LogEntry,
  OPEN_CALLS,
  OperationCode,
  openEndpoints,
  type SaveApiAccessRequest,
} from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../../test/call';
import {
  EVERY_SCOPE,
  type GivenUser,
  givenDepartment,
  givenSignedInUser,
  givenUser,
  signInAdmin,
  uniqueName,
} from '../../../../test/factories';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { SecretBox } from '../../../lib/secret-box';
import { RolesRepository } from '../../accounts/roles.repository';
import { OpenAdminRepository } from './repository';

const API: FunctionCode[] = [7];
const DEPT_SCOPES = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;
const KEY_ID = /^dak_[a-z2-7]{20}$/;
const SECRET = /^dsk_[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;

/**
 * Open API access management (issue 15, SPEC §2 /manage/api, §3, §5, §7 /open/*): enterprises and
 * their allowed calls, access records with a key whose secret is answered once, within the
 * caller's reach, each change logged without a secret.
 */
describe('open API access management', () => {
  let t: TestApp;
  let admin: string;
  let box: SecretBox;

  beforeAll(async () => {
    const key = randomBytes(32);
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', OPEN_API_SECRET_KEY: key.toString('base64') });
    box = SecretBox.fromKey(key);
    admin = await signInAdmin(t);
  });
  afterAll(() => t.close());

  /** A unique enterprise (made by the first administrator), with its calls. */
  const givenEnterprise = async (apiCodes: string[] = ['assets.get']) => {
    const enterpriseId = uniqueName('ent').replace(/[^A-Za-z0-9_-]/g, '');
    await call(t.app, endpoints.saveApiEnterprise, {
      token: admin,
      body: { enterpriseId, name: `Enterprise ${enterpriseId}` },
    });
    await call(t.app, endpoints.saveEnterpriseCalls, { token: admin, body: { enterpriseId, apiCodes } });
    return enterpriseId;
  };
  const accessBody = (enterpriseId: string, user: GivenUser, extra: Partial<SaveApiAccessRequest> = {}) => ({
    name: uniqueName('Shop').slice(0, 30),
    description: 'The web shop pulls product images',
    enterpriseId,
    userMail: user.email,
    ...extra,
  });
  const create = (token: string, body: SaveApiAccessRequest) =>
    call(t.app, endpoints.saveApiAccess, { token, body });
  const detail = (token: string, id: number) =>
    call(t.app, endpoints.apiAccessDetail, { token, body: { id } });
  const listed = async (token: string, query: Record<string, string | number> = {}) =>
    call(t.app, endpoints.apiAccessList, { token, query: { pageSize: 100, ...query } });
  /** Every entry of `code` whose details match, newest first (all pages: other tests add entries too). */
  const logged = async (code: OperationCode, match: (details: Record<string, unknown>) => boolean) => {
    const entries: LogEntry[] = [];
    for (let pageNo = 1; ; pageNo += 1) {
      const page = await call(t.app, endpoints.operationLog, {
        token: admin,
        lang: 'en',
        body: { operatorCodes: [code], pageSize: 100, pageNo },
      });
      entries.push(...page.list);
      if (page.list.length < 100) return entries.filter((entry) => match(entry.details));
    }
  };
  const ofAccess = (id: number) => (d: Record<string, unknown>) => d.apiAccessId === id;
  const ofEnterprise = (id: string) => (d: Record<string, unknown>) => d.enterpriseId === id;
  const stored = (id: number) =>
    t.database.db.selectFrom('api_accesses').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Every operation-log row as text, to look for a secret in it. */
  const wholeLog = async () =>
    JSON.stringify(await t.database.db.selectFrom('operation_logs').selectAll().execute());

  it('lists every keyed call of the contract with its method and path (getAllApi)', async () => {
    const calls = await call(t.app, endpoints.openCalls, { token: admin });
    const expected = Object.values(openEndpoints)
      .filter((e) => 'openCall' in e && e.openCall !== 'any')
      .map((e) => ({ code: (e as { openCall: string }).openCall, method: e.method, path: e.path }));
    expect(calls).toEqual(expected);
    expect(new Set(calls.map((c) => c.code))).toEqual(new Set(OPEN_CALLS));
    expect(calls).toContainEqual({
      code: 'assets.byArtNums',
      method: 'POST',
      path: '/open/v1/assets/by-art-nums',
    });
    expect(calls.some((c) => c.path.endsWith('openapi.json') || c.path.endsWith('/download'))).toBe(false);
  });

  it('creates, edits, lists, reads, sets the calls of and deletes an enterprise, each logged', async () => {
    const enterpriseId = uniqueName('erp').replace(/[^A-Za-z0-9_-]/g, '');
    const made = await call(t.app, endpoints.saveApiEnterprise, {
      token: admin,
      body: { enterpriseId, name: ' ERP system ' },
    });
    expect(made).toMatchObject({
      enterpriseId,
      name: 'ERP system',
      ratePerMinute: 600,
      apiCodes: [],
      accessCount: 0,
    });

    // A second creation of the same ID is an edit; a rate left out is kept.
    await call(t.app, endpoints.saveApiEnterprise, {
      token: admin,
      body: { enterpriseId, name: 'ERP', ratePerMinute: 120 },
    });
    const renamed = await call(t.app, endpoints.saveApiEnterprise, {
      token: admin,
      body: { enterpriseId, name: 'ERP (SAP)' },
    });
    expect(renamed).toMatchObject({ name: 'ERP (SAP)', ratePerMinute: 120 });

    const withCalls = await call(t.app, endpoints.saveEnterpriseCalls, {
      token: admin,
      body: { enterpriseId, apiCodes: ['uploads', 'assets.get', 'assets.byArtNums', 'uploads'] },
    });
    // Kept once each, in the contract's order.
    expect(withCalls.apiCodes).toEqual(['assets.byArtNums', 'assets.get', 'uploads']);
    const replaced = await call(t.app, endpoints.saveEnterpriseCalls, {
      token: admin,
      body: { enterpriseId, apiCodes: ['tags.list'] },
    });
    expect(replaced.apiCodes).toEqual(['tags.list']);

    const [one] = await call(t.app, endpoints.apiEnterprises, { token: admin, body: { enterpriseId } });
    expect(one).toMatchObject({
      enterpriseId,
      name: 'ERP (SAP)',
      ratePerMinute: 120,
      apiCodes: ['tags.list'],
    });
    const all = await call(t.app, endpoints.apiEnterprises, { token: admin, body: {} });
    expect(all.find((e) => e.enterpriseId === enterpriseId)).toEqual(one);

    const unknown = await attempt(t.app, endpoints.apiEnterprises, {
      token: admin,
      body: { enterpriseId: 'nope-x' },
    });
    expect(unknown).toMatchObject({ status: 404, errorCode: 'SED_01' });
    const unknownCalls = await attempt(t.app, endpoints.saveEnterpriseCalls, {
      token: admin,
      body: { enterpriseId: 'nope-x', apiCodes: ['assets.get'] },
    });
    expect(unknownCalls.errorCode).toBe('SED_01');
    const badCode = await attempt(t.app, endpoints.saveEnterpriseCalls, {
      token: admin,
      lang: 'en',
      body: { enterpriseId, apiCodes: ['assets.get', 'assets.delete'] },
    });
    expect(badCode).toMatchObject({ status: 400, errorCode: 'SE_400' });
    expect(badCode.errorDesc).toContain('there is no open call named assets.delete');
    const noId = await attempt(t.app, endpoints.saveApiEnterprise, { token: admin, body: { name: 'x' } });
    expect(noId).toMatchObject({ status: 400, errorCode: 'SEP_02' });
    const noName = await attempt(t.app, endpoints.saveApiEnterprise, {
      token: admin,
      body: { enterpriseId },
    });
    expect(noName.errorCode).toBe('SE_400');
    for (const endpoint of [endpoints.deleteApiEnterprise, endpoints.saveEnterpriseCalls] as const) {
      const missing = await attempt(t.app, endpoint, { token: admin, body: { apiCodes: [] } });
      expect(missing).toMatchObject({ status: 400, errorCode: 'SEP_02' });
    }
    const badId = await attempt(t.app, endpoints.saveApiEnterprise, {
      token: admin,
      body: { enterpriseId: 'a b', name: 'x' },
    });
    expect(badId.errorCode).toBe('SE_400');

    expect(
      await call(t.app, endpoints.deleteApiEnterprise, { token: admin, body: { enterpriseId } }),
    ).toBeNull();
    expect(
      (await attempt(t.app, endpoints.apiEnterprises, { token: admin, body: { enterpriseId } })).errorCode,
    ).toBe('SED_01');
    const calls = await t.database.db
      .selectFrom('api_enterprise_calls')
      .selectAll()
      .where('enterprise_id', '=', enterpriseId)
      .execute();
    expect(calls).toEqual([]);
    // Gone already: no error, nothing logged.
    expect(
      await call(t.app, endpoints.deleteApiEnterprise, { token: admin, body: { enterpriseId } }),
    ).toBeNull();

    const saves = await logged(OperationCode.saveApiEnterprise, ofEnterprise(enterpriseId));
    expect(saves).toHaveLength(5);
    const [created] = saves.slice(-1);
    expect(created?.details.values).toEqual({ name: 'ERP system', ratePerMinute: 600, apiCodes: [] });
    expect(saves.map((s) => s.details.changes).filter(Boolean)).toEqual(
      expect.arrayContaining([
        { name: ['ERP system', 'ERP'], ratePerMinute: [600, 120] },
        { name: ['ERP', 'ERP (SAP)'] },
        { apiCodes: [[], ['assets.byArtNums', 'assets.get', 'uploads']] },
        { apiCodes: [['assets.byArtNums', 'assets.get', 'uploads'], ['tags.list']] },
      ]),
    );
    const deleted = await logged(OperationCode.deleteApiEnterprise, ofEnterprise(enterpriseId));
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ operationName: 'Delete API enterprise', newValue: 'ERP (SAP)' });
  });

  it('creates a record whose secret is answered once, sealed at rest, and never listed or logged', async () => {
    const enterpriseId = await givenEnterprise(['assets.get', 'tags.list']);
    const user = await givenUser(t.database);
    const body = accessBody(enterpriseId, user, { userMail: user.email.toUpperCase() });
    const issued = await create(admin, body);
    expect(issued.keyId).toMatch(KEY_ID);
    expect(issued.secret).toMatch(SECRET);
    const secret = issued.secret as string;

    const row = await stored(issued.id);
    expect(row).toMatchObject({
      key_id: issued.keyId,
      user_mail: user.email,
      run_as_user_id: user.id,
      status: 1,
      secret_hint: secret.slice(-4),
      previous_secret_enc: null,
      deleted_at: null,
    });
    expect(row.secret_enc).not.toContain(secret);
    expect(box.open(row.secret_enc, `api_access:${issued.keyId}`)).toBe(secret);
    // Bound to its key id: on another row it would not open.
    expect(box.open(row.secret_enc, 'api_access:dak_aaaaaaaaaaaaaaaaaaaa')).toBeNull();

    const shown = await detail(admin, issued.id);
    expect(shown).toMatchObject({
      id: issued.id,
      name: body.name,
      description: body.description,
      enterpriseId,
      enterpriseName: `Enterprise ${enterpriseId}`,
      userMail: user.email,
      status: 1,
      keyId: issued.keyId,
      secretHint: secret.slice(-4),
      previousValidUntil: null,
      lastUsedAt: null,
      callsToday: 0,
      calls30d: 0,
      apiCodes: ['assets.get', 'tags.list'],
      ratePerMinute: 600,
      usage: [],
    });
    expect(shown.userName).toMatch(/^Test User/);
    const page = await listed(admin, { enterpriseId });
    expect(page.list.map((r) => r.id)).toEqual([issued.id]);
    for (const answer of [shown, page]) {
      expect(JSON.stringify(answer)).not.toContain(secret);
      expect(JSON.stringify(answer)).not.toContain(row.secret_enc);
    }
    const [entry] = await logged(OperationCode.createApiAccess, ofAccess(issued.id));
    expect(entry).toMatchObject({ operationName: 'Create API access', newValue: body.name });
    expect(entry?.details).toMatchObject({
      keyId: issued.keyId,
      enterpriseId,
      values: { name: body.name, enterpriseId, userMail: user.email, status: 1 },
    });
    expect(await wholeLog()).not.toContain(secret);
    expect(await wholeLog()).not.toContain(row.secret_enc);

    // The enterprise counts it.
    const [enterprise] = await call(t.app, endpoints.apiEnterprises, {
      token: admin,
      body: { enterpriseId },
    });
    expect(enterprise?.accessCount).toBe(1);
  });

  it('edits a record: the key and secret stay, the run-as user follows the mail, the change is logged', async () => {
    const enterpriseId = await givenEnterprise();
    const other = await givenEnterprise();
    const ann = await givenUser(t.database);
    const bob = await givenUser(t.database);
    const body = accessBody(enterpriseId, ann);
    const issued = await create(admin, body);
    const sealed = (await stored(issued.id)).secret_enc;

    const edited = await create(admin, {
      id: issued.id,
      name: 'PIM',
      description: 'Product information',
      enterpriseId: other,
      userMail: bob.email,
      status: 0,
    });
    expect(edited).toEqual({ id: issued.id, keyId: issued.keyId, secret: null });
    const row = await stored(issued.id);
    expect(row).toMatchObject({
      name: 'PIM',
      enterprise_id: other,
      user_mail: bob.email,
      run_as_user_id: bob.id,
      status: 0,
      secret_enc: sealed,
    });
    expect((await detail(admin, issued.id)).status).toBe(0);

    const [entry] = await logged(OperationCode.editApiAccess, ofAccess(issued.id));
    expect(entry).toMatchObject({ operationName: 'Edit API access', newValue: 'PIM' });
    expect(entry?.details.changes).toEqual({
      name: [body.name, 'PIM'],
      description: [body.description, 'Product information'],
      enterpriseId: [enterpriseId, other],
      userMail: [ann.email, bob.email],
      status: [1, 0],
    });

    const unknown = await attempt(t.app, endpoints.saveApiAccess, {
      token: admin,
      body: { ...accessBody(enterpriseId, ann), id: 999_999 },
    });
    expect(unknown).toMatchObject({ status: 404, errorCode: 'SE_404' });
  });

  it('requires name, description and enterprise (SEP_02), a known enterprise and a live registered user', async () => {
    const enterpriseId = await givenEnterprise();
    const user = await givenUser(t.database);
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('api_accesses')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const refused = async (body: Record<string, unknown>) =>
      attempt(t.app, endpoints.saveApiAccess, { token: admin, lang: 'en', body });

    expect(await refused({ ...accessBody(enterpriseId, user), enterpriseId: undefined })).toMatchObject({
      status: 400,
      errorCode: 'SEP_02',
      errorDesc: 'Missing parameter: enterprise ID',
    });
    expect(await refused(accessBody('unknown-ent', user))).toMatchObject({
      status: 404,
      errorCode: 'SED_01',
    });
    expect((await refused(accessBody(enterpriseId, user, { name: '  ' }))).errorCode).toBe('SE_400');
    expect((await refused(accessBody(enterpriseId, user, { description: '' }))).errorCode).toBe('SE_400');
    expect((await refused(accessBody(enterpriseId, user, { userMail: 'not a mail' }))).errorCode).toBe(
      'SE_400',
    );
    expect(await refused(accessBody(enterpriseId, user, { userMail: 'nobody@example.com' }))).toMatchObject({
      status: 404,
      errorCode: 'SED_12',
    });
    const leaver = await givenUser(t.database);
    await call(t.app, endpoints.deleteUser, { token: admin, body: { userId: leaver.id } });
    expect(await refused(accessBody(enterpriseId, leaver))).toMatchObject({
      status: 403,
      errorCode: 'SED_03',
    });
    expect(await count()).toBe(before);

    // An edit follows the same rules and keeps the record as it was.
    const issued = await create(admin, accessBody(enterpriseId, user));
    const kept = await stored(issued.id);
    const editNoEnterprise = { ...accessBody(enterpriseId, user), id: issued.id, enterpriseId: undefined };
    expect((await refused(editNoEnterprise)).errorCode).toBe('SEP_02');
    expect((await refused(accessBody(enterpriseId, leaver, { id: issued.id }))).errorCode).toBe('SED_03');
    expect((await refused(accessBody('unknown-ent', user, { id: issued.id }))).errorCode).toBe('SED_01');
    expect(await stored(issued.id)).toEqual(kept);
  });

  it('rotates a secret with a grace period (the old one kept until then) and without (dropped)', async () => {
    const enterpriseId = await givenEnterprise();
    const user = await givenUser(t.database);
    const issued = await create(admin, accessBody(enterpriseId, user));
    const first = issued.secret as string;
    const context = `api_access:${issued.keyId}`;

    const rotated = await call(t.app, endpoints.rotateApiSecret, {
      token: admin,
      body: { id: issued.id, graceHours: 24 },
    });
    expect(rotated.id).toBe(issued.id);
    expect(rotated.keyId).toBe(issued.keyId);
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.secret).not.toBe(first);
    const second = rotated.secret as string;
    const graceUntil = new Date(t.clock.now().getTime() + 24 * 3600_000);
    let row = await stored(issued.id);
    expect(box.open(row.secret_enc, context)).toBe(second);
    expect(box.open(row.previous_secret_enc as string, context)).toBe(first);
    expect(row.previous_valid_until?.toISOString()).toBe(graceUntil.toISOString());
    expect(row.rotated_at?.toISOString()).toBe(t.clock.now().toISOString());
    expect(row.secret_hint).toBe(second.slice(-4));
    const shown = await detail(admin, issued.id);
    expect(shown).toMatchObject({
      previousValidUntil: graceUntil.toISOString(),
      secretHint: second.slice(-4),
    });
    expect(JSON.stringify(shown)).not.toContain(second);

    const again = await call(t.app, endpoints.rotateApiSecret, { token: admin, body: { id: issued.id } });
    const third = again.secret as string;
    row = await stored(issued.id);
    expect(box.open(row.secret_enc, context)).toBe(third);
    expect(row.previous_secret_enc).toBeNull();
    expect(row.previous_valid_until).toBeNull();
    expect((await detail(admin, issued.id)).previousValidUntil).toBeNull();

    const entries = await logged(OperationCode.rotateApiSecret, ofAccess(issued.id));
    expect(entries.map((e) => e.details.graceHours)).toEqual([0, 24]);
    expect(entries[1]?.details).toMatchObject({
      keyId: issued.keyId,
      previousValidUntil: graceUntil.toISOString(),
    });
    expect(entries[0]?.details.previousValidUntil).toBeNull();
    const log = await wholeLog();
    for (const secret of [first, second, third]) expect(log).not.toContain(secret);

    const badGrace = await attempt(t.app, endpoints.rotateApiSecret, {
      token: admin,
      body: { id: issued.id, graceHours: 169 },
    });
    expect(badGrace.errorCode).toBe('SE_400');
    const unknown = await attempt(t.app, endpoints.rotateApiSecret, { token: admin, body: { id: 999_999 } });
    expect(unknown.errorCode).toBe('SE_404');
  });

  it('deletes a record (soft), twice or twice at once without an error, and logs one deletion', async () => {
    const enterpriseId = await givenEnterprise();
    const user = await givenUser(t.database);
    const { id } = await create(admin, accessBody(enterpriseId, user));
    const answers = await Promise.all([
      attempt(t.app, endpoints.deleteApiAccess, { token: admin, body: { id } }),
      attempt(t.app, endpoints.deleteApiAccess, { token: admin, body: { id } }),
    ]);
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, success: true, result: null });
    expect(await call(t.app, endpoints.deleteApiAccess, { token: admin, body: { id } })).toBeNull();
    expect((await stored(id)).deleted_at?.toISOString()).toBe(t.clock.now().toISOString());

    expect((await attempt(t.app, endpoints.apiAccessDetail, { token: admin, body: { id } })).errorCode).toBe(
      'SE_404',
    );
    expect((await listed(admin, { enterpriseId })).list).toEqual([]);
    const rotate = await attempt(t.app, endpoints.rotateApiSecret, { token: admin, body: { id } });
    expect(rotate.errorCode).toBe('SE_404');
    const edit = await attempt(t.app, endpoints.saveApiAccess, {
      token: admin,
      body: { ...accessBody(enterpriseId, user), id },
    });
    expect(edit.errorCode).toBe('SE_404');

    const entries = await logged(OperationCode.deleteApiAccess, ofAccess(id));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ operationName: 'Delete API access' });
    expect(entries[0]?.details.values).toMatchObject({ userMail: user.email, enterpriseId });
  });

  it('refuses to delete an enterprise its live records use (SEOA_05), and deletes it once they are gone', async () => {
    const enterpriseId = await givenEnterprise();
    const user = await givenUser(t.database);
    const first = await create(admin, accessBody(enterpriseId, user));
    const second = await create(admin, accessBody(enterpriseId, user));
    const refused = await attempt(t.app, endpoints.deleteApiEnterprise, {
      token: admin,
      lang: 'en',
      body: { enterpriseId },
    });
    expect(refused).toMatchObject({
      status: 409,
      errorCode: 'SEOA_05',
      errorDesc: 'The enterprise still has API accesses; delete them first',
    });
    await call(t.app, endpoints.deleteApiAccess, { token: admin, body: { id: first.id } });
    expect(
      (await attempt(t.app, endpoints.deleteApiEnterprise, { token: admin, body: { enterpriseId } }))
        .errorCode,
    ).toBe('SEOA_05');
    const [enterprise] = await call(t.app, endpoints.apiEnterprises, {
      token: admin,
      body: { enterpriseId },
    });
    expect(enterprise?.accessCount).toBe(1);
    expect(await logged(OperationCode.deleteApiEnterprise, ofEnterprise(enterpriseId))).toEqual([]);

    await call(t.app, endpoints.deleteApiAccess, { token: admin, body: { id: second.id } });
    expect(
      await call(t.app, endpoints.deleteApiEnterprise, { token: admin, body: { enterpriseId } }),
    ).toBeNull();
    // Its deleted records went with it.
    const left = await t.database.db
      .selectFrom('api_accesses')
      .select('id')
      .where('enterprise_id', '=', enterpriseId)
      .execute();
    expect(left).toEqual([]);
    expect(await logged(OperationCode.deleteApiEnterprise, ofEnterprise(enterpriseId))).toHaveLength(1);
  });

  it('counts calls from the daily table in one page: today, the last 30 days and failures', async () => {
    const enterpriseId = await givenEnterprise();
    const user = await givenUser(t.database);
    const busy = await create(admin, accessBody(enterpriseId, user));
    const quiet = await create(admin, accessBody(enterpriseId, user));
    const idle = await create(admin, accessBody(enterpriseId, user));
    const day = (daysAgo: number) =>
      new Date(t.clock.now().getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
    await t.database.db
      .insertInto('api_usage_daily')
      .values([
        { access_id: busy.id, day: day(0), call_code: 'assets.get', calls: 5, failures: 1 },
        { access_id: busy.id, day: day(0), call_code: 'tags.list', calls: 2, failures: 0 },
        { access_id: busy.id, day: day(1), call_code: 'assets.get', calls: 10, failures: 3 },
        { access_id: busy.id, day: day(29), call_code: 'assets.get', calls: 100, failures: 0 },
        // Outside the 30 days: not counted.
        { access_id: busy.id, day: day(30), call_code: 'assets.get', calls: 1000, failures: 1000 },
        { access_id: quiet.id, day: day(3), call_code: 'uploads', calls: 4, failures: 4 },
      ])
      .execute();

    const page = await listed(admin, { enterpriseId });
    const byId = new Map(page.list.map((r: ApiAccessSummary) => [r.id, r]));
    expect(byId.get(busy.id)).toMatchObject({ callsToday: 7, calls30d: 117, failures30d: 4 });
    expect(byId.get(quiet.id)).toMatchObject({ callsToday: 0, calls30d: 4, failures30d: 4 });
    expect(byId.get(idle.id)).toMatchObject({ callsToday: 0, calls30d: 0, failures30d: 0 });

    const shown = await detail(admin, busy.id);
    expect(shown).toMatchObject({ callsToday: 7, calls30d: 117, failures30d: 4 });
    expect(shown.usage).toEqual([
      { day: day(0), callCode: 'assets.get', calls: 5, failures: 1 },
      { day: day(0), callCode: 'tags.list', calls: 2, failures: 0 },
      { day: day(1), callCode: 'assets.get', calls: 10, failures: 3 },
      { day: day(29), callCode: 'assets.get', calls: 100, failures: 0 },
    ]);
  });

  it('lists newest first, by enterprise and by a keyword taken literally, in pages', async () => {
    const enterpriseId = await givenEnterprise();
    const user = await givenUser(t.database, { email: `${uniqueName('kw').toLowerCase()}@shop.example.com` });
    const tag = uniqueName('Kw').replace(/-/g, '');
    const older = await create(admin, accessBody(enterpriseId, user, { name: `${tag} 50%` }));
    t.clock.advance(1000);
    const newer = await create(
      admin,
      accessBody(enterpriseId, user, { name: `${tag} 50x`, description: 'B2B_feed' }),
    );

    const all = await listed(admin, { enterpriseId });
    expect(all.list.map((r) => r.id)).toEqual([newer.id, older.id]);
    expect(all.total).toBe(2);
    const first = await listed(admin, { enterpriseId, pageSize: 1, pageNo: 1 });
    const second = await listed(admin, { enterpriseId, pageSize: 1, pageNo: 2 });
    expect([first.list[0]?.id, second.list[0]?.id]).toEqual([newer.id, older.id]);
    expect(first).toMatchObject({ total: 2, pageNo: 1, pageSize: 1 });

    const ids = async (keyword: string) => (await listed(admin, { keyword })).list.map((r) => r.id);
    expect(await ids(`${tag} 50%`)).toEqual([older.id]);
    expect(await ids(`${tag.toUpperCase()} 50`)).toEqual([newer.id, older.id]);
    expect(await ids(`${tag} 5_`)).toEqual([]);
    expect(await ids('b2b_FEED')).toContain(newer.id);
    expect(await ids('b2b_feed')).not.toContain(older.id);
    expect(await ids(user.email.toUpperCase())).toEqual([newer.id, older.id]);
    expect((await listed(admin, { enterpriseId: 'unknown-ent' })).list).toEqual([]);
  });

  it('takes two first saves of one enterprise at once as a creation and an edit, and races a deletion cleanly', async () => {
    const enterpriseId = uniqueName('race').replace(/[^A-Za-z0-9_-]/g, '');
    const saves = await Promise.all(
      ['One', 'Two', 'Three'].map((name) =>
        attempt(t.app, endpoints.saveApiEnterprise, { token: admin, body: { enterpriseId, name } }),
      ),
    );
    for (const answer of saves) expect(answer).toMatchObject({ status: 200, success: true });
    const rows = await t.database.db
      .selectFrom('api_enterprises')
      .select('name')
      .where('enterprise_id', '=', enterpriseId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await logged(OperationCode.saveApiEnterprise, ofEnterprise(enterpriseId))).toHaveLength(3);

    // A record saved into the enterprise while it is deleted: one of the two wins, neither fails badly.
    const user = await givenUser(t.database);
    const [made, deleted] = await Promise.all([
      attempt(t.app, endpoints.saveApiAccess, { token: admin, body: accessBody(enterpriseId, user) }),
      attempt(t.app, endpoints.deleteApiEnterprise, { token: admin, body: { enterpriseId } }),
    ]);
    if (made.success) {
      expect(deleted).toMatchObject({ status: 409, errorCode: 'SEOA_05' });
      expect((await stored(made.result?.id as number)).enterprise_id).toBe(enterpriseId);
    } else {
      expect(made).toMatchObject({ status: 404, errorCode: 'SED_01' });
      expect(deleted).toMatchObject({ status: 200, success: true });
    }
  });

  it('refuses every call to someone without function code 7 (SE_502), and to strangers (SE_501)', async () => {
    const enterpriseId = await givenEnterprise();
    const user = await givenUser(t.database);
    const { id } = await create(admin, accessBody(enterpriseId, user));
    const other = await givenSignedInUser(t, { functionCodes: [1, 2, 3, 4, 5, 6, 8], scopes: EVERY_SCOPE });
    const token = other.token;
    const answers = await Promise.all([
      attempt(t.app, endpoints.openCalls, { token }),
      attempt(t.app, endpoints.apiAccessList, { token }),
      attempt(t.app, endpoints.apiAccessDetail, { token, body: { id } }),
      attempt(t.app, endpoints.saveApiAccess, { token, body: accessBody(enterpriseId, user) }),
      attempt(t.app, endpoints.saveApiAccess, { token, body: { ...accessBody(enterpriseId, user), id } }),
      attempt(t.app, endpoints.deleteApiAccess, { token, body: { id } }),
      attempt(t.app, endpoints.rotateApiSecret, { token, body: { id } }),
      attempt(t.app, endpoints.apiEnterprises, { token, body: {} }),
      attempt(t.app, endpoints.saveApiEnterprise, { token, body: { enterpriseId, name: 'Taken over' } }),
      attempt(t.app, endpoints.deleteApiEnterprise, { token, body: { enterpriseId } }),
      attempt(t.app, endpoints.saveEnterpriseCalls, { token, body: { enterpriseId, apiCodes: [] } }),
    ]);
    for (const answer of answers) expect(answer).toMatchObject({ status: 403, errorCode: 'SE_502' });
    expect((await detail(admin, id)).apiCodes).toEqual(['assets.get']);
    expect((await stored(id)).deleted_at).toBeNull();
    expect((await attempt(t.app, endpoints.apiAccessList, {})).errorCode).toBe('SE_501');
    expect((await attempt(t.app, endpoints.openCalls, {})).errorCode).toBe('SE_501');
  });

  describe('an administrator of a sub-department', () => {
    /** Root → A → A1, root → B; Ada (A1, code 7, "own department and below") administers A1. */
    let enterpriseId: string;
    let ada: { id: number; token: string };
    let inA1: GivenUser;
    let inA: GivenUser;
    let inB: GivenUser;
    let adaRecord: number;
    let aRecord: number;
    let bRecord: number;
    let a1: number;

    beforeAll(async () => {
      const a = (await givenDepartment(t)).id;
      a1 = (await givenDepartment(t, { parentId: a })).id;
      const b = (await givenDepartment(t)).id;
      ada = await givenSignedInUser(t, { deptId: a1, functionCodes: API, scopes: DEPT_SCOPES });
      inA1 = await givenUser(t.database, { deptId: a1 });
      inA = await givenUser(t.database, { deptId: a });
      inB = await givenUser(t.database, { deptId: b });
      enterpriseId = await givenEnterprise();
      adaRecord = (await create(ada.token, accessBody(enterpriseId, inA1))).id;
      aRecord = (await create(admin, accessBody(enterpriseId, inA))).id;
      bRecord = (await create(admin, accessBody(enterpriseId, inB))).id;
    });

    it('lists, reads, edits, rotates and deletes only records whose user is in the subtree', async () => {
      const page = await listed(ada.token, { enterpriseId });
      expect(page.list.map((r) => r.id)).toEqual([adaRecord]);
      expect(page.total).toBe(1);
      expect((await detail(ada.token, adaRecord)).userMail).toBe(inA1.email);

      const unknown = await attempt(t.app, endpoints.apiAccessDetail, {
        token: ada.token,
        body: { id: 999_999 },
      });
      for (const id of [aRecord, bRecord]) {
        const read = await attempt(t.app, endpoints.apiAccessDetail, { token: ada.token, body: { id } });
        expect(read).toMatchObject({ status: 404, errorCode: 'SE_404', errorDesc: unknown.errorDesc });
        const edit = await attempt(t.app, endpoints.saveApiAccess, {
          token: ada.token,
          body: { ...accessBody(enterpriseId, inA1), id },
        });
        expect(edit).toMatchObject({ status: 404, errorCode: 'SE_404' });
        const rotate = await attempt(t.app, endpoints.rotateApiSecret, { token: ada.token, body: { id } });
        expect(rotate.errorCode).toBe('SE_404');
        // Deleting answers as for a record that is gone, and deletes nothing.
        expect(await call(t.app, endpoints.deleteApiAccess, { token: ada.token, body: { id } })).toBeNull();
        expect((await stored(id)).deleted_at).toBeNull();
        expect(await logged(OperationCode.deleteApiAccess, ofAccess(id))).toEqual([]);
      }
      const rotated = await call(t.app, endpoints.rotateApiSecret, {
        token: ada.token,
        body: { id: adaRecord },
      });
      expect(rotated.secret).toMatch(SECRET);
    });

    it('answers a user outside the subtree like an unregistered mail (SED_12)', async () => {
      for (const outside of [inA, inB]) {
        const made = await attempt(t.app, endpoints.saveApiAccess, {
          token: ada.token,
          body: accessBody(enterpriseId, outside),
        });
        expect(made).toMatchObject({ status: 404, errorCode: 'SED_12' });
        const moved = await attempt(t.app, endpoints.saveApiAccess, {
          token: ada.token,
          body: { ...accessBody(enterpriseId, outside), id: adaRecord },
        });
        expect(moved.errorCode).toBe('SED_12');
      }
      expect((await stored(adaRecord)).run_as_user_id).toBe(inA1.id);
    });

    it('may not issue or rotate a key of a user in the subtree who holds more than they do (SE_502)', async () => {
      const stronger = await givenUser(t.database, { deptId: a1, scopes: EVERY_SCOPE });
      const coded = await givenUser(t.database, { deptId: a1, functionCodes: [2] });
      for (const user of [stronger, coded]) {
        const made = await attempt(t.app, endpoints.saveApiAccess, {
          token: ada.token,
          body: accessBody(enterpriseId, user),
        });
        expect(made).toMatchObject({ status: 403, errorCode: 'SE_502' });
        const moved = await attempt(t.app, endpoints.saveApiAccess, {
          token: ada.token,
          body: { ...accessBody(enterpriseId, user), id: adaRecord },
        });
        expect(moved.errorCode).toBe('SE_502');
      }
      expect((await stored(adaRecord)).run_as_user_id).toBe(inA1.id);
      // A record of such a user made by a higher administrator cannot be rotated from below.
      const theirs = (await create(admin, accessBody(enterpriseId, stronger))).id;
      const rotate = await attempt(t.app, endpoints.rotateApiSecret, {
        token: ada.token,
        body: { id: theirs },
      });
      expect(rotate).toMatchObject({ status: 403, errorCode: 'SE_502' });
      // Its name and mail may still be edited: the user is unchanged, nothing new is issued.
      const renamed = await call(t.app, endpoints.saveApiAccess, {
        token: ada.token,
        body: { ...accessBody(enterpriseId, stronger), id: theirs, name: 'Renamed below' },
      });
      expect(renamed.secret).toBeNull();
    });

    it('lists enterprises but may not change them (SE_502)', async () => {
      const all = await call(t.app, endpoints.apiEnterprises, { token: ada.token, body: {} });
      expect(all.map((e) => e.enterpriseId)).toContain(enterpriseId);
      expect(await call(t.app, endpoints.openCalls, { token: ada.token })).not.toEqual([]);
      const fresh = uniqueName('own').replace(/[^A-Za-z0-9_-]/g, '');
      const refusals = await Promise.all([
        attempt(t.app, endpoints.saveApiEnterprise, {
          token: ada.token,
          body: { enterpriseId, name: 'Mine' },
        }),
        attempt(t.app, endpoints.saveApiEnterprise, {
          token: ada.token,
          body: { enterpriseId: fresh, name: 'New' },
        }),
        attempt(t.app, endpoints.saveEnterpriseCalls, {
          token: ada.token,
          body: { enterpriseId, apiCodes: [...OPEN_CALLS] },
        }),
        attempt(t.app, endpoints.deleteApiEnterprise, { token: ada.token, body: { enterpriseId } }),
      ]);
      for (const answer of refusals) expect(answer).toMatchObject({ status: 403, errorCode: 'SE_502' });
      const [kept] = await call(t.app, endpoints.apiEnterprises, { token: admin, body: { enterpriseId } });
      expect(kept).toMatchObject({ name: `Enterprise ${enterpriseId}`, apiCodes: ['assets.get'] });
      expect(
        (await attempt(t.app, endpoints.apiEnterprises, { token: admin, body: { enterpriseId: fresh } }))
          .errorCode,
      ).toBe('SED_01');
    });
  });
});

/**
 * The access list walks the listing index newest first, at a size where the planner would rather
 * scan and sort if it could (PostgreSQL only: PGlite shares the planner, not the scale).
 */
describe.runIf(process.env.TEST_DB === 'postgres')('API access list plan (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    await sql`INSERT INTO api_enterprises (enterprise_id, name) VALUES ('plan', 'Plan')`.execute(db);
    await sql`INSERT INTO api_accesses (key_id, name, description, enterprise_id, user_mail, run_as_user_id,
        secret_enc, secret_hint, created_at, updated_at)
      SELECT 'dak_plan' || g, 'plan-' || g, 'd', 'plan', 'admin@example.com',
        (SELECT id FROM users ORDER BY id LIMIT 1), 'x', 'xxxx',
        now() - g * interval '1 minute', now()
      FROM generate_series(1, 20000) g`.execute(db);
    await sql`INSERT INTO api_usage_daily (access_id, day, call_code, calls)
      SELECT id, current_date - d, 'assets.get', 1 FROM api_accesses, generate_series(0, 9) d`.execute(db);
    await sql`ANALYZE api_accesses`.execute(db);
    await sql`ANALYZE api_usage_daily`.execute(db);
  }, 120_000);
  afterAll(() => t?.close());

  it('pages by the listing index, never sorting every record', async () => {
    const repo = new OpenAdminRepository(t.database.db, (handle) => new RolesRepository(handle));
    const plan = (await repo.listAccessesQuery({ reach: { kind: 'all' } }, 40, 20).explain())
      .map((row) => String(Object.values(row)[0]))
      .join('\n');
    expect(plan).toContain('api_accesses_listing');
    expect(plan).not.toMatch(/Seq Scan on api_accesses|Sort/);
  });
});
