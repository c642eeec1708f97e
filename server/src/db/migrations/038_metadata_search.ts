import { type Kysely, sql } from 'kysely';

/**
 * The search on embedded metadata (issue 42 item 2): creator, copyright and camera are substrings
 * (trigram indexes, as the title search's), a keyword is whole without regard to case (a GIN index
 * of the lower-cased keywords), the capture day a range of the camera's wall clock. Plans at 1M
 * rows: server/test/metadata-search-plans.test.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  for (const column of ['creator', 'copyright', 'camera'])
    await sql`CREATE INDEX ${sql.id(`upload_metadata_${column}_trgm`)} ON upload_metadata
      USING gin (lower(${sql.id(column)}) gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX upload_metadata_captured ON upload_metadata (captured_local)
    WHERE captured_local IS NOT NULL`.execute(db);
  // An index expression must be immutable: lower() is, and so is this list of what it gives.
  await sql`
    CREATE FUNCTION lower_keywords(keywords text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce(array_agg(lower(k)), '{}') FROM unnest(keywords) AS k $$`.execute(db);
  // Not partial: the search's condition names no predicate such an index would need.
  await sql`CREATE INDEX upload_metadata_keywords ON upload_metadata USING gin (lower_keywords(keywords))`.execute(
    db,
  );
  // A GIN index keeps statistics of its keys' type (text), not of the array: without these the
  // planner takes any keyword for a common one and walks every file newest first, probing each
  // (measured at 1M records: a keyword on 50 files planned as on 3,300).
  await sql`CREATE STATISTICS upload_metadata_keywords_lower ON (lower_keywords(keywords)) FROM upload_metadata`.execute(
    db,
  );
}
