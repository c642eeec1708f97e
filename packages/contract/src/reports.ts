import { z } from 'zod';
import { REPORT_BUCKETS, REPORT_COLUMNS, REPORT_DIMENSIONS } from './reports-values';

/**
 * Data reports (SPEC §2 /manage/data-table, §6 code 6; issue 14). Decisions are recorded in
 * docs/decisions.md, "Data reports (issue 14)".
 *
 * Figures come from the operation log (what people did) and the items (storage). A report covers
 * the caller's department subtree (everything for a caller whose every file scope is "all"), one
 * period of whole days in the business time zone, at most REPORT_PERIOD_MAX_DAYS long.
 */

export * from './reports-values';

const day = z.iso.date();
const id = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);

/** The request of a report and of its export (query string of the export). */
export const reportRequestSchema = z.object({
  /** First day, `YYYY-MM-DD` in the business time zone, inclusive. */
  startDate: day,
  /** Last day, inclusive; at most REPORT_PERIOD_MAX_DAYS days after startDate counting both. */
  endDate: day,
  dimension: z.enum(REPORT_DIMENSIONS).default('department'),
  bucket: z.enum(REPORT_BUCKETS).default('day'),
  /** Only this department and those below it (must be within the caller's reach). */
  deptId: id.optional(),
  /** The order of the table's rows (largest first). */
  sortBy: z.enum(REPORT_COLUMNS).default('uploads'),
});
export type ReportRequest = z.input<typeof reportRequestSchema>;
export type ParsedReportRequest = z.output<typeof reportRequestSchema>;

/** The query string of the export: the same fields, empty values left out. */
export const reportExportQuerySchema = z.preprocess((raw) => {
  const query = { ...(raw as Record<string, unknown>) };
  for (const [key, value] of Object.entries(query)) if (value === '') delete query[key];
  return query;
}, reportRequestSchema);

const count = z.number().int();
export const reportFiguresSchema = z.object({
  uploads: count,
  uploadBytes: count,
  downloads: count,
  shareDownloads: count,
  views: count,
  shares: count,
  shareVisits: count,
});
export type ReportFigures = z.infer<typeof reportFiguresSchema>;

/** One row of the table: a department, a person or a file type. */
export const reportRowSchema = reportFiguresSchema.extend({
  /** Department or user id, or the file type. */
  key: z.string(),
  /** Department or person name; for file types the type (the web translates it). */
  label: z.string(),
  /**
   * Bytes of the files the group holds now, recycle bin included (not limited to the period): the
   * hourly count plus the files finished since (see `storageAsOf`).
   */
  storageBytes: count,
});
export type ReportRow = z.infer<typeof reportRowSchema>;

/** One bucket of the trend: its first day and the figures of the period's days in it. */
export const reportPointSchema = reportFiguresSchema.extend({ bucket: day });
export type ReportPoint = z.infer<typeof reportPointSchema>;

export const reportResultSchema = z.object({
  startDate: day,
  endDate: day,
  dimension: z.enum(REPORT_DIMENSIONS),
  bucket: z.enum(REPORT_BUCKETS),
  /** The IANA time zone the days are counted in. */
  timeZone: z.string(),
  /**
   * Today in that zone: a browser in another zone (UTC at 17:00 is tomorrow in Shanghai) ends its
   * default period on this day, not on its own.
   */
  today: day,
  /** The department the report covers (the caller's, or the one asked for); null: everything. */
  scope: z.object({ deptId: z.number().int(), name: z.string() }).nullable(),
  totals: reportFiguresSchema.extend({ storageBytes: count }),
  /** Every bucket of the period, in order, zeros included. */
  series: z.array(reportPointSchema),
  rows: z.array(reportRowSchema),
  /** More groups than REPORT_ROWS_MAX: the smallest were left out of `rows` (not of the totals). */
  truncated: z.boolean(),
  /**
   * When storage was last counted (the rollup job, hourly); files finished since are added, files
   * deleted since drop out at the next count. null: no count yet, every file read now.
   */
  storageAsOf: z.string().nullable(),
});
export type ReportResult = z.infer<typeof reportResultSchema>;
