import { ItemState, ItemType, VIEW_CODE_SEPARATORS, VIEW_CODE_TRAILING_DIGITS } from '@dam/contract';
import { expressionBuilder, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { likePrefix } from '../../db/sql-helpers';
import { visibleTo } from '../access/visibility.repository';
import { validOn } from '../items/queries.repository';
import type { ReportScope, SeasonCounts, SkuOfReport } from './repository';

/**
 * The completeness report's SQL fragments (./repository's CompletenessRepository runs them): the
 * filtered articles, their files and the cells they fill, and the rows they answer.
 */

/**
 * The view code in a file's name, as `viewCodeOfName` of the contract reads it: the last part after
 * `_`, `-` or a space (or their full-width forms), lower-cased, without trailing digits,
 * NFC-normalised (`shoe101-01_detail2` → `detail`, `shoe101-01_正面` → `正面`). String functions, not
 * a regular expression: this runs once per counted file (a regular expression cost three times as
 * much at 95,000 files); only the short last part is normalised. A part that is not a code's shape
 * equals no code (codes are saved normalised and of a code's shape).
 */
const SEPARATORS = sql.lit(VIEW_CODE_SEPARATORS);
const UNDERSCORES = sql.lit('_'.repeat(VIEW_CODE_SEPARATORS.length));
const NAME_PARTS = sql`translate(lower(items.name), ${SEPARATORS}, ${UNDERSCORES})`;
export const VIEW_TOKEN_SQL = sql`CASE WHEN strpos(${NAME_PARTS}, '_') > 0
  THEN normalize(rtrim(split_part(${NAME_PARTS}, '_', -1), ${sql.lit(VIEW_CODE_TRAILING_DIGITS)}), NFC) END`;

/** A file's stored formats as the expectation names them (jpeg → jpg, tiff → tif). */
export const FORMAT_SQL = sql`CASE lower(u.fmt) WHEN 'jpeg' THEN 'jpg' WHEN 'tiff' THEN 'tif' ELSE lower(u.fmt) END`;

/** Rows as PostgreSQL sends them (counts may come as text) or as json_agg builds them. */
export interface SeasonJson {
  season: string | null;
  sku_count: string | number;
  complete_count: string | number;
  cells_present: string | number;
}
export interface SkuRow {
  id: string | number;
  art_num: string;
  name: string;
  season: string | null;
  category: string | null;
  present: string | number;
}
export const seasonOfRow = (r: SeasonJson): SeasonCounts => ({
  season: r.season,
  skuCount: Number(r.sku_count),
  completeCount: Number(r.complete_count),
  cellsPresent: Number(r.cells_present),
});
export const skuOfRow = (r: SkuRow): SkuOfReport => ({
  skuId: Number(r.id),
  artNum: r.art_num,
  name: r.name,
  season: r.season,
  category: r.category,
  present: Number(r.present),
});

/** The filtered articles: `s(id, art_num, name, season, category, key)`. */
export function skuSql(scope: ReportScope): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [sql`true`];
  if (scope.seasons?.length) conditions.push(sql`s.season = ANY(${scope.seasons}::text[])`);
  if (scope.categories?.length) conditions.push(sql`s.category = ANY(${scope.categories}::text[])`);
  if (scope.artNumPrefix)
    conditions.push(sql`lower(s.art_num) COLLATE "C" LIKE ${likePrefix(scope.artNumPrefix)} COLLATE "C"`);
  for (const group of scope.tagGroups)
    conditions.push(
      sql`EXISTS (SELECT 1 FROM sku_tags st WHERE st.sku_id = s.id AND st.tag_id = ANY(${group}::bigint[]))`,
    );
  return sql`
    SELECT s.id, s.art_num, s.name, s.season, s.category, lower(s.art_num) COLLATE "C" AS key
    FROM sku s WHERE ${sql.join(conditions, sql` AND `)}`;
}

/**
 * The files that count, per article of `skus` (a CTE name): live files (not folders) with the
 * article's number, visible to the viewer, valid today, perhaps of one department's subtree;
 * each with the view code its name carries.
 */
export function filesSql(skus: RawBuilder<unknown>, scope: ReportScope): RawBuilder<unknown> {
  const eb = expressionBuilder<Database, 'items'>();
  const conditions: RawBuilder<unknown>[] = [
    sql`items.state = ${sql.lit(ItemState.normal)}`,
    sql`items.type <> ${sql.lit(ItemType.folder)}`,
    sql`items.art_num IS NOT NULL`,
    sql`${visibleTo(eb, scope.viewer)}`,
    sql`${validOn(eb, scope.day)}`,
  ];
  if (scope.deptPath) conditions.push(sql`items.dept_path LIKE ${likePrefix(scope.deptPath)}`);
  return sql`
    SELECT k.id AS sku_id, items.id AS item_id, items.file_formats, ${VIEW_TOKEN_SQL} AS token
    FROM ${skus} k
    JOIN items ON lower(items.art_num) COLLATE "C" = k.key
    WHERE ${sql.join(conditions, sql` AND `)}`;
}

/**
 * The cells present (article, view, format), from the files CTE `f`. Files are first reduced to
 * their distinct (article, view code, formats): twenty detail shots count once. Views are then
 * joined by equal code, the any-file views to every article's formats, and tag views (only when
 * there are any) through the files' tags.
 */
export function cellsSql(scope: ReportScope): RawBuilder<unknown> {
  const byTag = scope.tagViews
    ? sql`
      UNION ALL
      SELECT f.sku_id, v.id, v.formats, f.file_formats
      FROM f
      JOIN item_tags it ON it.item_id = f.item_id
      JOIN completeness_views v ON v.tag_id = it.tag_id`
    : sql``;
  return sql`
    SELECT DISTINCT m.sku_id, m.view_id, ${FORMAT_SQL} AS format
    FROM (
      SELECT fv.sku_id, v.id AS view_id, v.formats, fv.file_formats
      FROM (SELECT DISTINCT sku_id, token, file_formats FROM f) fv
      JOIN completeness_views v ON v.code = fv.token
      UNION ALL
      SELECT fa.sku_id, v.id, v.formats, fa.file_formats
      FROM (SELECT DISTINCT sku_id, file_formats FROM f) fa
      JOIN completeness_views v ON v.match_any
      ${byTag}
    ) m
    CROSS JOIN LATERAL unnest(string_to_array(m.file_formats, ',')) AS u(fmt)
    WHERE ${FORMAT_SQL} = ANY(m.formats)`;
}
