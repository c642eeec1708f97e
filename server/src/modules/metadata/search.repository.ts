import { METADATA_TEXT_FILTERS, type MetadataFilter, UploadStatus } from '@dam/contract';
import { type RawBuilder, sql } from 'kysely';
import { likeLiteral } from '../../db/sql-helpers';

/**
 * The metadata filter of the search (issue 42 item 2) as a condition on `items`: one of the file's
 * current records (the newest visible one of each format, as `refresh_file_summary` counts them)
 * has embedded metadata matching every field asked. An older version's metadata no longer speaks
 * for the file. Null when nothing is asked. Plans at 1M rows: server/test/metadata-search-plans.test.ts.
 */
export function metadataMatches(filter: MetadataFilter | undefined): RawBuilder<boolean> | null {
  if (!filter) return null;
  const conditions: RawBuilder<unknown>[] = [];
  for (const field of METADATA_TEXT_FILTERS) {
    const text = filter[field];
    // The trigram indexes of migration 038 (upload_metadata_<field>_trgm).
    if (text) conditions.push(sql`lower(m.${sql.ref(field)}) LIKE ${`%${likeLiteral(text.toLowerCase())}%`}`);
  }
  if (filter.keyword)
    conditions.push(sql`lower_keywords(m.keywords) @> ARRAY[${filter.keyword.toLowerCase()}]::text[]`);
  // The local capture day: the camera's wall clock, whatever its offset (a person means that day).
  if (filter.capturedFrom) conditions.push(sql`m.captured_local >= ${filter.capturedFrom}::date`);
  if (filter.capturedTo) conditions.push(sql`m.captured_local < ${filter.capturedTo}::date + 1`);
  if (conditions.length === 0) return null;
  const done = sql.lit(UploadStatus.done);
  return sql<boolean>`EXISTS (
    SELECT 1 FROM uploads u JOIN upload_metadata m ON m.upload_id = u.id
    WHERE u.item_id = items.id AND u.status = ${done} AND u.hidden = false
      AND ${sql.join(conditions, sql` AND `)}
      AND NOT EXISTS (
        SELECT 1 FROM uploads newer
        WHERE newer.item_id = u.item_id AND newer.format = u.format
          AND newer.status = ${done} AND newer.hidden = false
          AND (newer.completed_at, newer.id) > (u.completed_at, u.id)))`;
}
