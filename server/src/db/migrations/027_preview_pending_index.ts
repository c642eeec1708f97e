import { type Kysely, sql } from 'kysely';

/**
 * Issue 38 item 5: at start-up, the sweep of lost media jobs looks for finished uploads whose
 * preview was never made (status 2 done, preview_status 0 pending) and that have no media job.
 * Those are few at any time (only uploads whose job is queued or running), so a partial index on
 * them lets the sweep read them in id order without scanning every upload record.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX uploads_preview_pending ON uploads (id) WHERE status = 2 AND preview_status = 0`.execute(
    db,
  );
}
