import { PassThrough } from 'node:stream';
import { TAG_WORKBOOK_FIXED_HEADERS, type TagWorkbookFixedColumn } from '@dam/contract';
import ExcelJS from 'exceljs';

/**
 * Writing the tag workbook and naming its columns; no rules, no SQL. Reading goes through the SKU
 * import's streaming reader (`readFirstSheet` in ../sku/workbook).
 */

const FIXED_COLUMNS = Object.keys(TAG_WORKBOOK_FIXED_HEADERS) as TagWorkbookFixedColumn[];

const headerKey = (text: string) => text.replace(/[*＊]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

const FIXED_LOOKUP = new Map<string, TagWorkbookFixedColumn>(
  FIXED_COLUMNS.flatMap((column) =>
    TAG_WORKBOOK_FIXED_HEADERS[column].map((header) => [headerKey(header), column] as const),
  ),
);

/** Which fixed column a header text names (any case, `*` ignored), if any. */
export function fixedColumnOf(header: string): TagWorkbookFixedColumn | undefined {
  return FIXED_LOOKUP.get(headerKey(header));
}

/** The header of a fixed column in the workbook of a language: Chinese for zh, English otherwise. */
export function fixedHeader(column: TagWorkbookFixedColumn, chinese: boolean): string {
  const [zh, en] = TAG_WORKBOOK_FIXED_HEADERS[column];
  return column === 'id' ? 'ID' : ((chinese ? zh : en) ?? column);
}

/** 0 → A, 25 → Z, 26 → AA: the column letter Excel shows. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/** How an error names a column: its letter and header, `E (季节)`. */
export function columnLabel(index: number, header: string): string {
  return header ? `${columnLetter(index)} (${header})` : columnLetter(index);
}

/**
 * An .xlsx with a bold, frozen header row and the rows given, written by exceljs's streaming
 * writer (rows are committed one by one, never held as a whole workbook model).
 */
export async function writeTagWorkbook(
  sheetName: string,
  columns: Array<{ header: string; width: number }>,
  rows: Iterable<Array<string | number | null>>,
): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: true,
  });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
  await finished;
  return Buffer.concat(chunks);
}
