import { type Kysely, sql } from 'kysely';

/**
 * Issue 39: a folder's listing sorts by upload time, last change, size and type as well as by
 * name, each way. Folders stay first in both directions, so each direction needs an index of its
 * own (a backward scan would put the folders last), with the id as the tie-break as the listing
 * orders it. Newest-first by upload time is items_listing_time (002); by name, 002 and 013.
 * Measured at 1M items on PostgreSQL: bench/explain-listing.ts.
 */
const INDEXES: Array<[name: string, keys: string]> = [
  ['items_listing_time_asc', 'created_at, id'],
  ['items_listing_modified', 'updated_at DESC, id DESC'],
  ['items_listing_modified_asc', 'updated_at, id'],
  ['items_listing_size', 'total_size DESC, id DESC'],
  ['items_listing_size_asc', 'total_size, id'],
  ['items_listing_type', 'file_formats DESC, lower(name) DESC, id DESC'],
  ['items_listing_type_asc', 'file_formats, lower(name), id'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, keys] of INDEXES)
    await sql`CREATE INDEX ${sql.raw(name)} ON items (parent_id, (type <> 1), ${sql.raw(keys)}) WHERE state = 1`.execute(
      db,
    );
}
