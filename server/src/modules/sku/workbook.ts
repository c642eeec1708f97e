import { PassThrough, type Readable } from 'node:stream';
import {
  SKU_IMPORT_FIELDS,
  SKU_IMPORT_HEADERS,
  SKU_REQUIRED_FIELDS,
  type SkuImportField,
} from '@dam/contract';
import ExcelJS from 'exceljs';
import { guardWorkbook } from './workbook-guard';
import { UnreadableWorkbookError, WORKBOOK_LIMITS, WorkbookLimitError } from './workbook-limits';

/** Reading and writing the SKU import workbook (.xlsx); no rules, no SQL. */

export interface SheetRow {
  /** The row number as Excel shows it (1-based). */
  number: number;
  /** Cell texts by column (0-based), trimmed; '' for an empty cell. */
  cells: string[];
}

export { UnreadableWorkbookError, WorkbookLimitError };

/** The text of a cell value as the stream reader gives it (shared strings, rich text, formulas…). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as {
      richText?: Array<{ text?: string }>;
      text?: unknown;
      result?: unknown;
      error?: unknown;
    };
    if (Array.isArray(v.richText))
      return v.richText
        .map((run) => run.text ?? '')
        .join('')
        .trim();
    if ('result' in v) return cellText(v.result);
    if ('text' in v) return cellText(v.text);
    if ('error' in v) return '';
  }
  return '';
}

/** A read that met shared-string cells before the shared strings: tried again from the bytes. */
class IncompleteReadError extends Error {}

/** Reads of one workbook before giving up on exceljs's stream reader (see readFirstSheet). */
const READ_ATTEMPTS = 4;

/**
 * The rows of the first worksheet, streamed: the upload's bytes (at most the import limit) are
 * held, never the parsed workbook. Rows with no text at all are skipped. Throws
 * UnreadableWorkbookError when the bytes are not an .xlsx workbook or hold no worksheet, and
 * WorkbookLimitError (SESK_08) when they would unpack past WORKBOOK_LIMITS: checked by
 * guardWorkbook before exceljs sees a byte, and for the cells given out as they are given.
 *
 * exceljs's stream reader now and then ends its walk over the zip before `xl/sharedStrings.xml`
 * when a worksheet came first (exceljs's own writer puts it first) and was set aside: the sheet is
 * then read with every text cell as `{sharedString: n}` (seen about 1 in 150 reads on a busy
 * machine, as a header "without the article number column"). Such a read is noticed at its first
 * text cell, before any row is given out, and done again from the bytes.
 */
export async function* readFirstSheet(source: Readable): AsyncGenerator<SheetRow> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  await guardWorkbook(bytes);
  for (let attempt = 1; ; attempt++) {
    try {
      // A byte stream, as uploads are (Readable.from would make an object stream the unzipper stalls on).
      yield* readFirstSheetOnce(new PassThrough().end(bytes));
      return;
    } catch (error) {
      if (!(error instanceof IncompleteReadError)) throw error;
      if (attempt === READ_ATTEMPTS) throw new UnreadableWorkbookError('shared strings could not be read');
    }
  }
}

async function* readFirstSheetOnce(source: Readable): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  // A zip's entries may come in any order, and exceljs's own writer sometimes puts a sheet before
  // xl/workbook.xml. Its reader then emits that sheet before it has a workbook model and fails
  // on "reading 'sheets'" (exceljs #962): an empty model lets the sheet through nameless (names
  // are not read here); xl/workbook.xml replaces it when it comes.
  const unordered = reader as unknown as { model?: object };
  unordered.model ??= {};
  let sheets = 0;
  let given = 0;
  let cellsGiven = 0;
  try {
    for await (const worksheet of reader) {
      sheets += 1;
      // Later sheets are skipped unread (the reader drains them).
      if (sheets > 1) continue;
      for await (const row of worksheet) {
        const values = Array.isArray(row.values) ? (row.values as unknown[]) : [];
        if (values.some(unresolvedText)) {
          if (given === 0) throw new IncompleteReadError();
          throw new UnreadableWorkbookError('shared strings could not be read');
        }
        // row.values is 1-based (index 0 is always empty); one row is at most 16,384 cells (exceljs).
        const cells = values.slice(1).map(cellText);
        for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = '';
        if (cells.some((c) => c !== '')) {
          // The rows given out are kept by the import: their cells, gaps included, are bounded.
          cellsGiven += cells.length;
          if (cellsGiven > WORKBOOK_LIMITS.sheetCells) throw new WorkbookLimitError('sheetCells');
          given += 1;
          yield { number: row.number, cells };
        }
      }
    }
  } catch (error) {
    if (
      error instanceof IncompleteReadError ||
      error instanceof UnreadableWorkbookError ||
      error instanceof WorkbookLimitError
    )
      throw error;
    throw new UnreadableWorkbookError(error instanceof Error ? error.message : String(error));
  }
  if (sheets === 0) throw new UnreadableWorkbookError('no worksheet');
}

/** A text cell the reader met before it had the shared strings. */
const unresolvedText = (value: unknown) =>
  typeof value === 'object' && value !== null && 'sharedString' in value;

/** `货号 / Article number*` → [`货号`, `article number`]: the comparable halves of a header text. */
function headerKeys(text: string): string[] {
  return text
    .split('/')
    .map((part) => part.replace(/[*＊]/g, '').replace(/\s+/g, ' ').trim().toLowerCase())
    .filter(Boolean);
}

const HEADER_LOOKUP = new Map<string, SkuImportField>(
  SKU_IMPORT_FIELDS.flatMap((field) =>
    SKU_IMPORT_HEADERS[field].map((header) => [header.replace(/\s+/g, ' ').toLowerCase(), field] as const),
  ),
);

/** Which column holds which field (the first column naming a field wins); unknown columns are ignored. */
export function mapHeader(cells: string[]): Map<SkuImportField, { index: number; header: string }> {
  const columns = new Map<SkuImportField, { index: number; header: string }>();
  cells.forEach((cell, index) => {
    const field = headerKeys(cell)
      .map((key) => HEADER_LOOKUP.get(key))
      .find((f) => f !== undefined);
    if (field && !columns.has(field))
      columns.set(field, { index, header: cell.replace(/[*＊]/g, '').trim() });
  });
  return columns;
}

/** The header text of a field in the template of a language: Chinese for zh, English otherwise. */
export function templateHeader(field: SkuImportField, chinese: boolean): string {
  const [zh, en] = SKU_IMPORT_HEADERS[field];
  return (chinese ? zh : en) ?? field;
}

/** An empty import workbook: the header row (required columns marked `*`), frozen, nothing else. */
export async function buildTemplate(chinese: boolean): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(chinese ? '货号资料' : 'SKU', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = SKU_IMPORT_FIELDS.map((field) => ({
    header: `${templateHeader(field, chinese)}${SKU_REQUIRED_FIELDS.includes(field) ? '*' : ''}`,
    width: field === 'name' ? 32 : 18,
    // Article numbers such as 00123 must stay text.
    style: field === 'artNum' ? { numFmt: '@' } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
