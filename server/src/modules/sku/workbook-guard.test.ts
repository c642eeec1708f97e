import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  declaring,
  type PartContent,
  repeatedSharedStrings,
  sharedStrings,
  sheet,
  workbookParts,
  zipParts,
} from '../../../test/workbook-bombs';
import { readFirstSheet } from './workbook';
import { guardWorkbook } from './workbook-guard';
import {
  UnreadableWorkbookError,
  type WorkbookLimit,
  WorkbookLimitError,
  workbookLimitText,
} from './workbook-limits';

/** The limit a workbook of these parts is refused for, or 'passes'. */
async function verdict(bytes: Buffer): Promise<WorkbookLimit | 'passes' | 'unreadable'> {
  try {
    await guardWorkbook(bytes);
    return 'passes';
  } catch (error) {
    if (error instanceof WorkbookLimitError) return error.limit;
    if (error instanceof UnreadableWorkbookError) return 'unreadable';
    throw error;
  }
}
const book = (parts: Record<string, PartContent>) => zipParts(workbookParts(parts));
const rows = (xml: string) => ({ 'xl/worksheets/sheet1.xml': sheet(xml) });

describe('the workbook guard (before exceljs reads a byte)', () => {
  it('lets a workbook exceljs wrote through, and the minimal one the bombs are made of', async () => {
    const workbook = new ExcelJS.Workbook();
    const sku = workbook.addWorksheet('SKU');
    sku.addRow(['货号 / Article number', '名称 / Name', '颜色 / Colour']);
    for (let i = 0; i < 2000; i++)
      sku.addRow([`A-${i}`, { richText: [{ text: `Name ${i}`, font: { bold: true } }] }, 'Red & Blue']);
    sku.columns = [{ width: 20 }, { width: 30 }, { width: 10 }];
    expect(await verdict(Buffer.from(await workbook.xlsx.writeBuffer()))).toBe('passes');
    expect(await verdict(await book({}))).toBe('passes');
  });

  it('refuses by the central directory before inflating: entries, a part, all parts', async () => {
    const many: Record<string, PartContent> = {};
    for (let i = 0; i < 1000; i++) many[`xl/media/image${i}.png`] = 'x';
    expect(await verdict(await book(many))).toBe('entries');
    const small = await book({});
    // Declared sizes only: the parts themselves are a few bytes.
    expect(await verdict(declaring(small, 300 * 1024 * 1024, ['xl/worksheets/sheet1.xml']))).toBe(
      'partBytes',
    );
    expect(await verdict(declaring(small, 17 * 1024 * 1024, ['xl/styles.xml', 'xl/workbook.xml']))).toBe(
      'modelPartBytes',
    );
    const large = ['xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml', '[Content_Types].xml'];
    expect(await verdict(declaring(small, 200 * 1024 * 1024, large))).toBe('totalBytes');
  });

  it('counts what it inflates when the headers understate it, and stops there', async () => {
    const comment = `<!--${'a'.repeat(60_000)}-->`;
    const styles = { head: '<styleSheet>', repeat: comment, times: 300, tail: '</styleSheet>' };
    expect(await verdict(declaring(await book({ 'xl/styles.xml': styles }), 1024))).toBe('modelPartBytes');
  });

  it('counts shared strings, their runs and their text', async () => {
    const strings = (repeat: string, times: number) =>
      book({ 'xl/sharedStrings.xml': repeatedSharedStrings(repeat, times) });
    expect(await verdict(await strings('<si><t>a</t></si>', 999_998))).toBe('passes');
    expect(await verdict(await strings('<si><t>a</t></si>', 999_999))).toBe('sharedStrings');
    expect(await verdict(await strings('<si><r><t>a</t></r><r><t>b</t></r></si>', 500_001))).toBe(
      'sharedStringRuns',
    );
    expect(await verdict(await strings(`<si><t>${'é'.repeat(1000)}</t></si>`, 34_000))).toBe(
      'sharedStringTextBytes',
    );
    // Names with a prefix are no shared strings to exceljs, but their text is still appended.
    expect(await verdict(await strings(`<x:si><x:t>${'a'.repeat(1000)}</x:t></x:si>`, 300))).toBe(
      'cellChars',
    );
  });

  it('bounds one cell at 32,767 characters, however its XML is escaped or split', async () => {
    const fits = `${'&amp;'.repeat(32_767)}`;
    expect(
      await verdict(await book(rows(`<row r="1"><c r="A1" t="inlineStr"><is><t>${fits}</t></is></c></row>`))),
    ).toBe('passes');
    const tooLong = 'a'.repeat(262_137);
    expect(
      await verdict(
        await book(rows(`<row r="1"><c r="A1" t="inlineStr"><is><t>${tooLong}</t></is></c></row>`)),
      ),
    ).toBe('cellChars');
    expect(await verdict(await book({ 'xl/sharedStrings.xml': sharedStrings([tooLong]) }))).toBe('cellChars');
    // Runs of one shared string add up.
    const runs = `<si>${`<r><t>${'a'.repeat(100_000)}</t></r>`.repeat(3)}</si>`;
    expect(await verdict(await book({ 'xl/sharedStrings.xml': repeatedSharedStrings(runs, 1) }))).toBe(
      'cellChars',
    );
    // exceljs appends text after a cell to its last value until the next value starts.
    const trailing = `<row r="1"><c r="A1"><v>1</v></c>${`${'a'.repeat(100_000)}<c r="B1"/>`.repeat(3)}</row>`;
    expect(await verdict(await book(rows(trailing)))).toBe('cellChars');
    // CDATA is held whole too.
    expect(await verdict(await book(rows(`<![CDATA[${'a'.repeat(300_000)}]]>`)))).toBe('cellChars');
  });

  it('bounds tags, nesting, columns and the elements of the parts kept as models', async () => {
    expect(await verdict(await book(rows(`<row r="1" x="${'a'.repeat(70_000)}"/>`)))).toBe('markupBytes');
    expect(await verdict(await book(rows(`<!--${'a'.repeat(70_000)}-->`)))).toBe('markupBytes');
    expect(await verdict(await book(rows(`${'<a x="/>">'.repeat(100)}`)))).toBe('depth');
    const cols = (xml: string) =>
      book({ 'xl/worksheets/sheet1.xml': `<worksheet><cols>${xml}</cols><sheetData/></worksheet>` });
    expect(await verdict(await cols('<col min="1" max="16384" width="9"/>'))).toBe('passes');
    expect(await verdict(await cols('<col min="1" max="1000000000"/>'))).toBe('columns');
    expect(await verdict(await cols(`<col max = '&#49;000000000' min="1"/>`))).toBe('columns');
    expect(await verdict(await cols('<col min="999999999" max="1"/>'))).toBe('columns');
    expect(await verdict(await cols('<col min="1" max="1"/>'.repeat(16_385)))).toBe('columns');
    const styles = {
      head: '<styleSheet><cellXfs>',
      repeat: '<xf/>',
      times: 500_001,
      tail: '</cellXfs></styleSheet>',
    };
    expect(await verdict(await book({ 'xl/styles.xml': styles }))).toBe('modelPartElements');
    expect(await verdict(await book(rows('<!DOCTYPE x [<!ENTITY a "b">]>')))).toBe('unreadable');
  });

  it('refuses a zip whose local entries are not its central directory (what unzipper would read)', async () => {
    const bytes = await book({});
    // The central directory renames the sheet: exceljs would still read the local entry.
    const renamed = Buffer.from(bytes);
    const at = renamed.lastIndexOf(Buffer.from('xl/worksheets/sheet1.xml'));
    renamed.write('xl/worksheets/sheetX.xml', at);
    expect(await verdict(renamed)).toBe('unreadable');
    // A local entry the central directory does not list (its record cut out of the directory).
    const hidden = await zipParts({ ...workbookParts(), 'xl/worksheets/sheet2.xml': sheet('') });
    const end = hidden.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const lastRecord = hidden.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const directoryEnd = Buffer.from(hidden.subarray(end));
    directoryEnd.writeUInt16LE(directoryEnd.readUInt16LE(8) - 1, 8);
    directoryEnd.writeUInt16LE(directoryEnd.readUInt16LE(10) - 1, 10);
    directoryEnd.writeUInt32LE(directoryEnd.readUInt32LE(12) - (end - lastRecord), 12);
    expect(await verdict(Buffer.concat([hidden.subarray(0, lastRecord), directoryEnd]))).toBe('unreadable');
  });

  it('bounds the cells the first sheet gives out, empty ones between values included', async () => {
    const row = (r: number) =>
      `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>a</t></is></c><c r="XFD${r}" t="inlineStr"><is><t>b</t></is></c></row>`;
    const bytes = await book({
      'xl/worksheets/sheet1.xml': sheet(Array.from({ length: 916 }, (_, i) => row(i + 1)).join('')),
    });
    await expect(async () => {
      for await (const _row of readFirstSheet(Readable.from([bytes]))) {
        // read on
      }
    }).rejects.toMatchObject({ code: 'SESK_08', limit: 'sheetCells' });
  });

  it('names each limit in the caller’s language', () => {
    expect(workbookLimitText('sharedStrings', 'zh')).toBe('共享字符串最多 1,000,000 条');
    expect(workbookLimitText('sharedStrings', 'en')).toBe('at most 1,000,000 shared strings');
    expect(workbookLimitText('sharedStrings', 'de')).toBe('höchstens 1.000.000 gemeinsame Zeichenfolgen');
    expect(workbookLimitText('partBytes', 'en')).toBe('at most 256 MB unzipped per part');
    expect(workbookLimitText('cellChars', 'ja')).toBe('1 セルは最大 32,767 文字');
    expect(workbookLimitText('markupBytes', 'en')).toBe('at most 65,536 bytes per XML tag');
  });
});
