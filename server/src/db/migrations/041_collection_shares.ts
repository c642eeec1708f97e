import { type Kysely, sql } from 'kysely';

/**
 * Sharing a collection (issue 43 item 1): a share link may name a collection instead of items. Such a
 * link is live: a visit shows the collection's items of that moment (those its owner may share then),
 * and the link goes with the collection when the collection is deleted (a visitor then gets the answer
 * of an unknown link). A link names items (`share_items`) or a collection, never both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE shares ADD COLUMN collection_id bigint REFERENCES collections (id) ON DELETE CASCADE`.execute(
    db,
  );
  // The links of a collection (deleting it finds them by this index, not by reading every link).
  await sql`CREATE INDEX shares_collection ON shares (collection_id) WHERE collection_id IS NOT NULL`.execute(
    db,
  );
}
