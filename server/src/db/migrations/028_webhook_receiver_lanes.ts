import { type Kysely, sql } from 'kysely';

/**
 * Issue 38 item 4: fair delivery per receiver. A webhook carries the state of its receiver:
 * `healthy_since` (its last attempt succeeded; null while it is new or failing): only such a
 * receiver's deliveries take the quick lanes; `attempt_failures`, failed attempts in a row, sets
 * how long it is `paused_until` (its queued deliveries wait, nobody else's). Webhooks with no
 * failed delivery in a row are taken as healthy. The partial index serves the bound on pending
 * test pings per webhook and the count of a receiver's pending deliveries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE api_webhooks
      ADD COLUMN healthy_since timestamptz,
      ADD COLUMN attempt_failures integer NOT NULL DEFAULT 0,
      ADD COLUMN paused_until timestamptz`.execute(db);
  await sql`UPDATE api_webhooks SET healthy_since = now() WHERE consecutive_failures = 0`.execute(db);
  await sql`
    CREATE INDEX api_webhook_deliveries_pending ON api_webhook_deliveries (webhook_id, event_type)
    WHERE state = 'pending'`.execute(db);
}
