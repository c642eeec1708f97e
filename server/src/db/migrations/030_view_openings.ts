import { type Kysely, sql } from 'kysely';

/**
 * Issue 39 item 3: a view is counted once per opening of the viewer. The viewer names each opening
 * (a random key it sends with the file detail); `recent_views.opening` keeps the last one counted
 * for the person and file, so a refetch of the same opening (after an edit, "check again") counts
 * nothing, while opening the file again does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE recent_views ADD COLUMN opening text`.execute(db);
}
