import { ItemState, UploadStatus } from '@dam/contract';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { type Viewer, visibleTo } from '../access/visibility.repository';

/** Where the report looks: files owned within a department subtree and/or under a folder. */
export interface ReportScope {
  deptPath?: string;
  /** The folder's `id_path`: files below it. */
  folderIdPath?: string;
}

/** Two live files whose records were found alike, at their nearest. */
export interface ItemPair {
  itemA: number;
  itemB: number;
  distance: number;
}

/** What the clustering needs of a member the caller may see. */
export interface MemberFacts {
  id: number;
  totalSize: number;
  pixels: number;
  createdAt: Date;
  deptPath: string;
}

/** Visibility is checked this many items a query (an `IN` list the planner handles well). */
const VISIBILITY_CHUNK = 5_000;

type ItemsEb = ExpressionBuilder<Database, 'items'>;

/** SQL of the duplicate report (issue 17, plan §7): the stored pairs, narrowed to what the caller sees. */
export class DuplicateReportRepository {
  constructor(private readonly db: Db) {}

  /**
   * Pairs of two different live files, both of finished, shown records, within the thresholds,
   * both in scope (a report of a department or folder counts and keeps only its own files); at most `limit` (the caller asks one more than it
   * allows, to know a scope is too broad).
   */
  async pairs(
    scope: ReportScope,
    maxDistance: number,
    maxColourPermille: number,
    limit: number,
  ): Promise<ItemPair[]> {
    const rows = await this.pairsQuery(scope, maxDistance, maxColourPermille, limit).execute(this.db);
    return rows.rows.map((row) => ({ itemA: row.item_a, itemB: row.item_b, distance: row.distance }));
  }

  /**
   * The query of `pairs` (its plan is checked by server/test/query-plans.test.ts). With a scope it
   * starts from the scope's files (the department's or folder's path index), reaches their pairs
   * by the pairs' primary key and keeps those whose other upload is in scope too; without one it
   * reads every pair, which is what an archive-wide report is.
   */
  pairsQuery(scope: ReportScope, maxDistance: number, maxColourPermille: number, limit: number) {
    const live = (alias: 'i' | 'ia' | 'ib', upload: 'u' | 'ua' | 'ub') =>
      sql`${sql.ref(`${alias}.state`)} = ${ItemState.normal} AND ${sql.ref(`${upload}.status`)} = ${UploadStatus.done} AND NOT ${sql.ref(`${upload}.hidden`)}`;
    const within = [
      ...(scope.deptPath ? [sql`i.dept_path LIKE ${`${scope.deptPath}%`}`] : []),
      ...(scope.folderIdPath ? [sql`i.id_path LIKE ${`${scope.folderIdPath}%`}`] : []),
    ];
    if (within.length === 0)
      return sql<{ item_a: number; item_b: number; distance: number }>`
        SELECT least(ua.item_id, ub.item_id) AS item_a, greatest(ua.item_id, ub.item_id) AS item_b,
               min(p.distance)::int AS distance
        FROM near_duplicate_pairs p
        JOIN uploads ua ON ua.id = p.upload_a
        JOIN uploads ub ON ub.id = p.upload_b
        JOIN items ia ON ia.id = ua.item_id
        JOIN items ib ON ib.id = ub.item_id
        WHERE p.distance <= ${maxDistance} AND p.colour_distance <= ${maxColourPermille}
          AND ${live('ia', 'ua')} AND ${live('ib', 'ub')} AND ia.id <> ib.id
        GROUP BY 1, 2
        LIMIT ${limit}`;
    return sql<{ item_a: number; item_b: number; distance: number }>`
      WITH scoped AS MATERIALIZED (
        SELECT u.id AS upload_id, u.item_id FROM items i JOIN uploads u ON u.item_id = i.id
        WHERE ${live('i', 'u')} AND ${sql.join(within, sql` AND `)}
      )
      SELECT least(a.item_id, b.item_id) AS item_a, greatest(a.item_id, b.item_id) AS item_b,
             min(p.distance)::int AS distance
      FROM scoped a
      JOIN near_duplicate_pairs p ON p.upload_a = a.upload_id
      JOIN scoped b ON b.upload_id = p.upload_b
      WHERE p.distance <= ${maxDistance} AND p.colour_distance <= ${maxColourPermille} AND a.item_id <> b.item_id
      GROUP BY 1, 2
      LIMIT ${limit}`;
  }

  /** Of `ids`, the live files the viewer may see, with their size, pixels and age. */
  async visibleMembers(ids: number[], viewer: Viewer): Promise<MemberFacts[]> {
    const facts: MemberFacts[] = [];
    for (let start = 0; start < ids.length; start += VISIBILITY_CHUNK) {
      const rows = await this.db
        .selectFrom('items')
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('uploads')
              .select(
                sql<number>`coalesce(uploads.width, 0)::bigint * coalesce(uploads.height, 0)`.as('pixels'),
              )
              .whereRef('uploads.item_id', '=', 'items.id')
              .where('uploads.status', '=', UploadStatus.done)
              .where('uploads.hidden', '=', false)
              .orderBy('uploads.id', 'desc')
              .limit(1)
              .as('newest'),
          (join) => join.onTrue(),
        )
        .select(['items.id', 'items.total_size', 'items.created_at', 'items.dept_path', 'newest.pixels'])
        .where('items.id', 'in', ids.slice(start, start + VISIBILITY_CHUNK))
        .where('items.state', '=', ItemState.normal)
        .where((eb) => visibleTo(eb as unknown as ItemsEb, viewer))
        .execute();
      for (const row of rows)
        facts.push({
          id: row.id,
          totalSize: Number(row.total_size),
          pixels: Number(row.pixels ?? 0),
          createdAt: new Date(row.created_at),
          deptPath: row.dept_path,
        });
    }
    return facts;
  }

  /** The department's path, or null when there is none. */
  async departmentPath(id: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('departments')
      .select('path')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.path ?? null;
  }

  /** Department names by path, for the members shown. */
  async departmentNames(paths: string[]): Promise<Map<string, string>> {
    if (paths.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('departments')
      .select(['path', 'name'])
      .where('path', 'in', [...new Set(paths)])
      .execute();
    return new Map(rows.map((row) => [row.path, row.name]));
  }
}
