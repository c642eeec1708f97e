/**
 * Data reports' constants without zod's schemas (those are in reports.ts, which re-exports these):
 * the web's report screen needs only these.
 */

/** What is counted, in display order. */
export const REPORT_METRICS = [
  /** Files uploaded (FILE01: one per finished upload record). */
  'uploads',
  /** Bytes of those uploads. */
  'uploadBytes',
  /** Signed-in downloads (FILE09: one per download, whatever the number of files in it). */
  'downloads',
  /** Downloads through a share link (SHARE04), counted for the link's owner. */
  'shareDownloads',
  /** Files opened in the viewer (FILE13). */
  'views',
  /** Share links created (SHARE01). */
  'shares',
  /** Share links opened by a visitor (SHARE03), counted for the link's owner. */
  'shareVisits',
] as const;
export type ReportMetric = (typeof REPORT_METRICS)[number];

/** The columns of the table: the event metrics and the storage used now. */
export const REPORT_COLUMNS = [...REPORT_METRICS, 'storageBytes'] as const;
export type ReportColumn = (typeof REPORT_COLUMNS)[number];

/** How the table and the breakdown chart group the figures. */
export const REPORT_DIMENSIONS = ['department', 'user', 'fileType'] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

/** The time buckets of the trend chart. Weeks start on Monday (ISO). */
export const REPORT_BUCKETS = ['day', 'week', 'month'] as const;
export type ReportBucket = (typeof REPORT_BUCKETS)[number];

/**
 * File types, by the format (extension) of the file: what a person of a footwear brand tells apart.
 * `folder`: an event on folders only; `mixed`: an event on files of several types.
 */
export const REPORT_FILE_TYPES = [
  'image',
  'design',
  'video',
  'document',
  'other',
  'mixed',
  'folder',
] as const;
export type ReportFileType = (typeof REPORT_FILE_TYPES)[number];

/** Longest period of one report, in days (a leap year). */
export const REPORT_PERIOD_MAX_DAYS = 366;
/** At most this many table rows (the biggest first by the sort metric); `truncated` says when more. */
export const REPORT_ROWS_MAX = 1_000;

/** Whole days from `startDate` to `endDate`, both counted (`YYYY-MM-DD` strings). */
export function reportPeriodDays(startDate: string, endDate: string): number {
  const ms = Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`);
  return Math.round(ms / 86_400_000) + 1;
}
