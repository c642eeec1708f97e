import type { Job, PgBoss } from 'pg-boss';
import { BACKSTOP_POLL_SECONDS, declareJobs, runInLanes } from '../../jobs/runtime';

/** One job per storage key of the object-deletion outbox (migration 012). */
export const OBJECT_DELETION_QUEUE = 'object-deletion';
/** Every 15 minutes: abandons forgotten uploads and re-sends deletions whose job was lost. */
export const STORAGE_MAINTENANCE_QUEUE = 'storage-maintenance';

export interface ObjectDeletionJobs {
  /** Queues the deletion of objects recorded in the outbox (after the recording transaction). */
  enqueueObjectDeletions(keys: readonly string[]): Promise<void>;
  /** Runs object deletions and the periodic storage maintenance in this process. */
  workObjectDeletions(handlers: {
    deleteObject: (key: string) => Promise<unknown>;
    /** Answers the keys to (re)send to the deletion queue. */
    maintain: () => Promise<string[]>;
  }): Promise<void>;
  /** Resolves when the deletion job of a key completed (tests). */
  objectDeletionDone(key: string): Promise<void>;
}

async function sendDeletions(boss: PgBoss, keys: readonly string[]) {
  for (let i = 0; i < keys.length; i += 1000) {
    await boss.insert(
      OBJECT_DELETION_QUEUE,
      keys.slice(i, i + 1000).map((key) => ({ data: { key } })),
    );
  }
}

export const objectDeletionJobs = declareJobs<ObjectDeletionJobs>({
  async ensure({ ensureQueue }) {
    // A store that refuses (down, throttling) is tried again after 30 s, 1 min, 2 min… up to an
    // hour apart, for about a day; the outbox row stays meanwhile and the maintenance pass re-sends
    // it after that.
    await ensureQueue(OBJECT_DELETION_QUEUE, {
      retryLimit: 30,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: 600,
    });
    await ensureQueue(STORAGE_MAINTENANCE_QUEUE, { retryLimit: 0, expireInSeconds: 3600 });
  },
  spied: [OBJECT_DELETION_QUEUE],
  api: ({ boss, thenFetchAgain }) => ({
    enqueueObjectDeletions: (keys) => sendDeletions(boss, keys),
    async workObjectDeletions(handlers) {
      // Each deletion is its own job (its own retries); a fetch takes up to 20 and runs them 4 at
      // a time, fetching again at once while the backlog lasts.
      await boss.work<{ key: string }>(
        OBJECT_DELETION_QUEUE,
        {
          batchSize: 20,
          burstWhenBatchFull: true,
          perJobResults: true,
          localConcurrency: 1,
          pollingIntervalSeconds: 1,
          notifyPollingIntervalSeconds: BACKSTOP_POLL_SECONDS,
        },
        thenFetchAgain(OBJECT_DELETION_QUEUE, (jobs: Job<{ key: string }>[]) =>
          runInLanes(jobs, 4, (job) => handlers.deleteObject(job.data.key)),
        ),
      );
      await boss.work(STORAGE_MAINTENANCE_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
        await sendDeletions(boss, await handlers.maintain());
      });
      await boss.schedule(STORAGE_MAINTENANCE_QUEUE, '*/15 * * * *', null, { singletonKey: 'maintenance' });
    },
    async objectDeletionDone(key) {
      await boss
        .getSpy<{ key: string }>(OBJECT_DELETION_QUEUE)
        .waitForJob((data) => data.key === key, 'completed');
    },
  }),
});
