import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../../test/harness';
import { createSkuWorld, type SkuWorld, workbook } from '../../../test/scenarios/sku';

describe('SKU master: import and its template', () => {
  let w: SkuWorld;
  beforeAll(async () => {
    w = await createSkuWorld();
  });
  afterAll(() => w.t.close());

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
      const { status, body } = await w.importFile(bytes, w.importer, 'zh');
      expect(status).toBe(200);
      expect(body.result).toEqual({ total: 3, created: 3, updated: 0, unchanged: 0 });
      expect(await w.stored('IMP1')).toEqual([
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
      // Its own articles (UPS…), as the first import of a workbook would leave them.
      const first = await w.importFile(
        await workbook([
          ['货号*', '名称*', '系列', '品类', '颜色', '季节', '性别'],
          ['UPS100-01', '跑鞋 一代', '疾风', '跑步鞋', '黑/白', '2026SS', '男'],
          ['UPS100-02', '跑鞋 二代', '', '跑步鞋', '', '2026', '女'],
          ['UPS101', '篮球鞋', '', '', '', '', ''],
        ]),
      );
      expect(first.body.result).toMatchObject({ created: 3 });
      w.t.clock.advance(60_000);
      const before = await w.t.database.db
        .selectFrom('sku')
        .select(['art_num', 'updated_at'])
        .where('art_num', '=', 'UPS101')
        .executeTakeFirstOrThrow();
      const bytes = await workbook([
        ['Article number', 'Name', 'Colour', 'Gender'],
        ['ups100-01', 'Runner One', 'Black/White', ''],
        ['UPS101', '篮球鞋', '', ''],
        ['UPS102', 'Trail Runner', 'Olive', 'Unisex'],
      ]);
      const { status, body } = await w.importFile(bytes);
      expect(status).toBe(200);
      expect(body.result).toEqual({ total: 3, created: 1, updated: 1, unchanged: 1 });
      const rows = await w.stored('UPS1');
      expect(rows.map((r) => r.art_num)).toEqual(['UPS100-02', 'UPS101', 'UPS102', 'ups100-01']);
      // Spelling and the given columns follow the file; columns it lacks keep their values.
      expect(rows.find((r) => r.art_num === 'ups100-01')).toEqual({
        art_num: 'ups100-01',
        name: 'Runner One',
        series: '疾风',
        category: '跑步鞋',
        color: 'Black/White',
        season: '2026SS',
        gender: null,
      });
      expect(rows.find((r) => r.art_num === 'UPS102')).toMatchObject({ color: 'Olive', series: null });
      const after = await w.t.database.db
        .selectFrom('sku')
        .select(['updated_at'])
        .where('art_num', '=', 'UPS101')
        .executeTakeFirstOrThrow();
      expect(after.updated_at.getTime()).toBe(before.updated_at.getTime());
    });

    it('refuses a row without an article number, naming the row, and imports nothing of the file', async () => {
      const before = await w.stored('');
      const bytes = await workbook([
        ['Article number', 'Name'],
        ['MISS001', 'Would be new'],
        ['IMP101', 'Would be renamed'],
        [null, 'No number here'],
      ]);
      const en = await w.importFile(bytes, w.importer, 'en');
      expect(en.status).toBe(400);
      expect(en.body).toMatchObject({
        success: false,
        errorCode: 'SESK_03',
        errorDesc: 'Row 4: Article number is missing',
      });
      const zh = await w.importFile(bytes, w.importer, 'zh');
      expect(zh.body.errorDesc).toBe('第 4 行缺少Article number');
      expect(await w.stored('')).toEqual(before);
    });

    it('refuses a row without a name, duplicates in the file and over-long values, changing nothing', async () => {
      const before = await w.stored('');
      const noName = await w.importFile(
        await workbook([
          ['货号', '名称'],
          ['DUP001', 'ok'],
          ['DUP002', '  '],
        ]),
        w.importer,
        'zh',
      );
      expect(noName.body).toMatchObject({ errorCode: 'SESK_03', errorDesc: '第 3 行缺少名称' });

      const duplicate = await w.importFile(
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

      const tooLong = await w.importFile(
        await workbook([
          ['货号', '名称', '颜色'],
          ['DUP003', 'ok', 'x'.repeat(101)],
        ]),
      );
      expect(tooLong.body).toMatchObject({
        errorCode: 'SESK_04',
        errorDesc: 'Row 2: 颜色 is longer than 100 characters',
      });
      expect(await w.stored('')).toEqual(before);
    });

    it('needs the article number and name columns, named in the caller language', async () => {
      const bytes = await workbook([
        ['Name', 'Colour'],
        ['Runner', 'Red'],
      ]);
      const en = await w.importFile(bytes, w.importer, 'en');
      expect(en.status).toBe(400);
      expect(en.body).toMatchObject({
        errorCode: 'SESK_02',
        errorDesc: 'The header row has no "Article number" column',
      });
      expect((await w.importFile(bytes, w.importer, 'zh')).body.errorDesc).toBe('表头缺少“货号”列');
      const empty = await w.importFile(await workbook([]));
      expect(empty.body.errorCode).toBe('SESK_02');
    });

    it('reads only the first sheet and accepts a header-only file as a no-op', async () => {
      const { status, body } = await w.importFile(
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
        const { status, body } = await w.importFile(bytes);
        expect(status).toBe(400);
        expect(body).toMatchObject({
          success: false,
          errorCode: 'SESK_01',
          errorDesc: 'The file is not a readable Excel (.xlsx) workbook',
        });
      }
      expect(await w.stored('CSV')).toEqual([]);
    });

    it('refuses a file over 20 MB with its own error', async () => {
      const { status, body } = await w.importFile(randomBytes(20 * 1024 * 1024 + 10));
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
      const { status, body } = await w.importFile(bytes, w.importer, 'en', 'upload');
      expect(status).toBe(400);
      expect(body.errorCode).toBe('SE_400');
      const notMultipart = await post(
        w.t.app,
        w.api('v1_0/sku/import'),
        { file: 'x' },
        { token: w.importer },
      );
      expect(notMultipart.status).toBe(400);
      expect(await w.stored('FIELD')).toEqual([]);
    });

    it('needs import management (function code 8), checked before the file is read', async () => {
      const bytes = await workbook([
        ['货号', '名称'],
        ['PERM001', 'x'],
      ]);
      const refused = await w.importFile(bytes, w.plain);
      expect(refused.status).toBe(403);
      expect(refused.body.errorCode).toBe('SE_502');
      const stranger = await w.importFile(bytes, 'not-a-token');
      expect(stranger.status).toBe(401);
      expect(await w.stored('PERM')).toEqual([]);
      expect((await w.importFile(bytes, w.admin)).status).toBe(200);
    });
  });

  describe('import template (GET v1_0/sku/import-template)', () => {
    const template = (token: string, lang: string) =>
      w.t.app.inject({ method: 'GET', url: w.api('v1_0/sku/import-template'), headers: { token, lang } });

    it('is an .xlsx with the header row in Chinese or English, which imports as it is', async () => {
      for (const [lang, headers] of [
        ['zh', ['货号*', '名称*', '系列', '品类', '颜色', '季节', '性别']],
        ['en', ['Article number*', 'Name*', 'Series', 'Category', 'Colour', 'Season', 'Gender']],
      ] as const) {
        const response = await template(w.importer, lang);
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
        expect((await w.importFile(filled, w.importer, lang)).body.result).toMatchObject({ created: 1 });
      }
    });

    it('needs import management', async () => {
      const response = await template(w.plain, 'en');
      expect(response.statusCode).toBe(403);
      expect(response.json().errorCode).toBe('SE_502');
    });
  });
});
