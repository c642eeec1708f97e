import type { CompletenessColumn, CompletenessRow, CompletenessSeason } from '@dam/contract';
import ExcelJS from 'exceljs';

/** Writing the completeness export (.xlsx); no rules, no SQL. */

export interface CompletenessSheet {
  columns: CompletenessColumn[];
  rows: CompletenessRow[];
  /** Articles matching the filter (the rows may have been cut at the export's limit). */
  total: number;
  seasons: CompletenessSeason[];
  exportedAt: Date;
  timeZone: string;
}

const TEXT = {
  zh: {
    sheet: '货号完整度',
    seasons: '按季节统计',
    artNum: '货号',
    name: '名称',
    season: '季节',
    category: '品类',
    present: '已有',
    expected: '应有',
    missing: '缺少',
    folder: '上传目录',
    yes: '有',
    no: '缺',
    none: '（无季节）',
    skuCount: '货号数',
    completeCount: '完整货号数',
    cellsPresent: '已有图数',
    cellsExpected: '应有图数',
    rate: '完整率 %',
    cut: '共 {total} 个货号，本文件只含前 {rows} 个，请缩小筛选范围后再导出。',
    exportedAt: '导出时间',
  },
  en: {
    sheet: 'SKU completeness',
    seasons: 'By season',
    artNum: 'Article number',
    name: 'Name',
    season: 'Season',
    category: 'Category',
    present: 'Present',
    expected: 'Expected',
    missing: 'Missing',
    folder: 'Upload folder',
    yes: 'yes',
    no: 'MISSING',
    none: '(no season)',
    skuCount: 'Articles',
    completeCount: 'Complete articles',
    cellsPresent: 'Views present',
    cellsExpected: 'Views expected',
    rate: 'Complete %',
    cut: '{total} articles match; this file holds the first {rows}. Narrow the filter and export again.',
    exportedAt: 'Exported at',
  },
} as const;

const columnTitle = (c: CompletenessColumn) =>
  `${c.viewName}${c.code ? ` (${c.code})` : ''} ${c.format.toUpperCase()}`;

export async function completenessWorkbook(sheet: CompletenessSheet, lang: 'zh' | 'en'): Promise<Buffer> {
  const text = TEXT[lang];
  const workbook = new ExcelJS.Workbook();
  const list = workbook.addWorksheet(text.sheet, { views: [{ state: 'frozen', xSplit: 1, ySplit: 1 }] });
  list.addRow([
    text.artNum,
    text.name,
    text.season,
    text.category,
    ...sheet.columns.map(columnTitle),
    text.present,
    text.expected,
    text.missing,
    text.folder,
  ]).font = { bold: true };
  for (const row of sheet.rows) {
    const missing = sheet.columns.filter((_c, i) => !row.cells[i]).map(columnTitle);
    const added = list.addRow([
      row.artNum,
      row.name,
      row.season ?? '',
      row.category ?? '',
      ...row.cells.map((cell) => (cell ? text.yes : text.no)),
      row.present,
      row.expected,
      missing.join(', '),
      row.target?.path ?? '',
    ]);
    row.cells.forEach((cell, i) => {
      if (!cell) added.getCell(5 + i).font = { color: { argb: 'FFCF1322' }, bold: true };
    });
  }
  if (sheet.rows.length < sheet.total)
    list.addRow([
      text.cut.replace('{total}', String(sheet.total)).replace('{rows}', String(sheet.rows.length)),
    ]);
  list.getColumn(1).width = 18;
  list.getColumn(2).width = 24;

  const seasons = workbook.addWorksheet(text.seasons);
  seasons.addRow([
    text.season,
    text.skuCount,
    text.completeCount,
    text.cellsPresent,
    text.cellsExpected,
    text.rate,
  ]).font = { bold: true };
  for (const s of sheet.seasons)
    seasons.addRow([
      s.season ?? text.none,
      s.skuCount,
      s.completeCount,
      s.cellsPresent,
      s.cellsExpected,
      s.skuCount === 0 ? 0 : Math.round((s.completeCount / s.skuCount) * 1000) / 10,
    ]);
  seasons.addRow([]);
  seasons.addRow([text.exportedAt, `${sheet.exportedAt.toISOString()} (UTC; ${sheet.timeZone})`]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
