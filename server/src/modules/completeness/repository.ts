import { ItemState, ItemType } from '@dam/contract';
import { expressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { type Viewer, visibleTo } from '../access/visibility.repository';
import {
  cellsSql,
  filesSql,
  type SeasonJson,
  type SkuRow,
  seasonOfRow,
  skuOfRow,
  skuSql,
} from './report-sql.repository';

/** An expected view as stored. */
export interface ViewRecord {
  id: number;
  name: string;
  code: string | null;
  tagId: number | null;
  tagName: string | null;
  matchAny: boolean;
  formats: string[];
}

export interface ViewToSave {
  name: string;
  code: string | null;
  tagId: number | null;
  formats: string[];
}

/** Which articles, and whose files (the caller's visible ones, perhaps of one department). */
export interface ReportScope {
  viewer: Viewer;
  /** Files valid on this day count (SPEC §4: an expired file is not usable). */
  day: string;
  seasons?: string[];
  categories?: string[];
  /** Tag ids grouped by dimension: an article needs one tag of each group. */
  tagGroups: number[][];
  /** Files owned within this department path only. */
  deptPath?: string;
  /** Lower-cased prefix of the article number. */
  artNumPrefix?: string;
  /** Whether a view is found by a tag (the report then also reads the files' tags). */
  tagViews: boolean;
}

export interface SeasonCounts {
  season: string | null;
  skuCount: number;
  completeCount: number;
  cellsPresent: number;
}

export interface SkuOfReport {
  skuId: number;
  artNum: string;
  name: string;
  season: string | null;
  category: string | null;
  present: number;
}
/**
 * The only SQL of the completeness report. Articles come from the SKU data; files are matched to
 * them by `lower(art_num) COLLATE "C"` (the items_art_num_key index), only live files the viewer
 * may see (the one visibility rule, access/visibility.repository) that are valid today.
 */
export class CompletenessRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repo: CompletenessRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new CompletenessRepository(trx)));
  }

  async views(): Promise<ViewRecord[]> {
    const rows = await this.db
      .selectFrom('completeness_views as v')
      .leftJoin('tags', 'tags.id', 'v.tag_id')
      .select(['v.id', 'v.name', 'v.code', 'v.tag_id', 'tags.name as tag_name', 'v.match_any', 'v.formats'])
      .orderBy('v.position')
      .orderBy('v.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      code: r.code,
      tagId: r.tag_id === null ? null : Number(r.tag_id),
      tagName: r.tag_name,
      matchAny: r.match_any,
      formats: r.formats,
    }));
  }

  /** Replaces every view (call inside `transaction`); the table is locked against a parallel save. */
  async replaceViews(views: ViewToSave[], userId: number, now: Date): Promise<void> {
    await sql`LOCK TABLE completeness_views IN EXCLUSIVE MODE`.execute(this.db);
    await this.db.deleteFrom('completeness_views').execute();
    await this.db
      .insertInto('completeness_views')
      .values(
        views.map((view, position) => ({
          position,
          name: view.name,
          code: view.code,
          tag_id: view.tagId,
          match_any: view.code === null && view.tagId === null,
          formats: view.formats,
          updated_by: userId,
          updated_at: now,
        })),
      )
      .execute();
  }

  async setDefaultFolder(folderId: number | null): Promise<void> {
    await this.db.updateTable('completeness_settings').set({ default_folder_id: folderId }).execute();
  }

  /** The configured default folder, when it is still a live folder. */
  async defaultFolder(): Promise<{
    id: number;
    path: string;
    owner_id: number;
    visibility: 'shared' | 'private';
    dept_path: string;
  } | null> {
    const row = await this.db
      .selectFrom('completeness_settings')
      .innerJoin('items', 'items.id', 'completeness_settings.default_folder_id')
      .where('items.state', '=', ItemState.normal)
      .where('items.type', '=', ItemType.folder)
      .select([
        'items.id',
        'items.name',
        'items.folder_path',
        'items.owner_id',
        'items.visibility',
        'items.dept_path',
      ])
      .executeTakeFirst();
    if (!row) return null;
    const path = row.folder_path === '/' ? `/${row.name}` : `${row.folder_path}/${row.name}`;
    return {
      id: Number(row.id),
      path,
      owner_id: row.owner_id,
      visibility: row.visibility,
      dept_path: row.dept_path,
    };
  }

  /** Tags by id with their dimension, for grouping a tag filter (unknown ids are left out). */
  async tagDimensions(tagIds: number[]): Promise<Array<{ id: number; dimensionId: number }>> {
    if (tagIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('tags')
      .select(['id', 'dimension_id'])
      .where('id', 'in', tagIds)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), dimensionId: Number(r.dimension_id) }));
  }

  async tagExists(tagId: number): Promise<boolean> {
    return Boolean(await this.db.selectFrom('tags').select('id').where('id', '=', tagId).executeTakeFirst());
  }

  async folder(id: number) {
    return this.db
      .selectFrom('items')
      .select(['id', 'type', 'state', 'owner_id', 'visibility', 'dept_path'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async departmentPath(id: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('departments')
      .select('path')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.path ?? null;
  }

  /** `deptPathPrefix`: only that subtree's departments; null: none; undefined: all. */
  async filterOptions(limit: number, deptPathPrefix?: string | null) {
    const seasons = await this.db
      .selectFrom('sku')
      .select('season')
      .distinct()
      .where('season', 'is not', null)
      .orderBy('season')
      .limit(limit)
      .execute();
    const categories = await this.db
      .selectFrom('sku')
      .select('category')
      .distinct()
      .where('category', 'is not', null)
      .orderBy('category')
      .limit(limit)
      .execute();
    let departmentQuery = this.db
      .selectFrom('departments')
      .select(['id', 'name', 'parent_id', 'path'])
      .where('status', '=', 1);
    if (deptPathPrefix) departmentQuery = departmentQuery.where('path', 'like', `${deptPathPrefix}%`);
    const departments =
      deptPathPrefix === null ? [] : await departmentQuery.orderBy('path').limit(limit).execute();
    const latest = await this.db
      .selectFrom('sku')
      .select('season')
      .where('season', 'is not', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return {
      latestSeason: latest?.season ?? null,
      seasons: seasons.map((r) => r.season as string),
      categories: categories.map((r) => r.category as string),
      // The top of a subtree has its parent outside it: shown as a root.
      departments: departments.map((d) => ({
        id: d.id,
        name: d.name,
        parentId: d.parent_id !== null && departments.some((p) => p.id === d.parent_id) ? d.parent_id : null,
      })),
    };
  }

  /**
   * Per season over every filtered article: articles, complete ones (all `expected` cells present),
   * cells present.
   */
  async seasons(scope: ReportScope, expected: number): Promise<SeasonCounts[]> {
    const { rows } = await sql<SeasonJson>`
      WITH s AS MATERIALIZED (${skuSql(scope)}),
      f AS MATERIALIZED (${filesSql(sql`s`, scope)}),
      c AS (${cellsSql(scope)}),
      p AS (SELECT sku_id, count(*) AS present FROM c GROUP BY sku_id)
      SELECT s.season, count(*) AS sku_count,
        count(*) FILTER (WHERE COALESCE(p.present, 0) >= ${expected}) AS complete_count,
        COALESCE(sum(p.present), 0) AS cells_present
      FROM s LEFT JOIN p ON p.sku_id = s.id
      GROUP BY s.season
      ORDER BY s.season NULLS LAST`.execute(this.db);
    return rows.map(seasonOfRow);
  }

  /** One page of articles in article-number order, their cells counted (no status: cheap). */
  async page(scope: ReportScope, offset: number, limit: number): Promise<SkuOfReport[]> {
    const { rows } = await sql<SkuRow>`
      WITH s AS MATERIALIZED (${skuSql(scope)} ORDER BY key LIMIT ${limit} OFFSET ${offset}),
      f AS MATERIALIZED (${filesSql(sql`s`, scope)}),
      c AS (${cellsSql(scope)}),
      p AS (SELECT sku_id, count(*) AS present FROM c GROUP BY sku_id)
      SELECT s.id, s.art_num, s.name, s.season, s.category, COALESCE(p.present, 0) AS present
      FROM s LEFT JOIN p ON p.sku_id = s.id ORDER BY s.key`.execute(this.db);
    return rows.map(skuOfRow);
  }

  /**
   * The counts per season and one page of the complete or incomplete articles, from one reading
   * of every filtered article's files (what a status filter needs anyway).
   */
  async seasonsAndPage(
    scope: ReportScope,
    expected: number,
    status: 'incomplete' | 'complete',
    offset: number,
    limit: number,
  ): Promise<{ seasons: SeasonCounts[]; page: SkuOfReport[] }> {
    const wanted = status === 'complete' ? sql`present >= ${expected}` : sql`present < ${expected}`;
    const { rows } = await sql<{ seasons: SeasonJson[]; page: SkuRow[] }>`
      WITH s AS MATERIALIZED (${skuSql(scope)}),
      f AS MATERIALIZED (${filesSql(sql`s`, scope)}),
      c AS (${cellsSql(scope)}),
      p AS (SELECT sku_id, count(*) AS present FROM c GROUP BY sku_id),
      j AS MATERIALIZED (
        SELECT s.id, s.art_num, s.name, s.season, s.category, s.key, COALESCE(p.present, 0) AS present
        FROM s LEFT JOIN p ON p.sku_id = s.id)
      SELECT
        (SELECT COALESCE(json_agg(x ORDER BY x.season NULLS LAST), '[]'::json) FROM (
          SELECT season, count(*) AS sku_count, count(*) FILTER (WHERE present >= ${expected}) AS complete_count,
            COALESCE(sum(present), 0) AS cells_present
          FROM j GROUP BY season) x) AS seasons,
        (SELECT COALESCE(json_agg(y ORDER BY y.key), '[]'::json) FROM (
          SELECT id, art_num, name, season, category, present, key FROM j
          WHERE ${wanted} ORDER BY key LIMIT ${limit} OFFSET ${offset}) y) AS page`.execute(this.db);
    const row = rows[0];
    return {
      seasons: (row?.seasons ?? []).map(seasonOfRow),
      page: (row?.page ?? []).map(skuOfRow),
    };
  }

  /** The cells present of some articles (a page), and the folder of each one's newest counted file. */
  async details(
    scope: ReportScope,
    skuIds: number[],
  ): Promise<{
    cells: Array<{ skuId: number; viewId: number; format: string }>;
    folders: Array<{ skuId: number; folderId: number | null; path: string }>;
  }> {
    if (skuIds.length === 0) return { cells: [], folders: [] };
    const skus = sql`(SELECT id, lower(art_num) COLLATE "C" AS key FROM sku WHERE id = ANY(${skuIds}::bigint[]))`;
    const { rows: cells } = await sql<{ sku_id: string; view_id: number; format: string }>`
      WITH f AS MATERIALIZED (${filesSql(skus, scope)})
      ${cellsSql(scope)}`.execute(this.db);
    // The folder of the newest counted file, when the viewer may see that folder (top level: null).
    const eb = expressionBuilder<Database, 'items'>();
    const { rows: folders } = await sql<{ sku_id: string; folder_id: string | null; path: string }>`
      WITH f AS (${filesSql(skus, scope)})
      SELECT DISTINCT ON (f.sku_id) f.sku_id, file.parent_id AS folder_id,
        CASE WHEN items.id IS NULL THEN '/'
          WHEN items.folder_path = '/' THEN '/' || items.name
          ELSE items.folder_path || '/' || items.name END AS path
      FROM f
      JOIN items file ON file.id = f.item_id
      LEFT JOIN items ON items.id = file.parent_id
      WHERE file.parent_id IS NULL
        OR (items.state = ${sql.lit(ItemState.normal)} AND ${visibleTo(eb, scope.viewer)})
      ORDER BY f.sku_id, file.created_at DESC, file.id DESC`.execute(this.db);
    return {
      cells: cells.map((c) => ({ skuId: Number(c.sku_id), viewId: c.view_id, format: c.format })),
      folders: folders.map((r) => ({
        skuId: Number(r.sku_id),
        folderId: r.folder_id === null ? null : Number(r.folder_id),
        path: r.path,
      })),
    };
  }
}
