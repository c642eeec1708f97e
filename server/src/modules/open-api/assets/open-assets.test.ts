import {
  endpoints,
  OPEN_ART_NUMS_MAX,
  type OpenAsset,
  type OpenAssetPage,
  type OpenByArtNumsResult,
} from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../../test/call';
import {
  EVERY_SCOPE,
  givenDepartment,
  givenFolder,
  givenSignedInUser,
  givenTag,
  signInAdmin,
  uniqueName,
  uploadFiles,
} from '../../../../test/factories';
import { makeJpeg, makePng } from '../../../../test/fixtures';
import { createTestApp, type TestApp } from '../../../../test/harness';
import {
  createTestApiAccess,
  type OpenAnswer,
  openCall,
  type TestApiAccess,
} from '../../../../test/open-client';
import { MEDIA_BEARER_CACHE_MS } from '../../media/rights';

/**
 * The open API's asset calls (issue 15) with real keys on a real database: what the access
 * record's user may see, cursor paging to the end, one asset whole, preview links that die with
 * the record, and the operation log entries the calls leave.
 */
describe('open API asset calls', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { jobs: true });
    admin = await signInAdmin(t);
  });
  afterAll(() => t?.close());

  /** Files uploaded by `token`, each its own upload, in order; returns their item ids. */
  const upload = async (
    token: string,
    files: Array<{ fileName: string; bytes?: Buffer; artNum?: string; tagIdList?: number[] }>,
    target: { targetFolderId: number } | { path: string } = { path: '/' },
  ): Promise<number[]> => {
    const ids: number[] = [];
    for (const file of files) {
      const [uploadId] = await uploadFiles(
        t,
        token,
        [{ ...file, bytes: file.bytes ?? Buffer.from(`bytes of ${file.fileName}`) }],
        target,
      );
      const row = await t.database.db
        .selectFrom('uploads')
        .select('item_id')
        .where('id', '=', uploadId as number)
        .executeTakeFirstOrThrow();
      ids.push(row.item_id as number);
    }
    return ids;
  };

  const logsOf = (access: TestApiAccess) =>
    t.database.db
      .selectFrom('operation_logs')
      .select(['operator_code', 'operator_id', 'operator_name', 'item_ids', 'api_access_id'])
      .where('api_access_id', '=', access.accessId)
      .orderBy('id')
      .execute();

  const byArtNums = (access: TestApiAccess, body: Record<string, unknown>) =>
    openCall<OpenByArtNumsResult>(t, access, 'POST', endpoints.openAssetsByArtNums.path, body);

  /** Every page of a paged list, following nextCursor; the pages' lists joined. */
  const allPages = async (access: TestApiAccess, path: string, query: Record<string, string>) => {
    const ids: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const params: URLSearchParams = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
      const answer: OpenAnswer<OpenAssetPage> = await openCall<OpenAssetPage>(
        t,
        access,
        'GET',
        `${path}?${params}`,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.result.list.length).toBeLessThanOrEqual(Number(query.limit));
      ids.push(...answer.body.result.list.map((asset) => asset.id));
      cursor = answer.body.result.nextCursor;
      pages += 1;
      expect(pages).toBeLessThan(50);
    } while (cursor);
    return { ids, pages };
  };

  it('finds assets by article number case-insensitively and names the 3 numbers it did not find', async () => {
    const stem = uniqueName('AB').toUpperCase();
    const [first, second] = await upload(admin, [
      { fileName: `${stem}-001.txt`, artNum: `${stem}-001` },
      { fileName: `${stem}-002.txt`, artNum: `${stem}-002` },
    ]);
    const access = await createTestApiAccess(t, { calls: ['assets.byArtNums'] });
    const asked = [`${stem}-001`.toLowerCase(), `${stem}-002`, `${stem}-003`, `${stem}-004`, `${stem}-005`];

    const answer = await byArtNums(access, { artNums: asked });

    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { matches, unmatched } = answer.body.result;
    expect(unmatched).toEqual([`${stem}-003`, `${stem}-004`, `${stem}-005`]);
    expect(matches.map((m) => [m.artNum, m.assets.map((a) => a.id)])).toEqual([
      [`${stem}-001`.toLowerCase(), [first]],
      [`${stem}-002`, [second]],
    ]);
    expect(matches[0]?.assets[0]).toMatchObject({
      artNum: `${stem}-001`,
      folderPath: '/',
      formats: ['txt'],
      expired: false,
    });
    // The call is in the operation log with the access record as the operator.
    const logs = await logsOf(access);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ operator_code: 'OPEN01', operator_id: access.userId });
  });

  it("leaves a department's files unmatched for a record whose user may not see them", async () => {
    const [mine, other] = [await givenDepartment(t), await givenDepartment(t)];
    const uploader = await givenSignedInUser(t, { deptId: mine.id, scopes: EVERY_SCOPE });
    const colleague = await givenSignedInUser(t, { deptId: mine.id, scopes: { view: 'dept' } });
    const outsider = await givenSignedInUser(t, { deptId: other.id, scopes: { view: 'dept' } });
    const artNum = uniqueName('DEPT').toUpperCase();
    const [id] = await upload(uploader.token, [{ fileName: `${artNum}.txt`, artNum }]);

    const outside = await createTestApiAccess(t, { userId: outsider.id, calls: ['assets.byArtNums'] });
    const inside = await createTestApiAccess(t, { userId: colleague.id, calls: ['assets.byArtNums'] });

    expect((await byArtNums(outside, { artNums: [artNum] })).body.result).toEqual({
      matches: [],
      unmatched: [artNum],
    });
    const seen = (await byArtNums(inside, { artNums: [artNum] })).body.result;
    expect(seen.unmatched).toEqual([]);
    expect(seen.matches[0]?.assets.map((a) => a.id)).toEqual([id]);
  });

  it('filters by format and keeps the newest assets per article number', async () => {
    const artNum = uniqueName('FMT').toUpperCase();
    const folder = await givenFolder(t, admin);
    const [jpg, png, older, newer] = await upload(
      admin,
      [
        { fileName: `${uniqueName('a')}.jpg`, bytes: await makeJpeg(40, 30), artNum },
        { fileName: `${uniqueName('b')}.png`, bytes: await makePng(40, 30), artNum },
        { fileName: `${uniqueName('c')}.txt`, artNum },
        { fileName: `${uniqueName('d')}.txt`, artNum },
      ],
      { targetFolderId: folder.id },
    );
    const access = await createTestApiAccess(t, { calls: ['assets.byArtNums'] });

    const pngOnly = (await byArtNums(access, { artNums: [artNum], formats: ['PNG'] })).body.result;
    expect(pngOnly.matches[0]?.assets.map((a) => a.id)).toEqual([png]);
    const images = (await byArtNums(access, { artNums: [artNum], formats: ['jpg', 'png'] })).body.result;
    expect(images.matches[0]?.assets.map((a) => a.id)).toEqual([png, jpg]);
    const none = (await byArtNums(access, { artNums: [artNum], formats: ['psd'] })).body.result;
    expect(none).toEqual({ matches: [], unmatched: [artNum] });
    // Newest first (same creation time here: the later id), at most limitPerArtNum.
    const two = (await byArtNums(access, { artNums: [artNum], limitPerArtNum: 2 })).body.result;
    expect(two.matches[0]?.assets.map((a) => a.id)).toEqual([newer, older]);
    expect(two.matches[0]?.assets[0]?.folderId).toBe(folder.id);
  });

  it('refuses 10,001 article numbers with SE_400 and logs no successful call', async () => {
    const access = await createTestApiAccess(t, { calls: ['assets.byArtNums'] });
    const artNums = Array.from({ length: OPEN_ART_NUMS_MAX + 1 }, (_, i) => `N${i}`);

    const answer = await byArtNums(access, { artNums });

    expect(answer.status).toBe(400);
    expect(answer.body.errorCode).toBe('SE_400');
    expect((await logsOf(access)).filter((log) => log.operator_code === 'OPEN01')).toEqual([]);
    // 10,000 is allowed, and answered.
    const most = await byArtNums(access, { artNums: artNums.slice(0, OPEN_ART_NUMS_MAX) });
    expect(most.status).toBe(200);
    expect(most.body.result.unmatched).toHaveLength(OPEN_ART_NUMS_MAX);
  });

  it('pages through the assets of a tag two at a time, each once, without the ones it may not see', async () => {
    const tag = await givenTag(t);
    const other = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    const hidden = await givenFolder(t, other.token, { visibility: 'private' });
    const tagged = await upload(
      admin,
      Array.from({ length: 5 }, () => ({ fileName: `${uniqueName('tagged')}.txt`, tagIdList: [tag.id] })),
    );
    await upload(admin, [{ fileName: `${uniqueName('untagged')}.txt` }]);
    await upload(other.token, [{ fileName: `${uniqueName('private')}.txt`, tagIdList: [tag.id] }], {
      targetFolderId: hidden.id,
    });
    const access = await createTestApiAccess(t, { calls: ['assets.byTag'] });

    const { ids, pages } = await allPages(access, endpoints.openAssetsByTag.path, {
      tagId: String(tag.id),
      limit: '2',
    });

    expect(ids).toEqual([...tagged].sort((a, b) => a - b));
    expect(pages).toBe(3);
    const path = endpoints.openAssetsByTag.path;
    const unknown = await openCall(t, access, 'GET', `${path}?tagId=2147483000`);
    expect([unknown.status, unknown.body.errorCode]).toEqual([404, 'SE_404']);
    for (const cursor of ['nonsense!', Buffer.from('t:abc').toString('base64url'), 'dDox=']) {
      const bad = await openCall(t, access, 'GET', `${path}?tagId=${tag.id}&cursor=${cursor}`);
      expect([bad.status, bad.body.errorCode], cursor).toEqual([400, 'SE_400']);
    }
  });

  it("pages through a folder's own files, or everything below it, two at a time, each once", async () => {
    const top = await givenFolder(t, admin);
    const sub = await givenFolder(t, admin, { parentId: top.id });
    const subSub = await givenFolder(t, admin, { parentId: sub.id });
    const own: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      own.push(
        ...(await upload(admin, [{ fileName: `${uniqueName('own')}.txt` }], { targetFolderId: top.id })),
      );
      if (i === 1) t.clock.advance(1000); // two with the same creation time, one later
    }
    const below = [
      ...(await upload(
        admin,
        [{ fileName: `${uniqueName('sub')}.txt` }, { fileName: `${uniqueName('sub')}.txt` }],
        {
          targetFolderId: sub.id,
        },
      )),
      ...(await upload(admin, [{ fileName: `${uniqueName('deep')}.txt` }], { targetFolderId: subSub.id })),
    ];
    const access = await createTestApiAccess(t, { calls: ['assets.byFolder'] });
    const path = endpoints.openAssetsByFolder.path;

    const flat = await allPages(access, path, { folderId: String(top.id), limit: '2' });
    // Newest first: the later one, then the two of one moment by id, highest first.
    expect(flat.ids).toEqual([own[2], own[1], own[0]]);
    expect(flat.pages).toBe(2);

    const deep = await allPages(access, path, { folderId: String(top.id), recursive: 'true', limit: '2' });
    expect(new Set(deep.ids).size).toBe(deep.ids.length);
    expect([...deep.ids].sort((a, b) => a - b)).toEqual([...own, ...below].sort((a, b) => a - b));
    expect(deep.pages).toBe(3);

    // A cursor of the other listing, an unknown folder and a folder it may not see.
    const first = await openCall<OpenAssetPage>(t, access, 'GET', `${path}?folderId=${top.id}&limit=2`);
    const flatCursor = first.body.result.nextCursor as string;
    const mixed = await openCall(
      t,
      access,
      'GET',
      `${path}?folderId=${top.id}&recursive=true&cursor=${flatCursor}`,
    );
    expect([mixed.status, mixed.body.errorCode]).toEqual([400, 'SE_400']);
    const other = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    const hidden = await givenFolder(t, other.token, { visibility: 'private' });
    for (const folderId of [hidden.id, 2147483000, own[0]]) {
      const refused = await openCall(t, access, 'GET', `${path}?folderId=${folderId}`);
      expect([refused.status, refused.body.errorCode]).toEqual([404, 'SE_404']);
    }
  });

  it("gives one asset's formats, versions, tags and validity without counting a view", async () => {
    const tag = await givenTag(t);
    const base = uniqueName('asset');
    const artNum = base.toUpperCase();
    await upload(admin, [
      { fileName: `${base}.jpg`, bytes: await makeJpeg(64, 48), artNum, tagIdList: [tag.id] },
      { fileName: `${base}.png`, bytes: await makePng(30, 20), artNum },
    ]);
    t.clock.advance(60_000);
    const [id] = await upload(admin, [{ fileName: `${base}.jpg`, bytes: await makeJpeg(80, 60), artNum }]);
    // The media job reads the pixels.
    const records = await t.database.db
      .selectFrom('uploads')
      .select('id')
      .where('item_id', '=', id as number)
      .execute();
    for (const record of records) await t.jobs?.mediaDone(record.id);
    await call(t.app, endpoints.editFile, {
      token: admin,
      body: { folderDataId: id as number, startValidTime: '2025-01-01', endValidTime: '2026-01-04' },
    });
    const before = await t.database.db
      .selectFrom('items')
      .select('view_count')
      .where('id', '=', id as number)
      .executeTakeFirstOrThrow();
    const access = await createTestApiAccess(t, { calls: ['assets.get'] });

    const answer = await openCall<OpenAsset>(
      t,
      access,
      'GET',
      endpoints.openAsset.path.replace(':id', String(id)),
    );

    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const asset = answer.body.result;
    expect(asset).toMatchObject({
      id,
      name: base,
      artNum,
      folderId: null,
      formats: ['jpg', 'png'],
      validFrom: '2025-01-01',
      validTo: '2026-01-04',
      // The clock says 2026-01-05 in the business time zone.
      expired: true,
      tags: [
        { tagId: tag.id, name: tag.name, dimensionId: tag.dimensionId, dimensionName: expect.any(String) },
      ],
    });
    expect(asset.formatDetails).toEqual([
      {
        format: 'jpg',
        size: expect.any(Number),
        width: 80,
        height: 60,
        versions: 2,
        updatedAt: t.clock.now().toISOString(),
      },
      {
        format: 'png',
        size: expect.any(Number),
        width: 30,
        height: 20,
        versions: 1,
        updatedAt: expect.any(String),
      },
    ]);
    const after = await t.database.db
      .selectFrom('items')
      .select('view_count')
      .where('id', '=', id as number)
      .executeTakeFirstOrThrow();
    expect(after.view_count).toBe(before.view_count);
    const views = await t.database.db
      .selectFrom('recent_views')
      .select('user_id')
      .where('item_id', '=', id as number)
      .execute();
    expect(views).toEqual([]);
    // A folder is not an asset.
    const folder = await givenFolder(t, admin);
    const notAsset = await openCall(
      t,
      access,
      'GET',
      endpoints.openAsset.path.replace(':id', String(folder.id)),
    );
    expect(notAsset.status).toBe(404);
  });

  it('issues preview links that serve the image and die when the record is turned off', async () => {
    const [id] = await upload(admin, [
      { fileName: `${uniqueName('preview')}.png`, bytes: await makePng(640, 480) },
    ]);
    const uploadRow = await t.database.db
      .selectFrom('uploads')
      .select('id')
      .where('item_id', '=', id as number)
      .executeTakeFirstOrThrow();
    await t.jobs?.mediaDone(uploadRow.id);
    const access = await createTestApiAccess(t, { calls: ['assets.previewUrl'] });

    const answer = await openCall<{
      preview: { url: string; expiresAt: string } | null;
      thumbnail: { url: string; expiresAt: string } | null;
    }>(t, access, 'GET', endpoints.openAssetPreview.path.replace(':id', String(id)));

    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { preview, thumbnail } = answer.body.result;
    expect(preview?.url).toMatch(/^http:\/\/[^/]+\/ske-api\/v1_0\/media\?token=/);
    expect(Date.parse(preview?.expiresAt ?? '')).toBeGreaterThan(t.clock.now().getTime());
    const fetched = async (url: string) => {
      const { pathname, search } = new URL(url);
      return t.app.inject({ method: 'GET', url: pathname + search });
    };
    const image = await fetched(preview?.url as string);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
    const thumb = await fetched(thumbnail?.url as string);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    // OPEN02 (links issued) names the asset; no OPEN01 besides it.
    const logs = await logsOf(access);
    expect(logs.map((log) => [log.operator_code, log.item_ids.map(Number)])).toEqual([['OPEN02', [id]]]);

    await t.database.db
      .updateTable('api_accesses')
      .set({ status: 0 })
      .where('id', '=', access.accessId)
      .execute();
    // The media endpoint reuses a bearer's liveness for MEDIA_BEARER_CACHE_MS.
    t.clock.advance(MEDIA_BEARER_CACHE_MS + 1);
    expect((await fetched(preview?.url as string)).statusCode).toBe(403);
    expect((await fetched(thumbnail?.url as string)).statusCode).toBe(403);
    await t.database.db
      .updateTable('api_accesses')
      .set({ status: 1 })
      .where('id', '=', access.accessId)
      .execute();
    t.clock.advance(MEDIA_BEARER_CACHE_MS + 1);
    expect((await fetched(preview?.url as string)).statusCode).toBe(200);
    await t.database.db
      .updateTable('api_accesses')
      .set({ deleted_at: new Date() })
      .where('id', '=', access.accessId)
      .execute();
    t.clock.advance(MEDIA_BEARER_CACHE_MS + 1);
    expect((await fetched(preview?.url as string)).statusCode).toBe(403);
  });
});
