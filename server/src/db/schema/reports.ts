import type { ColumnType, Generated } from 'kysely';

/** Data report rollups, workbook imports and the SKU completeness report. */

/** The figures of a day in the data reports' rollups (migration 019). */
interface ReportFigureColumns {
  uploads: number;
  upload_bytes: number;
  downloads: number;
  share_downloads: number;
  views: number;
  shares: number;
  share_visits: number;
}

/** Daily rollup of the operation log by department and file type (migration 019). */
export interface ReportDailyDeptTable extends ReportFigureColumns {
  day: string;
  dept_id: number | null;
  file_type: string;
}

/** The person rollup summed by month (migration 019). */
export interface ReportMonthlyUserTable extends ReportFigureColumns {
  month: string;
  user_id: number | null;
  dept_id: number | null;
}

/** Daily rollup of the operation log by person (migration 019). */
export interface ReportDailyUserTable extends ReportFigureColumns {
  day: string;
  user_id: number | null;
  dept_id: number | null;
}

export interface ReportRollupStateTable {
  id: Generated<boolean>;
  /** Days before this one (YYYY-MM-DD) are rolled up; null: none yet. */
  rolled_until: string | null;
  time_zone: string;
  storage_at: Date | null;
  updated_at: Date;
}

/** Storage used by owner and file type, as of report_rollup_state.storage_at (migration 019). */
export interface ReportStorageTable {
  user_id: number;
  file_type: string;
  files: number;
  bytes: number;
}

/** One row of an import workbook as kept (migration 020): its number and cell texts. */
export interface ImportSheetRow {
  n: number;
  c: string[];
}

/** A workbook imported through import management (migration 020). */
export interface ImportTable {
  id: Generated<number>;
  kind: 'sku' | 'tagAssignments';
  status: 'checking' | 'checked' | 'rejected' | 'applying' | 'applied' | 'discarded' | 'failed';
  file_name: string;
  file_size: number;
  created_by: number | null;
  dept_id: number | null;
  created_at: Date;
  updated_at: Date;
  applied_by: number | null;
  applied_at: Date | null;
  header: ColumnType<ImportSheetRow, string, string>;
  rows: ColumnType<ImportSheetRow[], string, string>;
  total_rows: number;
  processed_rows: Generated<number>;
  created_count: Generated<number>;
  updated_count: Generated<number>;
  unchanged_count: Generated<number>;
  problem_count: Generated<number>;
  problems: ColumnType<unknown[], string | undefined, string>;
  changes: ColumnType<unknown[], string | undefined, string>;
}

/** An expected view of the SKU completeness report (migration 021). */
export interface CompletenessViewTable {
  id: Generated<number>;
  position: number;
  name: string;
  code: string | null;
  tag_id: number | null;
  match_any: Generated<boolean>;
  formats: string[];
  updated_by: number | null;
  updated_at: Generated<Date>;
}

/** The completeness report's one row of settings (migration 021). */
export interface CompletenessSettingsTable {
  id: Generated<boolean>;
  default_folder_id: number | null;
}
