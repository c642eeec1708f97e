import {
  type CompletenessConfigInput,
  type CompletenessReport,
  type CompletenessReportRequest,
  endpoints,
  viewCodeOfName,
} from '@dam/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call, fetchBytes } from '../../../test/call';
import {
  EVERY_SCOPE,
  type FileToUpload,
  givenDepartment,
  givenDimension,
  givenFiles,
  givenFolder,
  givenSignedInUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';

/**
 * The SKU completeness report (issue 14) on a seeded season: which expected views × formats each
 * article has among the files the caller may see, counts per season, filters, paging, the export,
 * the expectation saved as a whole (or refused, changing nothing), and function code 6.
 */
describe('SKU completeness report', () => {
  let t: TestApp;
  let admin: string;
  let season: string;
  let otherSeason: string;
  let category: string;
  const art = { a: '', b: '', c: '', d: '' };
  let soleTag: number;
  let lineTag: number;
  let folderB: { id: number; name: string };
  let defaultFolder: { id: number; name: string };
  let privateOwner: { token: string };
  let deptUser: { token: string };
  let dept: { id: number; name: string };

  const file = (fileName: string, artNum: string, extra: Partial<FileToUpload> = {}): FileToUpload => ({
    fileName,
    bytes: Buffer.from(`bytes of ${fileName}`),
    artNum,
    ...extra,
  });
  const report = (token: string, body: CompletenessReportRequest) =>
    call(t.app, endpoints.completenessReport, { token, body });
  const row = (r: CompletenessReport, artNum: string) => r.list.find((x) => x.artNum === artNum);
  /** The ticks of one article as `code:format` strings (`master:psd` for the any-file view). */
  const ticks = (r: CompletenessReport, artNum: string) => {
    const found = row(r, artNum);
    if (!found) throw new Error(`${artNum} is not in the report`);
    return r.columns.filter((_c, i) => found.cells[i]).map((c) => `${c.code ?? 'master'}:${c.format}`);
  };
  const insertSku = (artNum: string, skuSeason: string, skuCategory: string) =>
    t.database.db
      .insertInto('sku')
      .values({ art_num: artNum, name: `Shoe ${artNum}`, season: skuSeason, category: skuCategory })
      .execute();

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    admin = await signInAdmin(t);
    const stem = uniqueName('CP')
      .replace(/[^A-Za-z0-9]/g, '')
      .toUpperCase();
    season = `SS-${stem}`;
    otherSeason = `FW-${stem}`;
    category = `Run-${stem}`;
    // Article numbers of the default pattern: letters, digits, a colourway.
    const letters = stem.replace(/[0-9]/g, '').slice(0, 6) || 'CPX';
    const digits = String(Math.floor(Math.random() * 9000) + 1000);
    art.a = `${letters}A${digits}-01`;
    art.b = `${letters}B${digits}-01`;
    art.c = `${letters}C${digits}-01`;
    art.d = `${letters}D${digits}-01`;
    await insertSku(art.a, season, category);
    await insertSku(art.b, season, category);
    await insertSku(art.c, season, 'Other');
    await insertSku(art.d, otherSeason, category);

    const view = await givenDimension(t, { tags: ['Sole view', 'Top view'] });
    soleTag = view.tags['Sole view'] as number;
    const line = await givenDimension(t, { tags: ['Line X', 'Line Y'] });
    lineTag = line.tags['Line X'] as number;
    await call(t.app, endpoints.setSkuTags, { token: admin, body: { artNum: art.a, tagIdList: [lineTag] } });
    await call(t.app, endpoints.setSkuTags, { token: admin, body: { artNum: art.c, tagIdList: [lineTag] } });

    defaultFolder = await givenFolder(t, admin);
    folderB = await givenFolder(t, admin);
    const expectation: CompletenessConfigInput = {
      views: [
        { name: 'Front', code: 'front', formats: ['jpg'] },
        { name: 'Side', code: 'Side', formats: ['JPEG', 'png'] },
        { name: 'Sole', code: 'sole', tagId: soleTag, formats: ['jpg'] },
        { name: 'Master', code: '', formats: ['.psd'] },
      ],
      defaultFolderId: defaultFolder.id,
    };
    await call(t.app, endpoints.saveCompletenessConfig, { token: admin, body: expectation });

    // A: complete (the sole by its tag, the master is any PSD of the article).
    await givenFiles(t, admin, [
      file(`${art.a}_front.jpg`, art.a),
      file(`${art.a}_side.jpeg`, art.a),
      file(`${art.a}_side.png`, art.a),
      file(`${art.a}_bottom.jpg`, art.a, { tagIdList: [soleTag] }),
      file(`${art.a}.psd`, art.a),
    ]);
    // B: the front and the master (a PSD of the front); a detail that is not expected.
    await givenFiles(
      t,
      admin,
      [
        file(`${art.b}_front.jpg`, art.b),
        file(`${art.b}_front.psd`, art.b),
        file(`${art.b}_detail2.jpg`, art.b),
      ],
      { targetFolderId: folderB.id },
    );
    // C: a front only its owner can see (private folder of another user).
    privateOwner = await givenSignedInUser(t, { scopes: EVERY_SCOPE, functionCodes: [6] });
    const hidden = await givenFolder(t, privateOwner.token, { visibility: 'private' });
    await givenFiles(t, privateOwner.token, [file(`${art.c}_front.jpg`, art.c)], {
      targetFolderId: hidden.id,
    });
    // D (other season): a front that has expired does not count.
    const [expired] = await givenFiles(t, admin, [file(`${art.d}_front.jpg`, art.d)]);
    await t.database.db
      .updateTable('items')
      .set({ expire_start_date: '2020-01-01', expire_end_date: '2020-12-31' })
      .where('id', '=', expired as number)
      .execute();

    dept = await givenDepartment(t);
    deptUser = await givenSignedInUser(t, {
      deptId: dept.id,
      functionCodes: [6],
      scopes: { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' },
    });
  });
  afterAll(() => t.close());

  it('reads a view code from a name as the SQL does', () => {
    expect(viewCodeOfName('SHOE101-01_side')).toBe('side');
    expect(viewCodeOfName('SHOE101-01_Detail2')).toBe('detail');
    expect(viewCodeOfName('SHOE101-01 front')).toBe('front');
    expect(viewCodeOfName('SHOE101-01')).toBeNull();
    expect(viewCodeOfName('SHOE101-01_2')).toBeNull();
  });

  it('keeps the expectation as saved, normalised', async () => {
    const config = await call(t.app, endpoints.completenessConfig, { token: admin });
    expect(config.views.map((v) => [v.name, v.code, v.tagId, v.formats])).toEqual([
      ['Front', 'front', null, ['jpg']],
      ['Side', 'side', null, ['jpg', 'png']],
      ['Sole', 'sole', soleTag, ['jpg']],
      ['Master', null, null, ['psd']],
    ]);
    expect(config.views[2]?.tagName).toBe('Sole view');
    expect(config.defaultFolder).toEqual({ id: defaultFolder.id, path: `/${defaultFolder.name}` });
    // The save is in the operation log with the views it set.
    const logged = await call(t.app, endpoints.operationLog, {
      token: admin,
      lang: 'en',
      body: { operatorCodes: ['SKU03'], pageSize: 10 },
    });
    expect(logged.list[0]?.details.views).toEqual([
      'Front (jpg)',
      'Side (jpg/png)',
      'Sole (jpg)',
      'Master (psd)',
    ]);
    expect(logged.list[0]?.operationName).toBe('Set expected article views');
    expect(logged.list[0]?.content).toBe('Front (jpg), Side (jpg/png), Sole (jpg), Master (psd)');
  });

  it('ticks the views and formats each article has, with counts per season', async () => {
    const r = await report(admin, { seasons: [season], pageSize: 100 });
    expect(r.columns.map((c) => `${c.code ?? 'master'}:${c.format}`)).toEqual([
      'front:jpg',
      'side:jpg',
      'side:png',
      'sole:jpg',
      'master:psd',
    ]);
    expect(r.total).toBe(3);
    expect(r.list.map((x) => x.artNum)).toEqual([art.a, art.b, art.c]);
    expect(ticks(r, art.a)).toEqual(['front:jpg', 'side:jpg', 'side:png', 'sole:jpg', 'master:psd']);
    expect(ticks(r, art.b)).toEqual(['front:jpg', 'master:psd']);
    // The private front of another user is not counted for the administrator.
    expect(ticks(r, art.c)).toEqual([]);
    expect(row(r, art.a)).toMatchObject({ present: 5, expected: 5, season, category });
    expect(row(r, art.b)).toMatchObject({ present: 2, expected: 5 });
    expect(r.seasons).toEqual([
      { season, skuCount: 3, completeCount: 1, cellsPresent: 7, cellsExpected: 15 },
    ]);

    // Upload targets: the folder of the article's files, else the configured default folder.
    expect(row(r, art.b)?.target).toEqual({ id: folderB.id, path: `/${folderB.name}` });
    expect(row(r, art.a)?.target).toEqual({ id: 'all', path: '/' });
    expect(row(r, art.c)?.target).toEqual({ id: defaultFolder.id, path: `/${defaultFolder.name}` });
  });

  it('filters by status, category, SKU tag, article number and pages', async () => {
    const incomplete = await report(admin, { seasons: [season], status: 'incomplete' });
    expect(incomplete.list.map((x) => x.artNum)).toEqual([art.b, art.c]);
    expect(incomplete.total).toBe(2);
    const complete = await report(admin, { seasons: [season], status: 'complete' });
    expect(complete.list.map((x) => x.artNum)).toEqual([art.a]);

    const byCategory = await report(admin, { seasons: [season, otherSeason], categories: [category] });
    expect(byCategory.list.map((x) => x.artNum)).toEqual([art.a, art.b, art.d]);
    expect(byCategory.seasons.map((s) => [s.season, s.skuCount, s.completeCount])).toEqual(
      [
        [season, 2, 1],
        [otherSeason, 1, 0],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    // The expired front of D does not count.
    expect(ticks(byCategory, art.d)).toEqual([]);

    const byTag = await report(admin, { tagIdList: [lineTag] });
    expect(byTag.list.map((x) => x.artNum)).toEqual([art.a, art.c]);

    const byPrefix = await report(admin, { artNum: art.b.slice(0, -3).toLowerCase() });
    expect(byPrefix.list.map((x) => x.artNum)).toEqual([art.b]);

    const second = await report(admin, { seasons: [season], pageNo: 2, pageSize: 1 });
    expect(second.list.map((x) => x.artNum)).toEqual([art.b]);
    expect(second.total).toBe(3);
    const past = await report(admin, { seasons: [season], status: 'incomplete', pageNo: 3, pageSize: 1 });
    expect(past.list).toEqual([]);
  });

  it('counts only the files the caller may see (authorises the effect)', async () => {
    // The owner of the private front sees it.
    const own = await report(privateOwner.token, { seasons: [season] });
    expect(ticks(own, art.c)).toEqual(['front:jpg']);
    // A department-scoped reader sees no other department's shared files, only their own.
    const scoped = await report(deptUser.token, { seasons: [season] });
    expect(scoped.list.every((x) => x.present === 0)).toBe(true);
    expect(scoped.seasons[0]).toMatchObject({ skuCount: 3, completeCount: 0, cellsPresent: 0 });
    // The default folder is not offered to someone who may not upload into it.
    expect(row(scoped, art.c)?.target).toBeNull();
    await givenFiles(t, deptUser.token, [file(`${art.c}_side.png`, art.c)]);
    const after = await report(deptUser.token, { seasons: [season] });
    expect(ticks(after, art.c)).toEqual(['side:png']);
    // The administrator's department filter counts only that department's files.
    const inDept = await report(admin, { seasons: [season], deptId: dept.id });
    expect(ticks(inDept, art.c)).toEqual(['side:png']);
    expect(ticks(inDept, art.a)).toEqual([]);
  });

  it('turns a missing cell complete once the view is uploaded', async () => {
    const before = await report(admin, { seasons: [season], artNum: art.b });
    expect(ticks(before, art.b)).not.toContain('side:jpg');
    await givenFiles(t, admin, [file(`${art.b}_side.jpg`, art.b)], { targetFolderId: folderB.id });
    const after = await report(admin, { seasons: [season], artNum: art.b });
    expect(ticks(after, art.b)).toEqual(['front:jpg', 'side:jpg', 'master:psd']);
  });

  it('exports the filtered list as a workbook', async () => {
    const response = await fetchBytes(t.app, endpoints.exportCompleteness, {
      token: admin,
      lang: 'en',
      body: { seasons: [season], status: 'incomplete' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const rows: string[][] = [];
    sheet?.eachRow((r) => {
      rows.push(
        (r.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))),
      );
    });
    expect(rows[0]?.slice(0, 5)).toEqual([
      'Article number',
      'Name',
      'Season',
      'Category',
      'Front (front) JPG',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([art.b, art.c]);
    const c = rows.find((r) => r[0] === art.c) as string[];
    // C's side PNG came from the department user's upload above.
    expect(c.slice(4, 9)).toEqual(['MISSING', 'MISSING', 'yes', 'MISSING', 'MISSING']);
    // Its upload folder is where that PNG is (the top level).
    expect(c[c.length - 1]).toBe('/');
    expect(rows.find((r) => r[0] === art.b)?.at(-1)).toBe(`/${folderB.name}`);
    expect(workbook.worksheets[1]?.getRow(2).getCell(1).value).toBe(season);
  });

  it('refuses callers without function code 6', async () => {
    const reader = await givenSignedInUser(t, { scopes: EVERY_SCOPE, functionCodes: [5] });
    for (const outcome of [
      await attempt(t.app, endpoints.completenessReport, { token: reader.token, body: {} }),
      await attempt(t.app, endpoints.completenessConfig, { token: reader.token }),
      await attempt(t.app, endpoints.completenessFilterOptions, { token: reader.token }),
      await attempt(t.app, endpoints.saveCompletenessConfig, {
        token: reader.token,
        body: { views: [{ name: 'X', code: 'x', formats: ['jpg'] }] },
      }),
    ])
      expect(outcome).toMatchObject({ status: 403, errorCode: 'SE_502' });
    const bytes = await fetchBytes(t.app, endpoints.exportCompleteness, { token: reader.token, body: {} });
    expect(bytes.statusCode).toBe(403);
    expect((await attempt(t.app, endpoints.completenessReport, { body: {} })).status).toBe(401);
  });

  it('refuses a bad expectation or filter with a clear error and changes nothing', async () => {
    const before = await call(t.app, endpoints.completenessConfig, { token: admin });
    const bad: Array<[CompletenessConfigInput, string]> = [
      [{ views: [{ name: 'Side', code: 'side!', formats: ['jpg'] }] }, 'views.0.code'],
      [
        {
          views: [
            { name: 'A', code: 'side', formats: ['jpg'] },
            { name: 'B', code: 'SIDE', formats: ['jpg'] },
          ],
        },
        'views.1.code',
      ],
      [{ views: [{ name: 'A', code: 'a', formats: [] }] }, 'views.0.formats'],
      [{ views: [{ name: ' ', code: 'a', formats: ['jpg'] }] }, 'views.0.name'],
      [{ views: [] }, 'views'],
      [{ views: [{ name: 'A', code: 'a', tagId: 2_000_000_000, formats: ['jpg'] }] }, 'views.0.tagId'],
      [
        { views: [{ name: 'A', code: 'a', formats: ['jpg'] }], defaultFolderId: 2_000_000_000 },
        'defaultFolderId',
      ],
    ];
    for (const [body, field] of bad) {
      const outcome = await attempt(t.app, endpoints.saveCompletenessConfig, {
        token: admin,
        lang: 'en',
        body,
      });
      expect(outcome, field).toMatchObject({ status: 400, errorCode: 'SE_400' });
      expect(outcome.errorDesc, field).toContain(field);
    }
    const dup = await attempt(t.app, endpoints.saveCompletenessConfig, {
      token: admin,
      lang: 'zh',
      body: {
        views: [
          { name: 'A', code: 'side', formats: ['jpg'] },
          { name: 'B', code: 'side', formats: ['jpg'] },
        ],
      },
    });
    expect(dup.errorDesc).toContain('views.1.code: “side”重复了');
    // Another user's private folder cannot be the default.
    const hidden = await givenFolder(t, privateOwner.token, { visibility: 'private' });
    const refusedFolder = await attempt(t.app, endpoints.saveCompletenessConfig, {
      token: admin,
      body: { views: [{ name: 'A', code: 'a', formats: ['jpg'] }], defaultFolderId: hidden.id },
    });
    expect(refusedFolder.status).toBe(400);
    expect(await call(t.app, endpoints.completenessConfig, { token: admin })).toEqual(before);

    for (const body of [
      { pageSize: 101 },
      { tagIdList: [2_000_000_000] },
      { deptId: 2_000_000_000 },
      { status: 'x' },
    ])
      expect(
        await attempt(t.app, endpoints.completenessReport, {
          token: admin,
          body: body as CompletenessReportRequest,
        }),
      ).toMatchObject({ status: 400, errorCode: 'SE_400' });
  });

  it('offers the seasons, categories and departments as filters', async () => {
    const options = await call(t.app, endpoints.completenessFilterOptions, { token: admin });
    expect(options.seasons).toEqual(expect.arrayContaining([season, otherSeason]));
    expect(options.categories).toEqual(expect.arrayContaining([category, 'Other']));
    expect(options.departments.map((d) => d.id)).toContain(dept.id);
  });

  it('offers and takes only departments within a department-scoped reader’s reach', async () => {
    const own = await givenDepartment(t);
    const team = await givenDepartment(t, { parentId: own.id });
    const reader = await givenSignedInUser(t, {
      deptId: own.id,
      functionCodes: [6],
      scopes: { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' },
    });
    const options = await call(t.app, endpoints.completenessFilterOptions, { token: reader.token });
    expect(options.departments.map((d) => d.id).sort()).toEqual([own.id, team.id].sort());
    // The top of the reach shows as a root.
    expect(options.departments.find((d) => d.id === own.id)?.parentId).toBeNull();
    expect(
      await attempt(t.app, endpoints.completenessReport, {
        token: reader.token,
        body: { seasons: [season], deptId: dept.id },
      }),
    ).toMatchObject({ status: 400, errorCode: 'SE_400' });
  });
});
