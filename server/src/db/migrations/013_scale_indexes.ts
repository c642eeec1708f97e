import { type Kysely, sql } from 'kysely';

/**
 * Indexes and statistics measured at 1M items on PostgreSQL (issue 12, docs/benchmarks.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The newest visible record of each format of one file (downloads' lateral lookup), with the
  // id as the last tie-break, so a download plans per selected file, whatever the table's size.
  await sql`
    CREATE INDEX uploads_latest ON uploads (item_id, format, completed_at DESC, id DESC)
    WHERE status = 2 AND hidden = false`.execute(db);
  // Name Z→A keeps folders first, so its order is not the backward scan of items_listing_name
  // ((type <> 1) ascending, then the name descending): it needs an index of its own.
  await sql`
    CREATE INDEX items_listing_name_desc ON items (parent_id, (type <> 1), lower(name) DESC, id DESC)
    WHERE state = 1`.execute(db);
  // The newest page of a broad search ("detail": a fifth of the archive) walks the live items
  // newest first and stops after a page instead of sorting every hit.
  await sql`
    CREATE INDEX items_live_time ON items ((type <> 1), created_at DESC, id DESC)
    WHERE state = 1`.execute(db);
  // Batches of whole values (up to 10,000 article numbers or titles: batch search, download by
  // article number) compare `lower(x) COLLATE "C"`. With the plain `lower(x)` the planner took
  // the trigram GIN indexes, which also answer `=`, and priced 10,000 values as cheap: 56 s for
  // 10,000 article numbers over 123k items. The "C" collation keeps the GIN indexes (default
  // collation) out of these plans and matches these btree indexes; the statistics give the
  // planner what the partial expression indexes cannot (it ignores statistics of partial indexes).
  await sql`
    CREATE INDEX items_art_num_key ON items ((lower(art_num) COLLATE "C"))
    WHERE state = 1 AND art_num IS NOT NULL`.execute(db);
  await sql`DROP INDEX items_art_num_lower`.execute(db);
  await sql`CREATE INDEX items_name_key ON items ((lower(name) COLLATE "C")) WHERE state = 1`.execute(db);
  await sql`CREATE STATISTICS items_art_num_key_stats ON ((lower(art_num) COLLATE "C")) FROM items`.execute(
    db,
  );
  await sql`CREATE STATISTICS items_name_key_stats ON ((lower(name) COLLATE "C")) FROM items`.execute(db);
}
