import { REPORT_COLUMNS, type ReportColumn, type ReportFileType, type ReportResult } from '@dam/contract';
import ExcelJS from 'exceljs';

/** Writing the data report export (.xlsx); no rules, no SQL. The report is small: written whole. */

export type ReportLanguage = 'zh' | 'en';

const MB = 1024 * 1024;
const BYTE_COLUMNS = new Set<ReportColumn>(['uploadBytes', 'storageBytes']);

const TEXT = {
  zh: {
    summary: '概览',
    table: '明细',
    trend: '趋势',
    title: '数据报表',
    period: '时间段',
    scope: '范围',
    everything: '全部部门',
    timeZone: '时区',
    exportedAt: '导出时间',
    storageAsOf: '存储统计时间',
    truncated: '明细只列出前 {max} 行',
    figure: '指标',
    total: '合计',
    bucket: { day: '日期', week: '周（周一）', month: '月份' },
    dimension: { department: '部门', user: '人员', fileType: '文件类型' },
    noDepartment: '无部门',
    unknownUser: '未知',
    columns: {
      uploads: '上传数',
      uploadBytes: '上传量 (MB)',
      downloads: '下载数',
      shareDownloads: '分享下载数',
      views: '浏览数',
      shares: '分享数',
      shareVisits: '分享访问数',
      storageBytes: '存储占用 (MB)',
    },
    fileTypes: {
      image: '图片',
      design: '设计稿',
      video: '视频',
      document: '文档',
      other: '其他',
      mixed: '多种类型',
      folder: '文件夹',
    },
  },
  en: {
    summary: 'Summary',
    table: 'Breakdown',
    trend: 'Trend',
    title: 'Data report',
    period: 'Period',
    scope: 'Scope',
    everything: 'All departments',
    timeZone: 'Time zone',
    exportedAt: 'Exported at',
    storageAsOf: 'Storage counted at',
    truncated: 'The breakdown lists the first {max} rows only',
    figure: 'Figure',
    total: 'Total',
    bucket: { day: 'Day', week: 'Week (Monday)', month: 'Month' },
    dimension: { department: 'Department', user: 'Person', fileType: 'File type' },
    noDepartment: 'No department',
    unknownUser: 'Unknown',
    columns: {
      uploads: 'Uploads',
      uploadBytes: 'Uploaded (MB)',
      downloads: 'Downloads',
      shareDownloads: 'Share downloads',
      views: 'Views',
      shares: 'Shares',
      shareVisits: 'Share visits',
      storageBytes: 'Storage used (MB)',
    },
    fileTypes: {
      image: 'Images',
      design: 'Design files',
      video: 'Videos',
      document: 'Documents',
      other: 'Other',
      mixed: 'Several types',
      folder: 'Folders',
    },
  },
} as const;

const value = (column: ReportColumn, figure: number) =>
  BYTE_COLUMNS.has(column) ? Math.round((figure / MB) * 100) / 100 : figure;

/** The report as an .xlsx: a summary, the breakdown by the chosen dimension and the trend. */
export async function writeReportWorkbook(
  report: ReportResult,
  options: { language: ReportLanguage; exportedAt: string; storageAsOf: string | null; rowsMax: number },
): Promise<Buffer> {
  const text = TEXT[options.language];
  const workbook = new ExcelJS.Workbook();
  const numberFormat = (column: ReportColumn) => (BYTE_COLUMNS.has(column) ? '#,##0.00' : '#,##0');

  const summary = workbook.addWorksheet(text.summary);
  summary.columns = [{ width: 22 }, { width: 40 }];
  summary.addRow([text.title]).font = { bold: true, size: 14 };
  summary.addRow([text.period, `${report.startDate} – ${report.endDate}`]);
  summary.addRow([text.scope, report.scope?.name ?? text.everything]);
  summary.addRow([text.timeZone, report.timeZone]);
  summary.addRow([text.exportedAt, options.exportedAt]);
  if (options.storageAsOf) summary.addRow([text.storageAsOf, options.storageAsOf]);
  if (report.truncated) summary.addRow(['', text.truncated.replace('{max}', String(options.rowsMax))]);
  summary.addRow([]);
  summary.addRow([text.figure, text.total]).font = { bold: true };
  for (const column of REPORT_COLUMNS) {
    const row = summary.addRow([text.columns[column], value(column, report.totals[column])]);
    row.getCell(2).numFmt = numberFormat(column);
  }

  const label = (key: string, name: string) => {
    if (report.dimension === 'fileType') return text.fileTypes[key as ReportFileType] ?? key;
    if (name) return name;
    return report.dimension === 'department' ? text.noDepartment : text.unknownUser;
  };
  const table = workbook.addWorksheet(text.table);
  table.columns = [
    { header: text.dimension[report.dimension], width: 28 },
    ...REPORT_COLUMNS.map((column) => ({ header: text.columns[column], width: 16 })),
  ];
  table.getRow(1).font = { bold: true };
  for (const row of report.rows) {
    const added = table.addRow([label(row.key, row.label), ...REPORT_COLUMNS.map((c) => value(c, row[c]))]);
    REPORT_COLUMNS.forEach((column, i) => {
      added.getCell(i + 2).numFmt = numberFormat(column);
    });
  }
  table.views = [{ state: 'frozen', ySplit: 1 }];

  const trendColumns = REPORT_COLUMNS.filter((c) => c !== 'storageBytes');
  const trend = workbook.addWorksheet(text.trend);
  trend.columns = [
    { header: text.bucket[report.bucket], width: 16 },
    ...trendColumns.map((column) => ({ header: text.columns[column], width: 16 })),
  ];
  trend.getRow(1).font = { bold: true };
  for (const point of report.series) {
    const added = trend.addRow([
      point.bucket,
      ...trendColumns.map((c) => value(c, point[c as keyof typeof point] as number)),
    ]);
    trendColumns.forEach((column, i) => {
      added.getCell(i + 2).numFmt = numberFormat(column);
    });
  }
  trend.views = [{ state: 'frozen', ySplit: 1 }];

  return Buffer.from(await workbook.xlsx.writeBuffer());
}
