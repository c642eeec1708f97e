import { type Kysely, sql } from 'kysely';

/**
 * The outbox of object deletions. Whatever removes upload records for good (deleting a file from
 * the recycle bin, emptying it, deleting one record, cancelling or abandoning an upload) writes
 * the storage keys of those records here in the same transaction; a job deletes each object from
 * storage (aborting its multipart upload first when one is open) and then removes its row. A row
 * therefore stays until storage confirmed the deletion, whatever crashes in between.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE object_deletions (
      key text PRIMARY KEY,
      -- the multipart upload still open on this key (cancelled or abandoned uploads), to abort
      multipart_id text,
      enqueued_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      last_attempt_at timestamptz,
      last_error text
    )`.execute(db);
  // The hourly pass re-sends the deletions whose job was lost or gave up, oldest first.
  await sql`CREATE INDEX object_deletions_due ON object_deletions (COALESCE(last_attempt_at, enqueued_at))`.execute(
    db,
  );
  // A folder deleted for good may still be named by upload records (finished ones whose file
  // moved away, cancelled ones; unfinished ones are cancelled with the deletion): they forget it
  // instead of the deletion failing on the foreign key.
  await sql`ALTER TABLE uploads DROP CONSTRAINT uploads_folder_id_fkey`.execute(db);
  await sql`ALTER TABLE uploads ADD CONSTRAINT uploads_folder_id_fkey
    FOREIGN KEY (folder_id) REFERENCES items (id) ON DELETE SET NULL`.execute(db);
  // Abandoned uploads: unfinished records untouched for days.
  await sql`CREATE INDEX uploads_unfinished ON uploads (updated_at) WHERE status IN (0, 1, 3)`.execute(db);
}
