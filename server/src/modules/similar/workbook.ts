import type { DuplicateCluster } from '@dam/contract';
import ExcelJS from 'exceljs';

/** Writing the duplicate report's export (.xlsx); no rules, no SQL. */

export interface DuplicateSheet {
  clusters: DuplicateCluster[];
  maxDistance: number;
  /** More clusters exist than the file holds. */
  cut: boolean;
  exportedAt: Date;
  /** The filters the export was made with (null: all within the administrator's reach). */
  department: string | null;
  folder: string | null;
  /** While older files are still being fingerprinted: how far it is. */
  progress: { done: number; total: number } | null;
}

const TEXT = {
  zh: {
    sheet: '相似图片',
    summary: '汇总',
    cluster: '组',
    keep: '保留',
    yes: '保留',
    name: '名称',
    path: '位置',
    dept: '部门',
    owner: '上传人',
    formats: '格式',
    pixels: '像素',
    size: '大小（字节）',
    distance: '与保留项差异（位）',
    clusters: '相似组数',
    items: '文件数',
    freeable: '可释放（字节）',
    threshold: '差异上限（位）',
    exportedAt: '导出时间',
    department: '部门',
    allDepartments: '全部部门',
    folder: '文件夹',
    allFolders: '全部文件夹',
    progress: '存量文件比对进度',
    incomplete: '存量文件尚未比对完，结果可能不完整。',
    cut: '相似组超过本文件可容纳的数量，仅含可释放空间最大的部分，请按部门或文件夹缩小范围后再导出。',
  },
  en: {
    sheet: 'Near-duplicates',
    summary: 'Summary',
    cluster: 'Cluster',
    keep: 'Keep',
    yes: 'keep',
    name: 'Name',
    path: 'Folder',
    dept: 'Department',
    owner: 'Uploaded by',
    formats: 'Formats',
    pixels: 'Pixels',
    size: 'Size (bytes)',
    distance: 'Bits from the kept file',
    clusters: 'Clusters',
    items: 'Files',
    freeable: 'Could free (bytes)',
    threshold: 'Most differing bits',
    exportedAt: 'Exported at',
    department: 'Department',
    allDepartments: 'All departments',
    folder: 'Folder',
    allFolders: 'All folders',
    progress: 'Existing files compared',
    incomplete: 'Existing files are still being compared; the report may be incomplete.',
    cut: 'More clusters exist than this file holds; it has those that free the most. Narrow to a department or folder and export again.',
  },
} as const;

export async function duplicateWorkbook(sheet: DuplicateSheet, lang: 'zh' | 'en'): Promise<Buffer> {
  const text = TEXT[lang];
  const workbook = new ExcelJS.Workbook();
  const list = workbook.addWorksheet(text.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  list.addRow([
    text.cluster,
    text.keep,
    text.name,
    text.path,
    text.dept,
    text.owner,
    text.formats,
    text.pixels,
    text.size,
    text.distance,
  ]).font = { bold: true };
  for (const cluster of sheet.clusters)
    for (const member of cluster.members)
      list.addRow([
        cluster.clusterId,
        member.keep ? text.yes : '',
        member.name,
        member.path,
        member.deptName,
        member.userName,
        member.fileFormat ?? '',
        member.width && member.height ? `${member.width}×${member.height}` : '',
        member.fileSize,
        member.keep ? '' : (member.distance ?? ''),
      ]);
  list.getColumn(3).width = 28;
  list.getColumn(4).width = 28;
  const summary = workbook.addWorksheet(text.summary);
  summary.addRow([text.clusters, sheet.clusters.length]);
  summary.addRow([text.items, sheet.clusters.reduce((sum, c) => sum + c.members.length, 0)]);
  summary.addRow([text.freeable, sheet.clusters.reduce((sum, c) => sum + c.bytesFreeable, 0)]);
  summary.addRow([text.threshold, sheet.maxDistance]);
  summary.addRow([text.department, sheet.department ?? text.allDepartments]);
  summary.addRow([text.folder, sheet.folder ?? text.allFolders]);
  if (sheet.progress) {
    summary.addRow([text.progress, `${sheet.progress.done}/${sheet.progress.total}`]);
    summary.addRow([text.incomplete]);
  }
  summary.addRow([text.exportedAt, sheet.exportedAt.toISOString()]);
  if (sheet.cut) summary.addRow([text.cut]);
  summary.getColumn(1).width = 22;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
