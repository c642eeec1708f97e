import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenUser } from '../../../test/factories';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';
import { SkuRepository } from './repository';

interface Envelope<T> {
  success: boolean;
  result: T;
  errorCode: string | null;
  errorDesc: string | null;
}
interface SkuWire {
  artNum: string;
  name: string;
  series: string | null;
  category: string | null;
  color: string | null;
  season: string | null;
  gender: string | null;
  createdAt: string;
  updatedAt: string;
}
interface Paged {
  list: SkuWire[];
  pageNo: number;
  pageSize: number;
  hasMore: boolean;
}
interface TagInfo {
  fileName: string;
  artNumList: string[];
  unknownArtNumList: string[];
  tagDTOList: unknown[];
}

/** A real .xlsx made with exceljs: the rows of the first sheet, cells as given. */
async function workbook(rows: unknown[][], extraSheet = false): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('SKU');
  for (const row of rows) sheet.addRow(row);
  if (extraSheet) book.addWorksheet('Other').addRow(['货号', '名称']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A multipart/form-data body as a browser sends it. */
function multipart(parts: Array<{ name: string; filename?: string; content: Buffer | string }>) {
  const boundary = `----dam${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename ? 'Content-Type: application/octet-stream\r\n' : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('SKU master: import, listing, pickers, file-name checks', () => {
  let t: TestApp;
  let admin: string;
  let importer: string;
  let plain: string;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    admin = await signIn(t.app, ADMIN.email, ADMIN.password);
    const i = await givenUser(t.database, { functionCodes: [8] });
    importer = await signIn(t.app, i.email, i.password);
    const p = await givenUser(t.database, { functionCodes: [1, 2, 3, 4, 5, 6, 7] });
    plain = await signIn(t.app, p.email, p.password);
  });
  afterAll(() => t.close());

  const api = (path: string) => `/ske-api/${path}`;
  const importFile = async (bytes: Buffer | string, token = importer, lang = 'en', field = 'file') => {
    const body = multipart([{ name: field, filename: 'sku.xlsx', content: bytes }]);
    const response = await t.app.inject({
      method: 'POST',
      url: api('v1_0/sku/import'),
      headers: { token, lang, 'content-type': body.contentType },
      payload: body.payload,
    });
    return { status: response.statusCode, body: response.json() as Envelope<Record<string, number>> };
  };
  const stored = async (prefix: string) =>
    (
      await t.database.db
        .selectFrom('sku')
        .selectAll()
        .where(sql<boolean>`lower(art_num) LIKE ${`${prefix.toLowerCase()}%`}`)
        .orderBy('art_num')
        .execute()
    ).map((r) => ({
      art_num: r.art_num,
      name: r.name,
      series: r.series,
      category: r.category,
      color: r.color,
      season: r.season,
      gender: r.gender,
    }));
  const tagInfo = async (nameList: string[], token = plain) => {
    const response = await post(t.app, api('v1_0/sku/file-tag-info'), { nameList }, { token, lang: 'en' });
    return {
      status: response.status,
      body: response.body,
      list: (response.body.result as { list: TagInfo[] })?.list,
    };
  };

  describe('import (POST v1_0/sku/import)', () => {
    it('creates articles from a workbook with Chinese headers, reading text, numbers and rich text', async () => {
      const bytes = await workbook([
        ['货号*', '名称*', '系列', '品类', '颜色', '季节', '性别', '备注'],
        ['  IMP100-01 ', '跑鞋 一代', '疾风', '跑步鞋', '黑/白', '2026SS', '男', 'ignored'],
        [
          'IMP100-02',
          { richText: [{ text: '跑鞋 ' }, { font: { bold: true }, text: '二代' }] },
          null,
          '跑步鞋',
          null,
          2026,
          '女',
        ],
        [],
        ['IMP101', '篮球鞋', '', '', '', '', ''],
      ]);
      const { status, body } = await importFile(bytes, importer, 'zh');
      expect(status).toBe(200);
      expect(body.result).toEqual({ total: 3, created: 3, updated: 0, unchanged: 0 });
      expect(await stored('IMP1')).toEqual([
        {
          art_num: 'IMP100-01',
          name: '跑鞋 一代',
          series: '疾风',
          category: '跑步鞋',
          color: '黑/白',
          season: '2026SS',
          gender: '男',
        },
        {
          art_num: 'IMP100-02',
          name: '跑鞋 二代',
          series: null,
          category: '跑步鞋',
          color: null,
          season: '2026',
          gender: '女',
        },
        {
          art_num: 'IMP101',
          name: '篮球鞋',
          series: null,
          category: null,
          color: null,
          season: null,
          gender: null,
        },
      ]);
    });

    it('upserts by article number regardless of case, only the columns the file has', async () => {
      t.clock.advance(60_000);
      const before = await t.database.db
        .selectFrom('sku')
        .select(['art_num', 'updated_at'])
        .where('art_num', '=', 'IMP101')
        .executeTakeFirstOrThrow();
      const bytes = await workbook([
        ['Article number', 'Name', 'Colour', 'Gender'],
        ['imp100-01', 'Runner One', 'Black/White', ''],
        ['IMP101', '篮球鞋', '', ''],
        ['IMP102', 'Trail Runner', 'Olive', 'Unisex'],
      ]);
      const { status, body } = await importFile(bytes);
      expect(status).toBe(200);
      expect(body.result).toEqual({ total: 3, created: 1, updated: 1, unchanged: 1 });
      const rows = await stored('IMP1');
      expect(rows.map((r) => r.art_num)).toEqual(['IMP100-02', 'IMP101', 'IMP102', 'imp100-01']);
      // Spelling and the given columns follow the file; columns it lacks keep their values.
      expect(rows.find((r) => r.art_num === 'imp100-01')).toEqual({
        art_num: 'imp100-01',
        name: 'Runner One',
        series: '疾风',
        category: '跑步鞋',
        color: 'Black/White',
        season: '2026SS',
        gender: null,
      });
      expect(rows.find((r) => r.art_num === 'IMP102')).toMatchObject({ color: 'Olive', series: null });
      const after = await t.database.db
        .selectFrom('sku')
        .select(['updated_at'])
        .where('art_num', '=', 'IMP101')
        .executeTakeFirstOrThrow();
      expect(after.updated_at.getTime()).toBe(before.updated_at.getTime());
    });

    it('refuses a row without an article number, naming the row, and imports nothing of the file', async () => {
      const before = await stored('');
      const bytes = await workbook([
        ['Article number', 'Name'],
        ['MISS001', 'Would be new'],
        ['IMP101', 'Would be renamed'],
        [null, 'No number here'],
      ]);
      const en = await importFile(bytes, importer, 'en');
      expect(en.status).toBe(400);
      expect(en.body).toMatchObject({
        success: false,
        errorCode: 'SESK_03',
        errorDesc: 'Row 4: Article number is missing',
      });
      const zh = await importFile(bytes, importer, 'zh');
      expect(zh.body.errorDesc).toBe('第 4 行缺少Article number');
      expect(await stored('')).toEqual(before);
    });

    it('refuses a row without a name, duplicates in the file and over-long values, changing nothing', async () => {
      const before = await stored('');
      const noName = await importFile(
        await workbook([
          ['货号', '名称'],
          ['DUP001', 'ok'],
          ['DUP002', '  '],
        ]),
        importer,
        'zh',
      );
      expect(noName.body).toMatchObject({ errorCode: 'SESK_03', errorDesc: '第 3 行缺少名称' });

      const duplicate = await importFile(
        await workbook([
          ['货号', '名称'],
          ['DUP001', 'one'],
          ['DUP002', 'two'],
          ['dup001', 'again'],
        ]),
      );
      expect(duplicate.status).toBe(400);
      expect(duplicate.body).toMatchObject({
        errorCode: 'SESK_05',
        errorDesc: 'Row 4: article number dup001 already appears in row 2',
      });

      const tooLong = await importFile(
        await workbook([
          ['货号', '名称', '颜色'],
          ['DUP003', 'ok', 'x'.repeat(101)],
        ]),
      );
      expect(tooLong.body).toMatchObject({
        errorCode: 'SESK_04',
        errorDesc: 'Row 2: 颜色 is longer than 100 characters',
      });
      expect(await stored('')).toEqual(before);
    });

    it('needs the article number and name columns, named in the caller language', async () => {
      const bytes = await workbook([
        ['Name', 'Colour'],
        ['Runner', 'Red'],
      ]);
      const en = await importFile(bytes, importer, 'en');
      expect(en.status).toBe(400);
      expect(en.body).toMatchObject({
        errorCode: 'SESK_02',
        errorDesc: 'The header row has no "Article number" column',
      });
      expect((await importFile(bytes, importer, 'zh')).body.errorDesc).toBe('表头缺少“货号”列');
      const empty = await importFile(await workbook([]));
      expect(empty.body.errorCode).toBe('SESK_02');
    });

    it('reads only the first sheet and accepts a header-only file as a no-op', async () => {
      const { status, body } = await importFile(
        await workbook([['货号 / Article number', '名称 / Name']], true),
      );
      expect(status).toBe(200);
      expect(body.result).toEqual({ total: 0, created: 0, updated: 0, unchanged: 0 });
    });

    it('refuses what is not an .xlsx workbook', async () => {
      for (const bytes of [
        Buffer.from('货号,名称\nCSV001,not excel\n'),
        randomBytes(5000),
        Buffer.alloc(0),
        // A zip that is not a workbook.
        Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(300)]),
      ]) {
        const { status, body } = await importFile(bytes);
        expect(status).toBe(400);
        expect(body).toMatchObject({
          success: false,
          errorCode: 'SESK_01',
          errorDesc: 'The file is not a readable Excel (.xlsx) workbook',
        });
      }
      expect(await stored('CSV')).toEqual([]);
    });

    it('refuses a file over 20 MB with its own error', async () => {
      const { status, body } = await importFile(randomBytes(20 * 1024 * 1024 + 10));
      expect(status).toBe(413);
      expect(body).toMatchObject({
        errorCode: 'SESK_06',
        errorDesc: 'The file is too large (at most 20 MB)',
      });
    });

    it('needs a file in the field "file"', async () => {
      const bytes = await workbook([
        ['货号', '名称'],
        ['FIELD001', 'x'],
      ]);
      const { status, body } = await importFile(bytes, importer, 'en', 'upload');
      expect(status).toBe(400);
      expect(body.errorCode).toBe('SE_400');
      const notMultipart = await post(t.app, api('v1_0/sku/import'), { file: 'x' }, { token: importer });
      expect(notMultipart.status).toBe(400);
      expect(await stored('FIELD')).toEqual([]);
    });

    it('needs import management (function code 8), checked before the file is read', async () => {
      const bytes = await workbook([
        ['货号', '名称'],
        ['PERM001', 'x'],
      ]);
      const refused = await importFile(bytes, plain);
      expect(refused.status).toBe(403);
      expect(refused.body.errorCode).toBe('SE_502');
      const stranger = await importFile(bytes, 'not-a-token');
      expect(stranger.status).toBe(401);
      expect(await stored('PERM')).toEqual([]);
      expect((await importFile(bytes, admin)).status).toBe(200);
    });
  });

  describe('import template (GET v1_0/sku/import-template)', () => {
    const template = (token: string, lang: string) =>
      t.app.inject({ method: 'GET', url: api('v1_0/sku/import-template'), headers: { token, lang } });

    it('is an .xlsx with the header row in Chinese or English, which imports as it is', async () => {
      for (const [lang, headers] of [
        ['zh', ['货号*', '名称*', '系列', '品类', '颜色', '季节', '性别']],
        ['en', ['Article number*', 'Name*', 'Series', 'Category', 'Colour', 'Season', 'Gender']],
      ] as const) {
        const response = await template(importer, lang);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe(
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        );
        expect(response.headers['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''.+\.xlsx$/);
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
        const sheet = book.worksheets[0]!;
        expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(headers);
        expect(sheet.rowCount).toBe(1);
        // Filled in and sent back, it imports.
        sheet.addRow([`TPL-${lang}01`, 'From the template', null, null, null, null, null]);
        const filled = Buffer.from(await book.xlsx.writeBuffer());
        expect((await importFile(filled, importer, lang)).body.result).toMatchObject({ created: 1 });
      }
    });

    it('needs import management', async () => {
      const response = await template(plain, 'en');
      expect(response.statusCode).toBe(403);
      expect(response.json().errorCode).toBe('SE_502');
    });
  });

  describe('listing and pickers', () => {
    beforeAll(async () => {
      const rows: unknown[][] = [['货号', '名称', '系列']];
      for (let i = 0; i < 25; i++)
        rows.push([`LST${String(i).padStart(3, '0')}`, `Listed shoe ${i}`, 'List']);
      rows.push(
        ['ZIG050-01', 'Zig runner'],
        ['ZIG050', 'Zig base'],
        ['ZIG0501', 'Zig other'],
        ['zig049', 'Zig old'],
      );
      rows.push(['AB_C1', 'Underscore style'], ['ABXC1', 'Lookalike'], ['XYZ900', 'Has lst in name? no']);
      rows.push(['QQQ001', 'Cosmic LST edition']);
      const { body } = await importFile(await workbook(rows));
      expect(body.success).toBe(true);
    });

    it('pages the master by article number (POST v1_0/sku/data/list)', async () => {
      const first = await post(
        t.app,
        api('v1_0/sku/data/list?pageSize=10&pageNo=1'),
        { query: 'lst0' },
        { token: plain },
      );
      expect(first.status).toBe(200);
      const page = first.body.result as Paged;
      expect(page).toMatchObject({ pageNo: 1, pageSize: 10, hasMore: true });
      expect(page.list.map((s) => s.artNum)).toEqual(Array.from({ length: 10 }, (_, i) => `LST00${i}`));
      expect(page.list[0]).toMatchObject({ name: 'Listed shoe 0', series: 'List', color: null });
      expect(page.list[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
      const third = (
        await post(t.app, api('v1_0/sku/data/list?pageSize=10&pageNo=3'), { query: 'LST0' }, { token: plain })
      ).body.result as Paged;
      expect(third.list.map((s) => s.artNum)).toEqual(['LST020', 'LST021', 'LST022', 'LST023', 'LST024']);
      expect(third.hasMore).toBe(false);
    });

    it('finds by name as well, treats % and _ literally, and needs no body', async () => {
      const byName = (await post(t.app, api('v1_0/sku/data/list'), { query: 'cosmic lst' }, { token: plain }))
        .body.result as Paged;
      expect(byName.list.map((s) => s.artNum)).toEqual(['QQQ001']);
      const literal = (await post(t.app, api('v1_0/sku/data/list'), { query: 'ab_c' }, { token: plain })).body
        .result as Paged;
      expect(literal.list.map((s) => s.artNum)).toEqual(['AB_C1']);
      const percent = (await post(t.app, api('v1_0/sku/data/list'), { query: '%' }, { token: plain })).body
        .result as Paged;
      expect(percent.list).toEqual([]);
      const all = await post(t.app, api('v1_0/sku/data/list?pageSize=200'), undefined, { token: plain });
      expect(all.status).toBe(200);
      expect((all.body.result as Paged).list.length).toBeGreaterThan(30);
    });

    it('refuses bad paging and strangers', async () => {
      expect((await post(t.app, api('v1_0/sku/data/list?pageSize=500'), {}, { token: plain })).status).toBe(
        400,
      );
      expect((await post(t.app, api('v1_0/sku/data/list?pageNo=0'), {}, { token: plain })).status).toBe(400);
      expect(
        (await post(t.app, api('v1_0/sku/data/list'), { query: 'x'.repeat(31) }, { token: plain })).status,
      ).toBe(400);
      const stranger = await post(t.app, api('v1_0/sku/data/list'), {});
      expect(stranger.status).toBe(401);
      expect(stranger.body.errorCode).toBe('SE_501');
    });

    it('offers up to 20 articles to a picker, numbers starting with the text first (GET selector/sku-info)', async () => {
      const none = await get(t.app, api('selector/sku-info'), { token: plain });
      expect(none.status).toBe(200);
      const options = none.body.result as Array<{ artNum: string; name: string }>;
      expect(options).toHaveLength(20);
      expect(Object.keys(options[0]!).sort()).toEqual(['artNum', 'name']);
      const sorted = [...options].sort((a, b) => (a.artNum.toLowerCase() < b.artNum.toLowerCase() ? -1 : 1));
      expect(options).toEqual(sorted);

      const lst = (await get(t.app, api('selector/sku-info?query=lst'), { token: plain })).body
        .result as Array<{
        artNum: string;
      }>;
      expect(lst).toHaveLength(20);
      expect(lst[0]!.artNum).toBe('LST000');
      expect(lst.map((o) => o.artNum)).not.toContain('QQQ001');
      const cosmic = (await get(t.app, api('selector/sku-info?query=LST%20ed'), { token: plain })).body
        .result as Array<{ artNum: string; name: string }>;
      expect(cosmic).toEqual([{ artNum: 'QQQ001', name: 'Cosmic LST edition' }]);
      expect((await get(t.app, api('selector/sku-info'))).status).toBe(401);
    });

    it('suggests article numbers by prefix, any case, in order, at most 20 (GET v1_0/file/art-num)', async () => {
      const zig = await get(t.app, api('v1_0/file/art-num?artNum=zig05'), { token: plain });
      expect(zig.status).toBe(200);
      expect(zig.body.result).toEqual([
        { artNum: 'ZIG050', name: 'Zig base', tagIdList: [] },
        { artNum: 'ZIG050-01', name: 'Zig runner', tagIdList: [] },
        { artNum: 'ZIG0501', name: 'Zig other', tagIdList: [] },
      ]);
      const many = (await get(t.app, api('v1_0/file/art-num?artNum=LST'), { token: plain })).body
        .result as Array<{
        artNum: string;
      }>;
      expect(many.map((s) => s.artNum)).toEqual(
        Array.from({ length: 20 }, (_, i) => `LST${String(i).padStart(3, '0')}`),
      );
      const literal = (await get(t.app, api('v1_0/file/art-num?artNum=AB_'), { token: plain })).body
        .result as Array<{
        artNum: string;
      }>;
      expect(literal.map((s) => s.artNum)).toEqual(['AB_C1']);
      expect((await get(t.app, api('v1_0/file/art-num?artNum=NOPE'), { token: plain })).body.result).toEqual(
        [],
      );
      expect((await get(t.app, api('v1_0/file/art-num?artNum='), { token: plain })).body.result).toEqual([]);
      expect(
        (await get(t.app, api(`v1_0/file/art-num?artNum=${'A'.repeat(65)}`), { token: plain })).status,
      ).toBe(400);
      expect((await get(t.app, api('v1_0/file/art-num?artNum=ZIG'))).status).toBe(401);
    });

    it('answers suggestions from the article-number index, not a table scan', async () => {
      const plan = await t.database.db.transaction().execute(async (trx) => {
        // A tiny table makes a scan cheapest; forbid it to see whether the index can serve.
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
        const rows = await new SkuRepository(trx).suggestQuery('zig05', 20).explain();
        return rows.map((r) => String(Object.values(r)[0])).join('\n');
      });
      expect(plan).toMatch(/Index Scan using sku_art_num_key/);
      expect(plan).not.toMatch(/Sort/);
    });
  });

  describe('article numbers of file names (POST v1_0/sku/file-tag-info)', () => {
    beforeAll(async () => {
      const { body } = await importFile(
        await workbook([
          ['货号', '名称'],
          ['Tag100-01', 'Mixed case as stored'],
          ['TAG200', 'Plain'],
        ]),
      );
      expect(body.success).toBe(true);
    });

    it('lists known and unknown article numbers per name, in the order sent', async () => {
      const { status, list } = await tagInfo([
        'TAG100-01_side.jpg',
        'tag200 front.png',
        'TAG999-01_side.jpg',
        'campaign photo.jpg',
        'TAG100-01_TAG300_pair.psd',
        'TAG100-01_side.jpg',
      ]);
      expect(status).toBe(200);
      expect(list).toEqual([
        { fileName: 'TAG100-01_side.jpg', artNumList: ['Tag100-01'], unknownArtNumList: [], tagDTOList: [] },
        { fileName: 'tag200 front.png', artNumList: ['TAG200'], unknownArtNumList: [], tagDTOList: [] },
        {
          fileName: 'TAG999-01_side.jpg',
          artNumList: ['TAG999-01'],
          unknownArtNumList: ['TAG999-01'],
          tagDTOList: [],
        },
        { fileName: 'campaign photo.jpg', artNumList: [], unknownArtNumList: [], tagDTOList: [] },
        {
          fileName: 'TAG100-01_TAG300_pair.psd',
          artNumList: ['Tag100-01', 'TAG300'],
          unknownArtNumList: ['TAG300'],
          tagDTOList: [],
        },
        { fileName: 'TAG100-01_side.jpg', artNumList: ['Tag100-01'], unknownArtNumList: [], tagDTOList: [] },
      ]);
      expect((await tagInfo([])).list).toEqual([]);
    });

    it('takes a whole selection of 3000 names at once, and no more', async () => {
      const names = Array.from({ length: 3000 }, (_, i) => `TAG${1000 + i}-01_view ${i}.jpg`);
      names[1234] = 'TAG200_front.jpg';
      const { status, list } = await tagInfo(names);
      expect(status).toBe(200);
      expect(list).toHaveLength(3000);
      expect(list[1234]).toMatchObject({ artNumList: ['TAG200'], unknownArtNumList: [] });
      expect(list[2999]).toMatchObject({ fileName: names[2999], unknownArtNumList: ['TAG3999-01'] });

      const tooMany = await tagInfo([...names, 'one-more.jpg']);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.errorCode).toBe('SE_400');
      expect(tooMany.body.errorDesc).toMatch(/nameList/);
      expect((await tagInfo([`${'A'.repeat(252)}.jpg`])).status).toBe(400);
      const malformed = await post(t.app, api('v1_0/sku/file-tag-info'), { names: [] }, { token: plain });
      expect(malformed.status).toBe(400);
      const stranger = await post(t.app, api('v1_0/sku/file-tag-info'), { nameList: ['TAG200.jpg'] });
      expect(stranger.status).toBe(401);
    });

    it('checks typed article numbers (POST v1_0/sku/check): known in the master spelling, unknown as typed', async () => {
      const check = (artNumList: unknown, token: string | null = plain) =>
        post(t.app, api('v1_0/sku/check'), { artNumList }, token ? { token, lang: 'en' } : {});
      const { status, body } = await check(['tag100-01', 'NOPE-1', 'TAG200', 'NOPE-1']);
      expect(status).toBe(200);
      expect(body.result).toEqual({
        checked: true,
        knownArtNumList: ['Tag100-01', 'TAG200'],
        unknownArtNumList: ['NOPE-1'],
      });
      expect((await check([])).body.result).toEqual({
        checked: true,
        knownArtNumList: [],
        unknownArtNumList: [],
      });
      const blank = await check(['  ']);
      expect(blank.status).toBe(400);
      expect(blank.body.errorDesc).toMatch(/artNumList/);
      expect((await check(['X'.repeat(65)])).status).toBe(400);
      expect((await check(['TAG200'], null)).status).toBe(401);
    });
  });
});

describe('before any SKU data is imported', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('checks nothing, so the upload dialog flags nothing', async () => {
    const token = await signIn(t.app, ADMIN.email, ADMIN.password);
    const { status, body } = await post(
      t.app,
      '/ske-api/v1_0/sku/check',
      { artNumList: ['SHOE1-01'] },
      { token },
    );
    expect(status).toBe(200);
    expect(body.result).toEqual({ checked: false, knownArtNumList: [], unknownArtNumList: [] });
  });
});

describe('ART_NUM_PATTERN from the configuration', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ ART_NUM_PATTERN: '(?<artNum>\\d{6}-\\d{2})(?:_[a-z]+)?' });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
    await t.database.db.insertInto('sku').values({ art_num: '374915-01', name: 'Numeric style' }).execute();
  });
  afterAll(() => t.close());

  it('is what file-tag-info extracts with', async () => {
    const response = await post(
      t.app,
      '/ske-api/v1_0/sku/file-tag-info',
      { nameList: ['374915-01_side.jpg', '374915-02.jpg', 'SHOE123-01_side.jpg'] },
      { token },
    );
    expect(
      (response.body.result as { list: TagInfo[] }).list.map((i) => [i.artNumList, i.unknownArtNumList]),
    ).toEqual([
      [['374915-01'], []],
      [['374915-02'], ['374915-02']],
      [[], []],
    ]);
  });
});
