import { type Kysely, sql } from 'kysely';

/**
 * Issue 39 (weight): a download counts one more download on every file it holds, in the request
 * before its first byte (a 3,000-file selection: 3,000 rows of `items`). With full pages each new
 * row version went to another page, so every one of the table's ~27 indexes (listing sorts,
 * trigram search…) took a new entry per file: 1.5–4 s on PGlite, which has no autovacuum to
 * clean up after it. Leaving a fifth of each page free lets such an update stay on its page
 * (a heap-only tuple): no indexed column changes, so no index is touched. Only pages written from
 * now on keep the room; a row moved by its next update lands on one of them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE items SET (fillfactor = 80)`.execute(db);
}
