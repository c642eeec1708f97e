import { fromKysely, type Job } from 'pg-boss';
import { BACKSTOP_POLL_SECONDS, declareJobs, type MediaRetryPolicy, runInLanes } from '../../jobs/runtime';
import type { TransactionHandle } from '../../jobs/webhook-lanes';

/** Thumbnails and previews: one job per finished upload record (jobs/media.ts works them). */
export const MEDIA_QUEUE = 'media';
/** The singleton key of an upload's media job: what the lost-job sweep looks its job up by. */
export const MEDIA_JOB_KEY_PREFIX = 'media-';
export const mediaJobKey = (uploadId: number) => `${MEDIA_JOB_KEY_PREFIX}${uploadId}`;
const MEDIA_RETRY: MediaRetryPolicy = { retryLimit: 5, retryDelaySeconds: 5 };

export interface MediaJobs {
  /**
   * Writes the media job of an upload with `db`: given the transaction (Kysely `trx`) that makes the
   * record live, the job commits or rolls back with it, so no crash between the two loses it.
   * Without `db`, in a statement of its own.
   */
  enqueueMedia(uploadId: number, db?: TransactionHandle): Promise<void>;
  /** Runs media jobs in this process (the default; `npm run worker` runs them elsewhere). */
  workMedia(handler: (uploadId: number) => Promise<void>, concurrency: number): Promise<void>;
  /** Resolves when the media job of an upload completed (tests). */
  mediaDone(uploadId: number): Promise<void>;
}

/**
 * Media jobs are retried with exponential back-off, and their lease (1 h, with heartbeats)
 * outlives the slowest conversion, so a busy event loop never loses a job to a second worker.
 */
export const mediaJobs = declareJobs<MediaJobs>({
  async ensure({ ensureQueue, retries, heartbeatSeconds }) {
    const retry = retries.mediaRetry ?? MEDIA_RETRY;
    await ensureQueue(MEDIA_QUEUE, {
      retryLimit: retry.retryLimit,
      retryDelay: retry.retryDelaySeconds,
      retryBackoff: retry.retryDelaySeconds > 0,
      expireInSeconds: 3600,
      heartbeatSeconds,
    });
  },
  // Media jobs are written inside the caller's transaction.
  warm: [MEDIA_QUEUE],
  spied: [MEDIA_QUEUE],
  api: ({ boss, thenFetchAgain }) => ({
    async enqueueMedia(uploadId, db) {
      // The key names the upload's job (the standard policy does not make it unique): the sweep
      // of lost media jobs finds by it whether an upload has one waiting or running.
      await boss.send(
        MEDIA_QUEUE,
        { uploadId },
        { singletonKey: mediaJobKey(uploadId), ...(db ? { db: fromKysely(db) } : {}) },
      );
    },
    async workMedia(handler, concurrency) {
      // Two fetch loops, each taking up to `concurrency` jobs and starting them all; the handler
      // lets only `concurrency` conversions run at once (MediaProcessor's lanes). While one
      // loop's last job converts, the other's are ready, so the lanes never wait for a fetch or
      // for the database work around a conversion. At most one job per lane waits (its lease
      // runs while it waits; its source is already downloaded from S3). While fetches come back
      // full a loop fetches again at once (burst). Each job succeeds or fails on its own.
      await boss.work<{ uploadId: number }>(
        MEDIA_QUEUE,
        {
          batchSize: concurrency,
          burstWhenBatchFull: true,
          perJobResults: true,
          localConcurrency: 2,
          pollingIntervalSeconds: 0.5,
          notifyPollingIntervalSeconds: BACKSTOP_POLL_SECONDS,
        },
        thenFetchAgain(MEDIA_QUEUE, (jobs: Job<{ uploadId: number }>[]) =>
          runInLanes(jobs, jobs.length, (job) => handler(job.data.uploadId)),
        ),
      );
    },
    async mediaDone(uploadId) {
      await boss
        .getSpy<{ uploadId: number }>(MEDIA_QUEUE)
        .waitForJob((data) => data.uploadId === uploadId, 'completed');
    },
  }),
});
