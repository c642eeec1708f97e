import {
  ItemType,
  OperationCode,
  type ReportBucket,
  type ReportDimension,
  UploadStatus,
} from '@dam/contract';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema';

/** The figures of one group, as SQL answers them (bigint sums cast back to bigint: JS numbers). */
export interface FigureRow {
  uploads: number;
  upload_bytes: number;
  downloads: number;
  share_downloads: number;
  views: number;
  shares: number;
  share_visits: number;
}

/** One line of the report query: a bucket of the trend (`bucket` set) or a group of the table (`key` set). */
export interface ReportQueryRow extends FigureRow {
  bucket: string | null;
  key: string | null;
}

export interface StorageRow {
  key: string | null;
  bytes: number;
  files: number;
}

export interface RollupState {
  rolledUntil: string | null;
  timeZone: string;
  storageAt: Date | null;
}

/** Which people a report covers: everyone (and events of nobody's), or members of a department subtree. */
export type ReportScope = { kind: 'all' } | { kind: 'subtree'; pathPrefix: string };

export interface ReportQuery {
  /** First day, inclusive. */
  startDate: string;
  /** The day after the last one. */
  endExclusive: string;
  timeZone: string;
  /** Days before it come from the rollup; null: no rollup yet. */
  rolledUntil: string | null;
  scope: ReportScope;
  dimension: ReportDimension;
  bucket: ReportBucket;
}

const C = OperationCode;
/** The log entries the reports count. */
export const COUNTED_CODES = [
  C.upload,
  C.download,
  C.shareDownload,
  C.view,
  C.createShare,
  C.openShare,
] as const;

/**
 * The figures of the operation log between two instants, per local day, person and file type: the
 * one definition of what is counted, used to fill the rollup and to read the hours it has not
 * reached yet. Share visits and share downloads count for the link's owner (the visitor has no
 * account). The file type of an upload is its format's, of a view the format viewed; of anything
 * else, the type of all the items it concerned when they share one (an item of several formats is of
 * its first type in the order image, video, design, document, other), `mixed` otherwise, `folder`
 * for folders only, `other` when the items are gone.
 */
function logFacts(from: RawBuilder<unknown>, to: RawBuilder<unknown>, timeZone: string) {
  return sql`
    SELECT (l.created_at AT TIME ZONE ${timeZone})::date AS day,
      CASE WHEN l.operator_code IN (${C.openShare}, ${C.shareDownload})
        THEN (l.details->>'ownerId')::integer ELSE l.operator_id END AS user_id,
      CASE WHEN l.operator_code = ${C.upload} AND l.details ? 'format'
        THEN report_file_type(l.details->>'format')
        WHEN l.operator_code = ${C.view} AND l.new_value IS NOT NULL THEN report_file_type(l.new_value)
        -- One item (most entries): joined, not looked up by a subquery per entry.
        WHEN cardinality(l.item_ids) = 1 THEN coalesce(${itemType(sql`one`)}, 'other')
        ELSE coalesce((
          SELECT CASE WHEN min(t.type) = max(t.type) THEN min(t.type) ELSE 'mixed' END
          FROM (SELECT ${itemType(sql`i`)} AS type FROM items i WHERE i.id = ANY (l.item_ids)) t
        ), 'other')
      END AS file_type,
      count(*) FILTER (WHERE l.operator_code = ${C.upload})::integer AS uploads,
      coalesce(sum((l.details->>'fileSize')::bigint) FILTER (WHERE l.operator_code = ${C.upload}), 0)::bigint
        AS upload_bytes,
      count(*) FILTER (WHERE l.operator_code = ${C.download})::integer AS downloads,
      count(*) FILTER (WHERE l.operator_code = ${C.shareDownload})::integer AS share_downloads,
      count(*) FILTER (WHERE l.operator_code = ${C.view})::integer AS views,
      count(*) FILTER (WHERE l.operator_code = ${C.createShare})::integer AS shares,
      count(*) FILTER (WHERE l.operator_code = ${C.openShare})::integer AS share_visits
    FROM operation_logs l
    LEFT JOIN items one ON cardinality(l.item_ids) = 1 AND one.id = l.item_ids[1]
    WHERE l.operator_code IN (${sql.join(COUNTED_CODES)})
      AND l.created_at >= ${from} AND l.created_at < ${to}
    GROUP BY 1, 2, 3`;
}

/** The file type of an item (a row of `items` named `alias`): folder, or by its formats. */
function itemType(alias: RawBuilder<unknown>) {
  return sql`CASE WHEN ${alias}.type = ${ItemType.folder} THEN 'folder'
    WHEN strpos(${alias}.file_formats, ',') = 0 THEN report_file_type(${alias}.file_formats)
    ELSE report_item_type(${alias}.file_formats) END`;
}

/** The whole months within [from, to) (days as `YYYY-MM-DD`), or null when there are none. */
export function wholeMonths(from: string, to: string): { from: string; to: string } | null {
  const first = from.endsWith('-01') ? from : nextMonth(from.slice(0, 7));
  const end = `${to.slice(0, 7)}-01`;
  return first < end ? { from: first, to: end } : null;
}

function nextMonth(yearMonth: string): string {
  const [y, m] = yearMonth.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/** Local midnight of a day, as an instant. */
const midnight = (day: string, timeZone: string) => sql`((${day}::date)::timestamp AT TIME ZONE ${timeZone})`;

const FIGURE_SUMS = sql`
  sum(f.uploads)::integer AS uploads, sum(f.upload_bytes)::bigint AS upload_bytes,
  sum(f.downloads)::integer AS downloads, sum(f.share_downloads)::integer AS share_downloads,
  sum(f.views)::integer AS views, sum(f.shares)::integer AS shares,
  sum(f.share_visits)::integer AS share_visits`;

const BUCKET_UNITS: Record<ReportBucket, string> = { day: 'day', week: 'week', month: 'month' };

/** Whether a department is within the scope (everything, or a department subtree). */
function scopeFilter(scope: ReportScope, deptColumn: RawBuilder<unknown>) {
  return scope.kind === 'all'
    ? sql`true`
    : sql`${deptColumn} IN (SELECT id FROM departments WHERE path LIKE ${`${scope.pathPrefix}%`})`;
}

/** The key of a storage group: the owner's department, the owner, or the file type. */
function storageKey(dimension: ReportDimension) {
  if (dimension === 'department') return sql`coalesce(u.dept_id, 0)::text`;
  if (dimension === 'user') return sql`coalesce(s.user_id, 0)::text`;
  return sql`s.file_type`;
}

/** The log's figures with each person's department now (what the rollups keep for the day). */
function peopleFacts(from: RawBuilder<unknown>, to: RawBuilder<unknown>, timeZone: string) {
  return sql`
    SELECT l.day, l.user_id, u.dept_id, l.file_type, l.uploads, l.upload_bytes, l.downloads,
      l.share_downloads, l.views, l.shares, l.share_visits
    FROM (${logFacts(from, to, timeZone)}) l LEFT JOIN users u ON u.id = l.user_id`;
}

/** The only SQL of data reports: the rollup, its state and the report's two queries. */
export class ReportsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async state(): Promise<RollupState | null> {
    const row = await this.db.selectFrom('report_rollup_state').selectAll().executeTakeFirst();
    return row ? { rolledUntil: row.rolled_until, timeZone: row.time_zone, storageAt: row.storage_at } : null;
  }

  /**
   * Rolls the log up to (not including) local day `until` and recomputes the storage figures, in
   * one transaction holding the state row (a second runner waits, then finds the work done). A
   * rollup made in another time zone is rebuilt from the first day of the log.
   */
  async rollUp(until: string, timeZone: string, now: Date): Promise<{ from: string | null; days: number }> {
    const rolled = await this.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO report_rollup_state (id, rolled_until, time_zone, updated_at)
        VALUES (true, NULL, ${timeZone}, ${now}) ON CONFLICT (id) DO NOTHING`.execute(trx);
      const state = await sql<{ rolled_until: string | null; time_zone: string }>`
        SELECT rolled_until, time_zone FROM report_rollup_state WHERE id FOR UPDATE`.execute(trx);
      const current = state.rows[0] as { rolled_until: string | null; time_zone: string };
      let from = current.time_zone === timeZone ? current.rolled_until : null;
      if (from === null) {
        await sql`DELETE FROM report_daily_dept`.execute(trx);
        await sql`DELETE FROM report_daily_user`.execute(trx);
        await sql`DELETE FROM report_monthly_user`.execute(trx);
        const first = await sql<{ day: string | null }>`
          SELECT (min(created_at) AT TIME ZONE ${timeZone})::date AS day FROM operation_logs`.execute(trx);
        from = first.rows[0]?.day ?? until;
      }
      let days = 0;
      if (from < until) {
        await sql`DELETE FROM report_daily_dept WHERE day >= ${from}::date AND day < ${until}::date`.execute(
          trx,
        );
        await sql`DELETE FROM report_daily_user WHERE day >= ${from}::date AND day < ${until}::date`.execute(
          trx,
        );
        // The log is read once; both rollups are filled from it.
        await sql`
          WITH f AS (${peopleFacts(midnight(from, timeZone), midnight(until, timeZone), timeZone)}),
          by_dept AS (
            INSERT INTO report_daily_dept (day, dept_id, file_type, uploads, upload_bytes, downloads,
              share_downloads, views, shares, share_visits)
            SELECT f.day, f.dept_id, f.file_type, ${FIGURE_SUMS} FROM f GROUP BY 1, 2, 3
          )
          INSERT INTO report_daily_user (day, user_id, dept_id, uploads, upload_bytes, downloads,
            share_downloads, views, shares, share_visits)
          SELECT f.day, f.user_id, f.dept_id, ${FIGURE_SUMS} FROM f GROUP BY 1, 2, 3`.execute(trx);
        // The months those days fall in, summed again from the person rollup.
        await sql`DELETE FROM report_monthly_user
          WHERE month >= date_trunc('month', ${from}::date) AND month < ${until}::date`.execute(trx);
        await sql`
          INSERT INTO report_monthly_user (month, user_id, dept_id, uploads, upload_bytes, downloads,
            share_downloads, views, shares, share_visits)
          SELECT date_trunc('month', f.day)::date, f.user_id, f.dept_id, ${FIGURE_SUMS}
          FROM report_daily_user f
          WHERE f.day >= date_trunc('month', ${from}::date) AND f.day < ${until}::date
          GROUP BY 1, 2, 3`.execute(trx);
        days = Math.round((Date.parse(until) - Date.parse(from)) / 86_400_000);
      }
      await sql`DELETE FROM report_storage`.execute(trx);
      await sql`
        INSERT INTO report_storage (user_id, file_type, files, bytes)
        SELECT i.owner_id, report_file_type(up.format), count(*), sum(up.file_size)::bigint
        FROM uploads up JOIN items i ON i.id = up.item_id
        WHERE up.status = ${UploadStatus.done}
        GROUP BY 1, 2`.execute(trx);
      await sql`UPDATE report_rollup_state SET rolled_until = ${from > until ? from : until}::date,
        time_zone = ${timeZone}, storage_at = ${now}, updated_at = ${now} WHERE id`.execute(trx);
      return { from: days > 0 ? from : null, days };
    });
    // Fresh statistics, so the planner knows the rollups' size (a year: ~100,000 rows, not the
    // handful autovacuum last saw) and sums them with a plain scan.
    if (rolled.days > 0)
      await sql`ANALYZE report_daily_dept, report_daily_user, report_monthly_user, report_storage`.execute(
        this.db,
      );
    return rolled;
  }

  /**
   * The trend (`bucket` rows) and the table (`key` rows): the rollup's days, then the log from
   * where the rollup ends, restricted to the scope's departments. By department or file type one
   * pass over the department rollup gives both (GROUPING SETS); by person the table comes from the
   * person rollup.
   */
  async report(q: ReportQuery): Promise<ReportQueryRow[]> {
    // Without JIT compilation or parallel workers: PostgreSQL's estimate of the per-entry item
    // lookups crosses its JIT threshold, and compiling (~40 ms) or starting a worker (~30 ms) takes
    // longer than reading the day's few thousand entries.
    return this.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL jit = off`.execute(trx);
      await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(trx);
      const result = await this.reportQuery(q).execute(trx);
      return result.rows.map(({ key_row, ...row }) =>
        key_row === 1 ? { ...row, bucket: null } : { ...row, key: null },
      );
    });
  }

  /** The SQL of `report` (the bench explains it). `key_row` is 1 on the table's rows. */
  reportQuery(q: ReportQuery): RawBuilder<ReportQueryRow & { key_row: number }> {
    // Days as `YYYY-MM-DD` strings, which sort as the days do.
    const rolledEnd =
      q.rolledUntil === null ? q.startDate : ([q.rolledUntil, q.endExclusive].sort()[0] as string);
    const liveFrom = [rolledEnd, q.startDate].sort()[1] as string;
    const live =
      liveFrom < q.endExclusive
        ? peopleFacts(midnight(liveFrom, q.timeZone), midnight(q.endExclusive, q.timeZone), q.timeZone)
        : null;
    const facts = (table: 'report_daily_dept' | 'report_daily_user') => {
      const parts = [];
      const columns =
        table === 'report_daily_dept'
          ? sql`day, dept_id, file_type, NULL::integer AS user_id`
          : sql`day, dept_id, NULL::text AS file_type, user_id`;
      const figures = sql`uploads, upload_bytes, downloads, share_downloads, views, shares, share_visits`;
      // People: whole months of the rolled days from the monthly sums, the other days day by day.
      const months = table === 'report_daily_user' ? wholeMonths(q.startDate, rolledEnd) : null;
      if (months)
        parts.push(sql`
          SELECT month AS day, dept_id, NULL::text AS file_type, user_id, ${figures}
          FROM report_monthly_user WHERE month >= ${months.from}::date AND month < ${months.to}::date`);
      if (rolledEnd > q.startDate)
        parts.push(sql`
          SELECT ${columns}, ${figures}
          FROM ${sql.table(table)} WHERE day >= ${q.startDate}::date AND day < ${rolledEnd}::date
          ${months ? sql`AND NOT (day >= ${months.from}::date AND day < ${months.to}::date)` : sql``}`);
      if (live)
        parts.push(sql`
          SELECT day, dept_id, file_type, user_id, uploads, upload_bytes, downloads, share_downloads,
            views, shares, share_visits FROM live`);
      const scoped = scopeFilter(q.scope, sql`f.dept_id`);
      return sql`SELECT * FROM (${sql.join(parts, sql` UNION ALL `)}) f WHERE ${scoped}`;
    };
    const withLive = live ? sql`WITH live AS MATERIALIZED (${live})` : sql``;
    const unit = BUCKET_UNITS[q.bucket];
    const bucketOf = sql`date_trunc(${sql.lit(unit)}, f.day)::date::text`;
    if (q.dimension !== 'user') {
      const key = q.dimension === 'department' ? sql`coalesce(f.dept_id, 0)::text` : sql`f.file_type`;
      return sql`
        ${withLive}
        SELECT grouping(${bucketOf}) AS key_row, ${bucketOf} AS bucket, ${key} AS key, ${FIGURE_SUMS}
        FROM (${facts('report_daily_dept')}) f
        GROUP BY GROUPING SETS ((${bucketOf}), (${key}))`;
    }
    // The trend from the department rollup, the people from theirs; the log's hours read once.
    return sql`
      ${withLive}
      SELECT 0 AS key_row, ${bucketOf} AS bucket, NULL AS key, ${FIGURE_SUMS}
      FROM (${facts('report_daily_dept')}) f GROUP BY ${bucketOf}
      UNION ALL
      SELECT 1 AS key_row, NULL AS bucket, coalesce(f.user_id, 0)::text AS key, ${FIGURE_SUMS}
      FROM (${facts('report_daily_user')}) f GROUP BY coalesce(f.user_id, 0)::text`;
  }

  /**
   * Storage used by group, within the scope: the last rollup's count (at `countedAt`) plus the files
   * finished since; without a count yet, every file.
   */
  async storage(
    scope: ReportScope,
    dimension: ReportDimension,
    countedAt: Date | null,
  ): Promise<StorageRow[]> {
    const counted =
      countedAt === null ? sql`` : sql`SELECT user_id, file_type, files, bytes FROM report_storage UNION ALL`;
    const since = countedAt === null ? sql`` : sql`AND up.completed_at > ${countedAt}`;
    const result = await sql<StorageRow>`
      WITH s AS (
        ${counted}
        SELECT i.owner_id AS user_id, report_file_type(up.format) AS file_type, 1 AS files,
          up.file_size AS bytes
        FROM uploads up JOIN items i ON i.id = up.item_id
        WHERE up.status = ${UploadStatus.done} ${since}
      )
      SELECT ${storageKey(dimension)} AS key, sum(s.bytes)::bigint AS bytes, sum(s.files)::integer AS files
      FROM s LEFT JOIN users u ON u.id = s.user_id
      WHERE ${scopeFilter(scope, sql`u.dept_id`)}
      GROUP BY 1`.execute(this.db);
    return result.rows;
  }

  /** Names of departments and people, for the table's labels. */
  async departmentNames(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('departments')
      .select(['id', 'name'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async userNames(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'name'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async department(id: number): Promise<{ id: number; name: string; path: string } | undefined> {
    return this.db
      .selectFrom('departments')
      .select(['id', 'name', 'path'])
      .where('id', '=', id)
      .executeTakeFirst();
  }
}
