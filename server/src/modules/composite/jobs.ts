import type { JobWithMetadata } from 'pg-boss';
import { BACKSTOP_POLL_SECONDS, declareJobs, jobEnded, runInLanes } from '../../jobs/runtime';

/** Detail-page renders, one job per article (issue 16): their own queue, so a 200-article batch never holds back thumbnails. */
export const COMPOSITE_QUEUE = 'composite';

export interface CompositeJobs {
  /**
   * Queues the render of composition articles; `urgent` ones (a job of a few articles, someone
   * waiting at the screen) are fetched before a large batch's.
   */
  enqueueComposite(articleIds: readonly number[], urgent: boolean): Promise<void>;
  /** Renders composition articles in this process, `lanes` at a time; `finalAttempt` on the last try. */
  workComposite(
    handler: (articleId: number, finalAttempt: boolean) => Promise<void>,
    lanes: number,
  ): Promise<void>;
  /** Resolves when the render job of an article ended, completed or failed for good (tests). */
  compositeDone(articleId: number): Promise<void>;
}

export const compositeJobs = declareJobs<CompositeJobs>({
  async ensure({ ensureQueue, heartbeatSeconds }) {
    // A page renders in seconds; 15 minutes with heartbeats covers the tallest under load.
    await ensureQueue(COMPOSITE_QUEUE, {
      retryLimit: 2,
      retryDelay: 10,
      retryBackoff: true,
      expireInSeconds: 900,
      heartbeatSeconds,
    });
  },
  spied: [COMPOSITE_QUEUE],
  api: ({ boss, thenFetchAgain }) => ({
    async enqueueComposite(articleIds, urgent) {
      for (let i = 0; i < articleIds.length; i += 1000) {
        await boss.insert(
          COMPOSITE_QUEUE,
          articleIds.slice(i, i + 1000).map((articleId) => ({
            data: { articleId },
            priority: urgent ? 10 : 0,
            singletonKey: `composite-${articleId}`,
          })),
        );
      }
    },
    async workComposite(handler, lanes) {
      await boss.work(
        COMPOSITE_QUEUE,
        {
          batchSize: lanes,
          perJobResults: true,
          includeMetadata: true,
          localConcurrency: 1,
          pollingIntervalSeconds: 0.5,
          notifyPollingIntervalSeconds: BACKSTOP_POLL_SECONDS,
        },
        thenFetchAgain(COMPOSITE_QUEUE, (jobs: JobWithMetadata<{ articleId: number }>[]) =>
          runInLanes(jobs, lanes, (job) => handler(job.data.articleId, job.retryCount >= job.retryLimit)),
        ),
      );
    },
    compositeDone: (articleId) =>
      jobEnded<{ articleId: number }>(boss, COMPOSITE_QUEUE, (data) => data.articleId === articleId),
  }),
});
