import { endpoints } from '@dam/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { multipart } from '../../../test/fixtures';
import { api, createTagsWorld, readBook, rowsOf, type TagsWorld } from '../../../test/scenarios/tags';

describe('tags in Excel', () => {
  let w: TagsWorld;
  beforeAll(async () => {
    w = await createTagsWorld({ sorted: true });
  });
  afterAll(() => w.t.close());

  describe('Excel exchange (tag-model-export / tag-model-import, code 4)', () => {
    /** Files the tests only read (refused imports change nothing): made once. */
    let shared: Awaited<ReturnType<TagsWorld['givenTaggedFolder']>>;
    beforeAll(async () => {
      shared = await w.givenTaggedFolder();
    });

    it('exports one row per file of the range, recursively, one column per dimension', async () => {
      const { folder, file } = shared;
      const folderId = folder.id;
      const response = await w.exportRange({ folderIdList: [folderId] });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toContain('spreadsheetml');
      const rows = rowsOf(await readBook(response.rawPayload));
      expect(rows[0]).toEqual([
        'ID',
        'Path',
        'Name',
        'Article number',
        'Season',
        'Colour',
        'Category',
        'Sub-category',
      ]);
      const byName = new Map(rows.slice(1).map((r) => [r[2], r]));
      expect([...byName.keys()].sort()).toEqual(['DEEP1', 'MISC', 'SHOE1', 'SHOE2', 'TEE1', 'UP1', 'UP2']);
      expect(byName.get('DEEP1')).toEqual([
        file.DEEP1,
        `/${folder.name}/Deeper`,
        'DEEP1',
        '',
        '2026 SS',
        '',
        'Apparel',
        'T-shirt',
      ]);
      expect(byName.get('SHOE1')?.slice(4)).toEqual(['2026 SS', 'Black', 'Shoes', '']);
      const chinese = await w.exportRange({ folderDataIdList: [file.SHOE1] }, w.manager, 'zh');
      const zhRows = rowsOf(await readBook(chinese.rawPayload));
      expect(zhRows[0]?.slice(0, 4)).toEqual(['ID', '路径', '名称', '货号']);
      expect(zhRows).toHaveLength(2);
    });

    it('refuses an export without a range (SE_400) or without code 4 (SE_502)', async () => {
      const folderId = shared.folder.id;
      const empty = await w.exportRange({ folderDataIdList: [], folderIdList: [] });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ errorCode: 'SE_400' });
      expect(empty.json().errorDesc).toContain('choose the files or folders to export');
      const refused = await w.exportRange({ folderIdList: [folderId] }, w.editor);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().errorCode).toBe('SE_502');
      expect((await w.exportRange({ folderIdList: [987654] })).statusCode).toBe(404);
    });

    it('imports edited tags back (round trip) in one go', async () => {
      // It changes the files' tags: a folder of its own.
      const { folder, file } = await w.givenTaggedFolder();
      const folderId = folder.id;
      const exported = await w.exportRange({ folderIdList: [folderId] });
      const book = await readBook(exported.rawPayload);
      const sheet = book.worksheets[0] as ExcelJS.Worksheet;
      sheet.eachRow((row, number) => {
        if (number === 1) return;
        if (row.getCell(3).value === 'MISC') {
          row.getCell(5).value = '2026 aw';
          row.getCell(6).value = 'Black， white';
        }
        if (row.getCell(3).value === 'TEE1') row.getCell(8).value = 't-shirt';
      });
      const imported = await w.importBook(Buffer.from(await book.xlsx.writeBuffer()));
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body.result).toMatchObject({ total: 7, changed: 2, unchanged: 5, dryRun: false });
      expect(await w.tagNamesOf(file.MISC)).toEqual(['2026 AW', 'Black', 'White']);
      expect(await w.tagNamesOf(file.TEE1)).toEqual(['2026 SS', 'Apparel', 'T-shirt']);
      expect(await w.tagNamesOf(file.SHOE1)).toEqual(['2026 SS', 'Black', 'Shoes']);
    });

    it('previews an import (dry run): what would change and every problem, writing nothing', async () => {
      const { file } = await w.givenTaggedFolder();
      const before = {
        MISC: await w.tagNamesOf(file.MISC),
        TEE1: await w.tagNamesOf(file.TEE1),
      };
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Tags');
      sheet.addRow(['id', 'colour', 'season']);
      sheet.addRow([file.MISC, 'White', '2026 AW']);
      sheet.addRow([file.TEE1, 'Purple', '2026 SS']);
      sheet.addRow([987654, '', '2026 SS']);
      sheet.addRow([file.SHOE1, 'Black', '2026 SS']);
      const bytes = Buffer.from(await book.xlsx.writeBuffer());
      const preview = await w.importBook(bytes, undefined, '?dryRun=1');
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      const result = resultOf(endpoints.importTagWorkbook, preview.body);
      expect(result).toMatchObject({ total: 4, changed: 1, unchanged: 1, dryRun: true, problemCount: 2 });
      expect(result.changes).toEqual([
        { row: 2, folderDataId: file.MISC, name: 'MISC', before: before.MISC, after: ['2026 AW', 'White'] },
      ]);
      // Every problem, in the caller's language, with its row (an applying import stops at the first).
      expect(result.problems.map((p) => p.row)).toEqual([3, 4]);
      expect(result.problems[0]?.message).toContain('Purple');
      // Nothing was written.
      expect(await w.tagNamesOf(file.MISC)).toEqual(before.MISC);
      expect(await w.tagNamesOf(file.TEE1)).toEqual(before.TEE1);
      const applied = await w.importBook(bytes);
      expect(applied.body.errorCode).toBe('SETG_14');
      expect(await w.tagNamesOf(file.MISC)).toEqual(before.MISC);
    });

    it('leaves dimensions without a column alone and clears a dimension with an empty cell', async () => {
      // It changes the files' tags: a folder of its own.
      const { file } = await w.givenTaggedFolder();
      await w.modify({ folderDataId: file.MISC, tagIdList: [w.tag['2026 AW'], w.tag.Black, w.tag.White] });
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Tags');
      sheet.addRow(['id', 'colour']);
      sheet.addRow([file.MISC, '']);
      const imported = await w.importBook(Buffer.from(await book.xlsx.writeBuffer()));
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(await w.tagNamesOf(file.MISC)).toEqual(['2026 AW']);
    });

    const id2 = () => shared.file.TEE1;
    it.each([
      [
        'an unknown tag',
        (id: () => number) => [
          ['ID', 'Season'],
          [id(), '2026 AW'],
          [id2(), 'Winter'],
        ],
        'Row 3, column B (Season): The tag "Winter" does not exist',
      ],
      [
        'an unknown file',
        () => [
          ['ID', 'Season'],
          [shared.file.SHOE2, '2026 AW'],
          [987654, '2026 AW'],
        ],
        'Row 3, column A (ID): there is no file with id 987654',
      ],
      [
        'the same file twice',
        (id: () => number) => [
          ['ID', 'Season'],
          [id(), '2026 AW'],
          [id(), '2026 SS'],
        ],
        'already appears in row 2',
      ],
      [
        'an unknown dimension',
        () => [
          ['ID', 'Seasons'],
          [shared.file.SHOE2, '2026 AW'],
        ],
        'Row 1, column B (Seasons): "Seasons" is not a tag dimension',
      ],
      [
        'a required dimension emptied',
        (id: () => number) => [
          ['ID', 'Season', 'Colour'],
          [id(), '', 'Black'],
        ],
        'Row 2, column B (Season): Please fill in the required labels: Season',
      ],
      [
        'a tag without its superior tag',
        (id: () => number) => [
          ['ID', 'Category', 'Sub-category'],
          [id(), 'Apparel', 'Running'],
        ],
        'Row 2, column C (Sub-category): The tag "Running" needs its superior tag "Shoes"',
      ],
    ])(
      'refuses a file with %s naming the row and column, and changes nothing',
      async (_label, rows, text) => {
        const { file } = shared;
        const before = await Promise.all([file.SHOE1, file.SHOE2, file.TEE1].map((id) => w.tagNamesOf(id)));
        const book = new ExcelJS.Workbook();
        const sheet = book.addWorksheet('Tags');
        for (const row of rows(() => file.SHOE1)) sheet.addRow(row);
        const refused = await w.importBook(Buffer.from(await book.xlsx.writeBuffer()));
        expect(refused.status).toBe(400);
        expect(refused.body.errorCode).toBe('SETG_14');
        expect(refused.body.errorDesc).toContain(text);
        expect(await Promise.all([file.SHOE1, file.SHOE2, file.TEE1].map((id) => w.tagNamesOf(id)))).toEqual(
          before,
        );
      },
    );

    it('refuses rows of files the caller may not edit, files that are not workbooks, and callers without code 4', async () => {
      const { file } = shared;
      const book = new ExcelJS.Workbook();
      book.addWorksheet('Tags').addRows([
        ['ID', 'Season'],
        [file.SHOE2, '2026 SS'],
      ]);
      const bytes = Buffer.from(await book.xlsx.writeBuffer());
      const notEditable = await w.importBook(bytes, w.lookingManager);
      expect(notEditable.body.errorCode).toBe('SETG_14');
      expect(notEditable.body.errorDesc).toContain(
        `Row 2, column A (ID): you may not change the tags of file ${file.SHOE2}`,
      );
      expect((await w.importBook(bytes, w.editor)).body.errorCode).toBe('SE_502');
      expect((await w.importBook(Buffer.from('not a workbook'))).body.errorCode).toBe('SESK_01');
      const noId = new ExcelJS.Workbook();
      noId.addWorksheet('Tags').addRows([['Season'], ['2026 SS']]);
      expect((await w.importBook(Buffer.from(await noId.xlsx.writeBuffer()))).body.errorCode).toBe('SESK_02');
      expect(await w.tagNamesOf(file.SHOE2)).not.toContain('2026 SS');
      const fieldOnly = multipart([{ name: 'other', content: 'x' }]);
      const noFile = await w.t.app.inject({
        method: 'POST',
        url: api('v1_0/manage/tag-model-import'),
        payload: fieldOnly.payload,
        headers: { token: w.manager, 'content-type': fieldOnly.contentType },
      });
      expect(noFile.statusCode).toBe(400);
    });
  });
});
