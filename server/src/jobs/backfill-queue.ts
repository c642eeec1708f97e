import type { PgBoss } from 'pg-boss';
import { BACKSTOP_POLL_SECONDS } from './runtime';

/**
 * A back-fill's queue (fingerprints, embedded metadata): "stately" — at most one batch queued and
 * one running in the whole installation, so restarts and several processes never run it twice
 * over — retried with back-off, a batch's lease 15 minutes.
 */
export const BACKFILL_QUEUE_OPTIONS = {
  policy: 'stately',
  retryLimit: 5,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 900,
} as const;

/**
 * Works a back-fill in this process: one batch a job, the next queued while a batch comes back
 * full, and one asked for now (a batch already queued makes it a no-op).
 */
export async function workBackfill(
  boss: PgBoss,
  queue: string,
  batch: () => Promise<boolean>,
): Promise<void> {
  await boss.work(
    queue,
    { pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: BACKSTOP_POLL_SECONDS },
    async () => {
      if (await batch()) await boss.send(queue, {});
    },
  );
  await boss.send(queue, {});
}
