import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';

/** A receiver's health as its deliveries go (WebhooksRepository in ./repository calls these). */

/** A delivery reached its receiver: the webhook's runs of failures end, its receiver is healthy. */
export async function receiverAnswered(db: Kysely<Database>, webhookId: number, at: Date): Promise<void> {
  await db
    .updateTable('api_webhooks')
    .set((eb) => ({
      consecutive_failures: 0,
      attempt_failures: 0,
      paused_until: null,
      healthy_since: eb.fn.coalesce('healthy_since', sql<Date>`${at}::timestamptz`),
    }))
    .where('id', '=', webhookId)
    .execute();
}

/** "Send a test" asked by hand: the receiver's pause ends now (its failures in a row stay counted). */
export async function resumeReceiver(db: Kysely<Database>, webhookId: number): Promise<void> {
  await db.updateTable('api_webhooks').set({ paused_until: null }).where('id', '=', webhookId).execute();
}

/**
 * An attempt failed: one more failed attempt in a row, the receiver no longer healthy, and
 * paused for `pauseMs(failures in a row)` from `at`.
 */
export async function receiverFailed(
  db: Kysely<Database>,
  webhookId: number,
  at: Date,
  pauseMs: (failures: number) => number,
): Promise<void> {
  const row = await db
    .updateTable('api_webhooks')
    .set((eb) => ({ attempt_failures: eb('attempt_failures', '+', 1), healthy_since: null }))
    .where('id', '=', webhookId)
    .returning('attempt_failures')
    .executeTakeFirst();
  if (!row) return;
  const pause = pauseMs(row.attempt_failures);
  await db
    .updateTable('api_webhooks')
    .set({ paused_until: pause > 0 ? new Date(at.getTime() + pause) : null })
    .where('id', '=', webhookId)
    .execute();
}

/**
 * A delivery failed for good: one more failure in a row; at `limit` the webhook is switched off
 * with `reason`. Answers whether this switched it off.
 */
export async function countFailure(
  db: Kysely<Database>,
  webhookId: number,
  limit: number,
  reason: string,
  now: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('api_webhooks')
    .set((eb) => ({
      consecutive_failures: eb('consecutive_failures', '+', 1),
      status: sql<number>`CASE WHEN consecutive_failures + 1 >= ${limit} THEN 0 ELSE status END`,
      disabled_reason: sql<
        string | null
      >`CASE WHEN consecutive_failures + 1 >= ${limit} AND status = 1 THEN ${reason} ELSE disabled_reason END`,
      updated_at: sql<Date>`CASE WHEN consecutive_failures + 1 >= ${limit} AND status = 1 THEN ${now}::timestamptz ELSE updated_at END`,
    }))
    .where('id', '=', webhookId)
    .returning(['status', 'consecutive_failures'])
    .executeTakeFirst();
  return row !== undefined && row.status === 0 && row.consecutive_failures === limit;
}
