import { PassThrough, type Readable } from 'node:stream';
import type { LogEntry } from '@dam/contract';
import ExcelJS from 'exceljs';
import type { LogLanguage } from './describe';

/** Writing the log export (.xlsx); no rules, no SQL. */

/** Excel refuses cells longer than this. */
const CELL_MAX_CHARS = 32_000;

const HEADERS: Record<LogLanguage, string[]> = {
  zh: [
    '时间',
    '操作人',
    '操作人ID',
    '操作',
    '操作代码',
    '操作内容',
    '文件名',
    '文件数',
    '修改值',
    'IP',
    '来源',
    '浏览器',
  ],
  en: [
    'Time',
    'Operator',
    'Operator ID',
    'Operation',
    'Code',
    'Content',
    'File names',
    'Items',
    'Modified value',
    'IP',
    'Source',
    'User agent',
  ],
};

const TEXT = {
  zh: {
    sheet: '操作日志',
    info: '导出说明',
    visitor: '访客（分享链接）',
    server: '服务器记录',
    browser: '浏览器上报',
    exportedAt: '导出时间',
    exportedBy: '导出人',
    timeZone: '时区',
    filter: '筛选条件',
    none: '无',
    matched: '符合条件的记录',
    written: '本文件中的记录',
    cap: '每次导出最多 {max} 行',
    capped: '已达到导出上限 {max} 行：还有 {rest} 条较早的记录未导出，请缩小时间范围后再导出。',
  },
  en: {
    sheet: 'Operation log',
    info: 'About this export',
    visitor: 'Visitor (share link)',
    server: 'recorded by the server',
    browser: 'reported by the browser',
    exportedAt: 'Exported at',
    exportedBy: 'Exported by',
    timeZone: 'Time zone',
    filter: 'Filter',
    none: 'none',
    matched: 'Entries matching the filter',
    written: 'Entries in this file',
    cap: 'At most {max} rows per export',
    capped:
      'Export limit of {max} rows reached: {rest} older entries were not exported. Narrow the time range and export again.',
  },
} as const;

const fill = (text: string, values: Record<string, number>) =>
  text.replace(
    /\{(\w+)\}/g,
    (whole, key: string) => (key in values ? values[key]?.toLocaleString('en') : whole) ?? whole,
  );
const cell = (text: string) =>
  text.length > CELL_MAX_CHARS ? `${text.slice(0, CELL_MAX_CHARS - 1)}…` : text;

export interface LogWorkbook {
  entries: AsyncIterable<LogEntry>;
  language: LogLanguage;
  timeZone: string;
  exportedAt: string;
  exportedBy: string;
  filter: Record<string, string>;
  total: number;
  maxRows: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** `2026-01-05 17:00:00`: an instant as the wall-clock time of a time zone. */
export function localTime(instant: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
    });
    formats.set(timeZone, format);
  }
  return format.format(instant);
}

/**
 * Streams the export: sheet 1 the entries (one row each, newest first, times in the business
 * time zone), a last row saying so when the cap cut the list; sheet 2 who exported what, when,
 * how many matched and the cap. Rows are written as they are read: memory stays flat.
 */
export function writeLogWorkbook(book: LogWorkbook): Readable {
  const out = new PassThrough();
  const text = TEXT[book.language];
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  (async () => {
    const sheet = workbook.addWorksheet(text.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = HEADERS[book.language].map((header, index) => ({
      header: index === 0 ? `${header} (${book.timeZone})` : header,
      width: [20, 16, 10, 18, 10, 40, 40, 8, 30, 16, 14, 30][index] ?? 16,
    }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    let written = 0;
    for await (const entry of book.entries) {
      sheet
        .addRow([
          localTime(new Date(entry.time), book.timeZone),
          entry.operatorId === null ? text.visitor : (entry.operatorName ?? ''),
          entry.operatorId ?? '',
          entry.operationName,
          entry.operatorCode,
          cell(entry.content),
          cell(entry.fileNames.join('\n')),
          entry.itemCount,
          cell(entry.newValue ?? ''),
          entry.ip ?? '',
          entry.reported ? text.browser : text.server,
          cell(entry.userAgent ?? ''),
        ])
        .commit();
      written += 1;
    }
    if (book.total > written) {
      sheet.addRow([fill(text.capped, { max: book.maxRows, rest: book.total - written })]).commit();
    }
    sheet.commit();

    const info = workbook.addWorksheet(text.info);
    info.columns = [{ width: 28 }, { width: 60 }];
    const filter = Object.entries(book.filter)
      .map(([key, value]) => `${key}=${value}`)
      .join('; ');
    const rows: Array<[string, string | number]> = [
      [text.exportedAt, book.exportedAt],
      [text.exportedBy, book.exportedBy],
      [text.timeZone, book.timeZone],
      [text.filter, filter || text.none],
      [text.matched, book.total],
      [text.written, written],
      [
        fill(text.cap, { max: book.maxRows }),
        book.total > written ? fill(text.capped, { max: book.maxRows, rest: book.total - written }) : '',
      ],
    ];
    for (const row of rows) info.addRow(row).commit();
    info.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
