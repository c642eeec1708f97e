import { type Kysely, sql } from 'kysely';

/**
 * Indexes of the global search (SPEC §2 Search bar): trigram indexes answer "name contains" and
 * "article number contains" without scanning; lower(name) answers the batch title search, which compares whole
 * values (the batch article-number search uses items_art_num_lower of migration 005).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX items_name_trgm ON items USING gin (lower(name) gin_trgm_ops) WHERE state = 1`.execute(
    db,
  );
  await sql`CREATE INDEX items_art_num_trgm ON items USING gin (lower(art_num) gin_trgm_ops) WHERE state = 1 AND art_num IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX items_name_lower ON items (lower(name)) WHERE state = 1`.execute(db);
}
