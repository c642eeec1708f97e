import { Readable } from 'node:stream';
import { buffer as readAll } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { readZip } from '../../../test/zip';
import { readFirstSheet, type SheetRow } from './workbook';

/** A workbook of two rows whose zip entries come in `order` (the rest after them, as written). */
async function workbookInOrder(order: string[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('SKU');
  sheet.addRow(['货号', '名称']);
  sheet.addRow(['SHOE1', '跑鞋']);
  const entries = await readZip(Buffer.from(await workbook.xlsx.writeBuffer()));
  const zip = new ZipFile();
  const names = [
    ...order.filter((name) => entries.has(name)),
    ...[...entries.keys()].filter((n) => !order.includes(n)),
  ];
  // Directory entries (`_rels/`) are left out: a zip needs none.
  for (const name of names.filter((n) => !n.endsWith('/'))) zip.addBuffer(entries.get(name) as Buffer, name);
  zip.end();
  return readAll(zip.outputStream);
}

const rowsOf = async (bytes: Buffer) => {
  const rows: SheetRow[] = [];
  for await (const row of readFirstSheet(Readable.from([bytes]))) rows.push(row);
  return rows;
};

describe('reading the first sheet of an import workbook', () => {
  it('reads a workbook whose sheet comes before workbook.xml in the zip', async () => {
    // Valid .xlsx: a zip's entries may come in any order. exceljs's writer itself sometimes puts
    // the sheet first under load; its stream reader then failed on "reading 'sheets'".
    const bytes = await workbookInOrder([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/sharedStrings.xml',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
      'xl/workbook.xml',
    ]);
    expect((await rowsOf(bytes)).map((row) => row.cells)).toEqual([
      ['货号', '名称'],
      ['SHOE1', '跑鞋'],
    ]);
  });

  it('reads one in the usual order (workbook.xml first) the same', async () => {
    const bytes = await workbookInOrder(['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml']);
    expect((await rowsOf(bytes)).map((row) => row.number)).toEqual([1, 2]);
  });
});
