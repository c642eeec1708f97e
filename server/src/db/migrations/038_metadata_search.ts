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
  await sql`CREATE INDEX upload_metadata_keywords ON upload_metadata USING gin (lower_keywords(keywords))
    WHERE keywords <> '{}'`.execute(db);
}
