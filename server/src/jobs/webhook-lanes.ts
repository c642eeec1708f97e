import type { JobResult, JobWithMetadata, PgBoss, Queue } from 'pg-boss';

/**
 * Webhook deliveries in two pg-boss queues, each job in its receiver's group (pg-boss
 * `group.id` = the webhook's id) and each worker with `groupConcurrency: 1`, so a receiver has at
 * most one delivery in flight in a lane, whatever its backlog (pg-boss counts the active jobs of a
 * group in the database: it holds across processes).
 *
 * - The quick lane (`webhook`) carries first attempts only, and sends only to receivers known to
 *   answer (see WebhooksService.deliver): a delivery of a receiver that is new, failing or paused
 *   is moved, without an attempt, to the slow lane (sent there, in its group, and completed here:
 *   the send's NOTIFY wakes the slow lane at once), as is a delivery whose attempt failed. The
 *   slow lane is the quick one's dead letter queue too, for a job whose process died mid-attempt. No retry ever waits in it, so a healthy receiver's new
 *   delivery is behind nobody's retries and starts as soon as one of its lanes is free.
 * - The slow lane (`webhook-slow`) carries the rest: retries with pg-boss's exponential back-off,
 *   and a paused receiver's deliveries, put back (a failed job, no attempt made) until the pause
 *   ends. Hanging receivers fill at most these lanes.
 */
export const WEBHOOK_QUEUE = 'webhook';
export const WEBHOOK_SLOW_QUEUE = 'webhook-slow';

/** Quick lanes per process: a hanging receiver holds one for up to WEBHOOK_TIMEOUT_MS. */
const QUICK_LANES = 4;
/** Slow lanes per process. */
const SLOW_LANES = 2;
/** pg-boss retries a slow-lane job has beyond its attempts: each pass while the receiver is paused uses one. */
const PAUSED_PASSES = 16;

/** Retries of a webhook delivery: 8 more attempts, 30 s, 1 min, 2 min… at most an hour apart (about 2 h). */
export interface WebhookRetryPolicy {
  retryLimit: number;
  retryDelaySeconds: number;
  retryDelayMaxSeconds: number;
}
export const WEBHOOK_RETRY: WebhookRetryPolicy = {
  retryLimit: 8,
  retryDelaySeconds: 30,
  retryDelayMaxSeconds: 3600,
};

/** One delivery job: the delivery, and the receiver (webhook) whose group it runs in. */
export interface WebhookJob {
  deliveryId: string;
  webhookId: number;
}

/** What the delivery handler is told of the attempt it may make. */
export interface WebhookLane {
  /** The quick lane: only a receiver known to answer is sent to. */
  quick: boolean;
  /** The queue will not run this job again: attempt whatever the receiver's state, and end it. */
  lastChance: boolean;
  /** Attempts a delivery gets in all. */
  attemptsMax: number;
  /** How long a receiver is paused after `failures` failed attempts in a row (0: not at all). */
  pauseMs: (failures: number) => number;
}

/** `ended`: the job is done; `later`: the delivery goes (back) to the slow lane. */
export type WebhookOutcome = 'ended' | 'later';

type Ensure = (name: string, options?: Omit<Queue, 'name'>) => Promise<void>;

/** Creates (or brings up to date) the two queues; the slow one first, the quick one's dead letter. */
export async function ensureWebhookQueues(ensure: Ensure, retry: WebhookRetryPolicy): Promise<void> {
  // An attempt lasts at most WEBHOOK_TIMEOUT_MS (≤ 60 s).
  await ensure(WEBHOOK_SLOW_QUEUE, {
    retryLimit: retry.retryLimit + PAUSED_PASSES,
    retryDelay: retry.retryDelaySeconds,
    retryBackoff: retry.retryDelaySeconds > 0,
    ...(retry.retryDelaySeconds > 0 ? { retryDelayMax: retry.retryDelayMaxSeconds } : {}),
    expireInSeconds: 120,
  });
  // A job that ends otherwise (its process died mid-attempt) goes to the slow lane too.
  await ensure(WEBHOOK_QUEUE, { retryLimit: 0, deadLetter: WEBHOOK_SLOW_QUEUE, expireInSeconds: 120 });
}

/** Queues deliveries in the quick lane, each in its receiver's group. */
export async function sendWebhookJobs(boss: PgBoss, jobs: readonly WebhookJob[]): Promise<void> {
  for (let i = 0; i < jobs.length; i += 1000) {
    await boss.insert(
      WEBHOOK_QUEUE,
      jobs.slice(i, i + 1000).map((job) => ({
        data: { deliveryId: job.deliveryId },
        group: { id: String(job.webhookId) },
      })),
    );
  }
}

/**
 * Starts both lanes' workers in this process: one job a fetch (a hanging receiver then holds
 * only its own lane, not a batch), `lanes` fetch loops per queue, each woken by NOTIFY and after
 * each job by `afterJob`.
 */
export async function workWebhookLanes(
  boss: PgBoss,
  retry: WebhookRetryPolicy,
  options: { backstopPollSeconds: number; afterJob: (queue: string) => void },
  handler: (deliveryId: string, lane: WebhookLane) => Promise<WebhookOutcome>,
): Promise<void> {
  const pauseMs = (failures: number) =>
    retry.retryDelaySeconds <= 0
      ? 0
      : 1000 * Math.min(retry.retryDelayMaxSeconds, retry.retryDelaySeconds * 2 ** Math.max(0, failures - 1));
  const lane = (queue: string, quick: boolean, lanes: number) =>
    boss.work(
      queue,
      {
        batchSize: 1,
        localConcurrency: lanes,
        groupConcurrency: 1,
        perJobResults: true,
        includeMetadata: true,
        pollingIntervalSeconds: 0.5,
        notifyPollingIntervalSeconds: options.backstopPollSeconds,
      },
      async (jobs: JobWithMetadata<{ deliveryId: string }>[]): Promise<JobResult[]> => {
        try {
          const results: JobResult[] = [];
          for (const job of jobs) {
            const lastChance = !quick && job.retryCount >= job.retryLimit;
            let outcome: WebhookOutcome;
            try {
              outcome = await handler(job.data.deliveryId, {
                quick,
                lastChance,
                attemptsMax: retry.retryLimit + 1,
                pauseMs,
              });
            } catch (error) {
              // An error of our own (the database): tried again in the slow lane.
              const output = { message: (error as Error).message };
              results.push({ id: job.id, status: quick ? 'deadletter' : 'failed', output });
              continue;
            }
            if (outcome === 'later' && quick) {
              await boss.send(
                WEBHOOK_SLOW_QUEUE,
                { deliveryId: job.data.deliveryId },
                job.groupId ? { group: { id: job.groupId } } : {},
              );
            }
            const status = outcome === 'later' && !quick ? 'failed' : 'completed';
            results.push({ id: job.id, status });
          }
          return results;
        } finally {
          options.afterJob(queue);
        }
      },
    );
  await lane(WEBHOOK_QUEUE, true, QUICK_LANES);
  await lane(WEBHOOK_SLOW_QUEUE, false, SLOW_LANES);
}
