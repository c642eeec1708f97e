import { fromPglite, PgBoss } from 'pg-boss';
import type { DatabaseHandle } from '../db/database';

export const MEDIA_QUEUE = 'media';

export interface JobQueue {
  enqueueMedia(uploadId: number): Promise<void>;
  /** Runs media jobs in this process (the default; `npm run worker` runs them elsewhere). */
  workMedia(handler: (uploadId: number) => Promise<void>, concurrency: number): Promise<void>;
  /** Resolves when the media job of an upload completed (tests). */
  mediaDone(uploadId: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * pg-boss on the application's own database: the embedded PGlite by default, PostgreSQL at scale.
 * Media jobs are retried with exponential back-off, and their lease (1 h, with heartbeats)
 * outlives the slowest conversion, so a busy event loop never loses a job to a second worker.
 */
export async function startJobQueue(
  database: DatabaseHandle,
  options: { onError: (error: Error) => void; spies?: boolean },
): Promise<JobQueue> {
  const boss =
    database.kind === 'pglite' && database.pglite
      ? new PgBoss({
          db: fromPglite(database.pglite),
          backend: 'pglite',
          __test__enableSpies: options.spies === true,
        })
      : new PgBoss({
          connectionString: database.url ?? '',
          max: 4,
          __test__enableSpies: options.spies === true,
        });
  boss.on('error', options.onError);
  await boss.start();
  await boss.createQueue(MEDIA_QUEUE, {
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 3600,
    heartbeatSeconds: 60,
  });
  return {
    async enqueueMedia(uploadId) {
      // One job per upload at a time: a repeated callback does not queue the work twice.
      await boss.send(MEDIA_QUEUE, { uploadId }, { singletonKey: `media-${uploadId}` });
    },
    async workMedia(handler, concurrency) {
      // One fetch takes up to twice `concurrency` jobs and runs them `concurrency` at a time;
      // while fetches come back full the worker fetches again at once (burst), so a backlog
      // drains without waiting out the polling interval between jobs. Each job succeeds or
      // fails on its own.
      await boss.work<{ uploadId: number }>(
        MEDIA_QUEUE,
        {
          batchSize: concurrency * 2,
          burstWhenBatchFull: true,
          perJobResults: true,
          localConcurrency: 1,
          pollingIntervalSeconds: 0.5,
        },
        async (jobs) => {
          const results: Array<{ id: string; status: 'completed' | 'failed'; output?: object }> = [];
          const waiting = [...jobs];
          const lane = async () => {
            for (let job = waiting.shift(); job; job = waiting.shift()) {
              try {
                await handler(job.data.uploadId);
                results.push({ id: job.id, status: 'completed' });
              } catch (error) {
                results.push({ id: job.id, status: 'failed', output: { message: (error as Error).message } });
              }
            }
          };
          await Promise.all(Array.from({ length: concurrency }, lane));
          return results;
        },
      );
    },
    async mediaDone(uploadId) {
      await boss
        .getSpy<{ uploadId: number }>(MEDIA_QUEUE)
        .waitForJob((data) => data.uploadId === uploadId, 'completed');
    },
    async stop() {
      await boss.stop({ graceful: true, close: true, timeout: 10_000 });
    },
  };
}
