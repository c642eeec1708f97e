import { endpoints, type OpenChange, type OpenChangesPage } from '@dam/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../../test/call';
import {
  EVERY_SCOPE,
  givenFile,
  givenFolder,
  givenSignedInUser,
  givenTag,
  signInAdmin,
} from '../../../../test/factories';
import { makeJpeg } from '../../../../test/fixtures';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { createTestApiAccess, openCall, type TestApiAccess } from '../../../../test/open-client';
import { ManualClock } from '../../../lib/clock';
import { encodeChangeCursor } from './cursor';
import { OpenChangesRepository } from './repository';
import { OpenChangesService } from './service';

const PATH = endpoints.openAssetChanges.path;

/** One page of changes; the query as given (`since`, `cursor`, `limit`). */
const changes = (t: TestApp, access: TestApiAccess, query: Record<string, string | number>) =>
  openCall<OpenChangesPage>(
    t,
    access,
    'GET',
    `${PATH}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`,
  );

/** Every page from a start (`since` or `cursor`) until `hasMore` is false: the entries and the last cursor. */
async function readAll(
  t: TestApp,
  access: TestApiAccess,
  start: { since?: string; cursor?: string },
  limit: number,
): Promise<{ list: OpenChange[]; cursor: string; pages: number }> {
  const list: OpenChange[] = [];
  let query: Record<string, string | number> = { ...start, limit };
  let pages = 0;
  for (;;) {
    const answer = await changes(t, access, query);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const page = answer.body.result;
    pages += 1;
    expect(page.list.length).toBeLessThanOrEqual(limit);
    list.push(...page.list);
    if (!page.hasMore) return { list, cursor: page.nextCursor, pages };
    query = { cursor: page.nextCursor, limit };
  }
}

/**
 * Reads until `done` holds for what came (on PostgreSQL the journal waits behind any open
 * transaction of the server, including other test files' for a moment).
 */
async function readUntil(
  t: TestApp,
  access: TestApiAccess,
  start: { since?: string; cursor?: string },
  done: (list: OpenChange[]) => boolean,
  limit = 1000,
) {
  // Another test file's long transaction on the same server (a 200,000-row insert) can hold the
  // journal back for seconds while two test workers share the machine.
  const deadline = Date.now() + 25_000;
  for (;;) {
    const read = await readAll(t, access, start, limit);
    if (done(read.list) || Date.now() > deadline) return read;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const kindsOf = (list: OpenChange[], ids: number[]) =>
  list.filter((c) => ids.includes(c.assetId)).map((c) => [c.assetId, c.kinds] as const);

/**
 * The open API's "changed since" (issue 15) on a real database: the journal written by the
 * triggers of migration 023 for every kind of change, read in commit-safe order with an opaque
 * cursor, filtered by what the access record's user may see, and swept after 30 days.
 */
describe('open API changes', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { clock: new ManualClock(new Date()) });
    admin = await signInAdmin(t);
  });
  afterAll(() => t?.close());

  const journalOf = (itemId: number) =>
    t.database.db
      .selectFrom('asset_changes')
      .select(['id', 'kinds'])
      .where('item_id', '=', itemId)
      .orderBy('txid')
      .orderBy('id')
      .execute();

  it('tells of every kind of change of a file, in order, each once however it is paged', async () => {
    const access = await createTestApiAccess(t, { calls: ['assets.changes'] });
    const since = new Date(Date.now() - 1000).toISOString();
    const tag = await givenTag(t);
    const folder = await givenFolder(t, admin);
    // created: an upload (the item, its format, art number and tags in one transaction)
    const file = await givenFile(t, admin, { tagIdList: [tag.id] });
    const other = await givenFile(t, admin);
    // tags
    const other2 = await givenTag(t);
    await call(t.app, endpoints.modifyItemTags, {
      token: admin,
      body: { folderDataId: file.id, tagIdList: [other2.id], mode: 'add' },
    });
    // metadata: article number and validity, then the name
    await call(t.app, endpoints.editFile, {
      token: admin,
      body: { folderDataId: file.id, artNum: 'AB1234-001', endValidTime: '2030-01-01' },
    });
    await call(t.app, endpoints.editFile, {
      token: admin,
      body: { folderDataId: file.id, name: `${file.name}-b` },
    });
    // formatAdded: a JPEG of the same name joins the file
    await givenFile(t, admin, { fileName: `${file.name}-b.jpg`, bytes: await makeJpeg(40, 30) });
    // formatRemoved: that format hidden
    await call(t.app, endpoints.hideFormat, {
      token: admin,
      query: { folderDataId: file.id, format: 'jpg' },
    });
    // moved
    await call(t.app, endpoints.moveItems, {
      token: admin,
      body: { folderDataIdList: [file.id], targetFolderId: folder.id },
    });

    const mid = await readUntil(t, access, { since }, (list) =>
      list.some((c) => c.assetId === file.id && c.kinds.includes('moved')),
    );
    const moved = mid.list.filter((c) => c.assetId === file.id);
    // Each entry carries the asset as it is now.
    for (const entry of moved) {
      expect(entry.asset).toMatchObject({
        id: file.id,
        name: `${file.name}-b`,
        artNum: 'AB1234-001',
        folderId: folder.id,
        formats: ['txt'],
        validTo: '2030-01-01',
      });
    }

    // deleted, restored, deleted again, purged
    await call(t.app, endpoints.deleteItems, { token: admin, body: { idList: [file.id] } });
    await call(t.app, endpoints.restoreItems, { token: admin, query: { ids: [file.id] } });
    await call(t.app, endpoints.deleteItems, { token: admin, body: { idList: [file.id] } });
    await call(t.app, endpoints.purgeItems, { token: admin, query: { ids: [file.id] } });

    const whole = await readUntil(t, access, { since }, (list) =>
      list.some((c) => c.assetId === file.id && c.kinds.includes('purged')),
    );
    expect(kindsOf(whole.list, [file.id, other.id])).toEqual([
      [file.id, ['created']],
      [other.id, ['created']],
      [file.id, ['tags']],
      [file.id, ['metadata']],
      [file.id, ['metadata']],
      [file.id, ['formatAdded']],
      [file.id, ['formatRemoved']],
      [file.id, ['moved']],
      [file.id, ['deleted']],
      [file.id, ['restored']],
      [file.id, ['deleted']],
      [file.id, ['purged']],
    ]);
    // Purged: the asset is gone, the entries stay (with no asset).
    expect(whole.list.filter((c) => c.assetId === file.id).every((c) => c.asset === null)).toBe(true);
    expect(whole.list.find((c) => c.assetId === other.id)?.asset).toMatchObject({ id: other.id });

    // Paged two at a time: the same entries, each exactly once, in the same order.
    const paged = await readAll(t, access, { since }, 2);
    expect(paged.pages).toBeGreaterThan(5);
    expect(paged.list).toEqual(whole.list.slice(0, paged.list.length));
    expect(kindsOf(paged.list, [file.id, other.id])).toEqual(kindsOf(whole.list, [file.id, other.id]));

    // From the last cursor nothing more; the cursor holds its place.
    const after = await changes(t, access, { cursor: whole.cursor });
    expect(after.body.result).toEqual({ list: [], nextCursor: whole.cursor, hasMore: false });
    // A later change comes from there, once.
    await call(t.app, endpoints.editFile, { token: admin, body: { folderDataId: other.id, artNum: 'ZZ-1' } });
    const next = await readUntil(t, access, { cursor: whole.cursor }, (list) => list.length > 0);
    expect(kindsOf(next.list, [other.id])).toEqual([[other.id, ['metadata']]]);
  });

  it('tells a new version of a format, and a deleted version, apart from a format removed', async () => {
    const name = `VER-${Date.now()}`;
    const file = await givenFile(t, admin, { fileName: `${name}.txt`, bytes: Buffer.from('one') });
    // The same name and format again: a new version of the file's format (a different size).
    await givenFile(t, admin, { fileName: `${name}.txt`, bytes: Buffer.from('version two') });
    await givenFile(t, admin, { fileName: `${name}.png`, bytes: Buffer.from('not really a png') });
    const records = await t.database.db
      .selectFrom('uploads')
      .select(['id', 'format'])
      .where('item_id', '=', file.id)
      .orderBy('id')
      .execute();
    expect(records.map((r) => r.format)).toEqual(['txt', 'txt', 'png']);
    // Deleting the newer txt version: the older one is current again (its size): a version change.
    await call(t.app, endpoints.deleteVersion, {
      token: admin,
      query: { id: records[1]?.id as number, folderDataId: file.id },
    });
    // Deleting the only png version: that format is gone.
    await call(t.app, endpoints.deleteVersion, {
      token: admin,
      query: { id: records[2]?.id as number, folderDataId: file.id },
    });
    expect((await journalOf(file.id)).map((r) => r.kinds)).toEqual([
      ['created'],
      ['version'],
      ['formatAdded'],
      ['version'],
      ['formatRemoved'],
    ]);
  });

  it('writes nothing for a view or a download', async () => {
    const file = await givenFile(t, admin);
    const before = await journalOf(file.id);
    expect(before.map((r) => r.kinds)).toEqual([['created']]);
    await call(t.app, endpoints.fileDetail, { token: admin, query: { id: file.id } });
    const ticket = await call(t.app, endpoints.downloadTicket, {
      token: admin,
      body: { folderDataIdList: [file.id] },
    });
    expect((await t.app.inject({ method: 'GET', url: ticket.url })).statusCode).toBe(200);
    const counts = await t.database.db
      .selectFrom('items')
      .select(['view_count', 'download_count'])
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(counts.view_count).toBeGreaterThan(0);
    expect(counts.download_count).toBeGreaterThan(0);
    expect(await journalOf(file.id)).toEqual(before);
  });

  it("leaves out files the record's user cannot see, also once they are purged", async () => {
    const owner = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    const hidden = await givenFolder(t, owner.token, { visibility: 'private' });
    const since = new Date(Date.now() - 1000).toISOString();
    const secret = await givenFile(t, owner.token, { folderId: hidden.id });
    const seen = await givenFile(t, owner.token);
    await call(t.app, endpoints.deleteItems, { token: owner.token, body: { idList: [secret.id] } });
    await call(t.app, endpoints.purgeItems, { token: owner.token, query: { ids: [secret.id] } });
    await call(t.app, endpoints.editFile, {
      token: owner.token,
      body: { folderDataId: seen.id, artNum: 'S-1' },
    });
    expect((await journalOf(secret.id)).map((r) => r.kinds)).toEqual([['created'], ['deleted'], ['purged']]);

    // The administrator's record sees shared files, not the owner's private folder.
    const access = await createTestApiAccess(t, { calls: ['assets.changes'] });
    const read = await readUntil(t, access, { since }, (list) =>
      list.some((c) => c.assetId === seen.id && c.kinds.includes('metadata')),
    );
    expect(kindsOf(read.list, [secret.id, seen.id])).toEqual([
      [seen.id, ['created']],
      [seen.id, ['metadata']],
    ]);
    // The owner's own record sees all of it.
    const own = await createTestApiAccess(t, { userId: owner.id, calls: ['assets.changes'] });
    const mine = await readUntil(t, own, { since }, (list) =>
      list.some((c) => c.assetId === seen.id && c.kinds.includes('metadata')),
    );
    expect(kindsOf(mine.list, [secret.id])).toEqual([
      [secret.id, ['created']],
      [secret.id, ['deleted']],
      [secret.id, ['purged']],
    ]);
  });

  it('makes an empty first page start after what has ended', async () => {
    const access = await createTestApiAccess(t, { calls: ['assets.changes'] });
    const since = new Date(Date.now() + 3_600_000).toISOString();
    const page = await changes(t, access, { since });
    expect(page.body.result.list).toEqual([]);
    expect(page.body.result.nextCursor).not.toBe(encodeChangeCursor({ txid: '0', id: '0' }));
  });

  it('refuses a cursor it did not make', async () => {
    const access = await createTestApiAccess(t, { calls: ['assets.changes'] });
    for (const cursor of ['not a cursor!', Buffer.from('x:1').toString('base64url'), 'MTox=', 'MToxOjE']) {
      const answer = await changes(t, access, { cursor });
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('SE_400');
    }
  });
});

describe('open API changes: retention', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { clock: new ManualClock(new Date()) });
  });
  afterAll(() => t?.close());

  it('sweeps entries after 30 days; a cursor that missed some is SEOA_07', async () => {
    const admin = await signInAdmin(t);
    const access = await createTestApiAccess(t, { calls: ['assets.changes'] });
    const first = await givenFile(t, admin);
    const read = await readUntil(t, access, {}, (list) => list.some((c) => c.assetId === first.id));
    const second = await givenFile(t, admin);
    const latest = await readUntil(t, access, { cursor: read.cursor }, (list) =>
      list.some((c) => c.assetId === second.id),
    );

    const service = new OpenChangesService({
      repo: new OpenChangesRepository(t.database.db),
      assets: { currentOf: async () => new Map() },
      clock: t.clock,
    });
    expect(await service.sweep()).toBe(0);
    t.clock.advance(31 * 86_400_000);
    expect(await service.sweep()).toBeGreaterThanOrEqual(2);

    // The cursor before `second` missed it: resynchronise.
    const stale = await changes(t, access, { cursor: read.cursor });
    expect(stale.status).toBe(410);
    expect(stale.body.errorCode).toBe('SEOA_07');
    // So does an instant before the kept window.
    const old = await changes(t, access, { since: new Date(Date.now() - 86_400_000).toISOString() });
    expect(old.body.errorCode).toBe('SEOA_07');
    // A cursor that saw everything swept goes on.
    const current = await changes(t, access, { cursor: latest.cursor });
    expect(current.status).toBe(200);
    expect(current.body.result.list).toEqual([]);
    // As does the start (the oldest entry kept).
    expect((await changes(t, access, { limit: 10 })).status).toBe(200);
  });
});

describe.skipIf(process.env.TEST_DB !== 'postgres')('open API changes: concurrent transactions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { clock: new ManualClock(new Date()) });
  });
  afterAll(() => t?.close());

  it('does not skip a change whose transaction commits after a later one', async () => {
    const admin = await signInAdmin(t);
    const access = await createTestApiAccess(t, { calls: ['assets.changes'] });
    const a = await givenFile(t, admin);
    const b = await givenFile(t, admin);
    const start = await readUntil(t, access, {}, (list) => list.some((c) => c.assetId === b.id));

    const t1 = new pg.Client({ connectionString: t.database.url ?? '' });
    const t2 = new pg.Client({ connectionString: t.database.url ?? '' });
    await Promise.all([t1.connect(), t2.connect()]);
    try {
      await t1.query('BEGIN');
      await t1.query('UPDATE items SET name = name || $2 WHERE id = $1', [a.id, '-1']);
      await t2.query('UPDATE items SET name = name || $2 WHERE id = $1', [b.id, '-2']);
      // T2 has committed, but T1 (an older transaction id) is open: nothing is read past it.
      const waiting = await changes(t, access, { cursor: start.cursor });
      expect(waiting.body.result).toEqual({ list: [], nextCursor: start.cursor, hasMore: false });
      const journal = await t.database.db
        .selectFrom('asset_changes')
        .select('item_id')
        .where('item_id', '=', b.id)
        .execute();
      expect(journal).toHaveLength(2);
      await t1.query('COMMIT');
      const both = await readUntil(t, access, { cursor: start.cursor }, (list) => list.length >= 2);
      expect(kindsOf(both.list, [a.id, b.id])).toEqual([
        [a.id, ['metadata']],
        [b.id, ['metadata']],
      ]);
    } finally {
      await t1.query('ROLLBACK').catch(() => {});
      await Promise.all([t1.end(), t2.end()]);
    }
  });
});
