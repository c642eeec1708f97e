import { fromKysely, type JobResult, type JobWithMetadata, type PgBoss, type Queue } from 'pg-boss';

/** A Kysely transaction (or handle) pg-boss writes a job with. */
export type TransactionHandle = Parameters<typeof fromKysely>[0];

/**
 * Webhook deliveries in two pg-boss queues, each job in its receiver's group (pg-boss
 * `group.id` = the webhook's id) and each worker with `groupConcurrency: 1`, so a receiver has at
 * most one delivery in flight in a lane, whatever its backlog (pg-boss counts the active jobs of a
 * group in the database: it holds across processes).
 *
 * - The quick lane (`webhook`) carries first attempts only, and sends only to receivers whose last
 *   attempt did not fail (new or answering; sending.ts): a delivery of a failing or paused receiver
 *   is moved, without an attempt, to the slow lane (sent there, in its group, and completed here,
 *   in one transaction: the send's NOTIFY wakes the slow lane at commit), as is a delivery whose
 *   attempt failed. The slow lane is the quick one's dead letter queue too, for a job whose process
 *   died mid-attempt. No retry ever waits in it, so a healthy receiver's new delivery is behind
 *   nobody's retries and starts as soon as one of its lanes is free.
 * - The slow lane (`webhook-slow`) carries the rest: retries with pg-boss's exponential back-off,
 *   and a paused receiver's deliveries, put back (a failed job, no attempt made) until the pause
 *   ends. Hanging receivers fill at most these lanes.
 */
export const WEBHOOK_QUEUE = 'webhook';
export const WEBHOOK_SLOW_QUEUE = 'webhook-slow';

/** Quick lanes per process: a hanging receiver holds one for up to WEBHOOK_TIMEOUT_MS. */
const QUICK_LANES = 4;
/** Slow lanes per process. */
export const SLOW_LANES = 2;
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

/** Runs `work` in one transaction of the application's database. */
export type RunInTransaction = (work: (db: TransactionHandle) => Promise<void>) => Promise<void>;

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

/**
 * Queues deliveries in the quick lane, each in its receiver's group, with `db`: given the
 * transaction that writes the deliveries, the jobs commit or roll back with them (a process killed
 * after the commit loses none).
 */
export async function sendWebhookJobs(
  boss: PgBoss,
  jobs: readonly WebhookJob[],
  db?: TransactionHandle,
): Promise<void> {
  for (let i = 0; i < jobs.length; i += 1000) {
    await boss.insert(
      WEBHOOK_QUEUE,
      jobs.slice(i, i + 1000).map((job) => ({
        data: { deliveryId: job.deliveryId },
        group: { id: String(job.webhookId) },
      })),
      db ? { db: fromKysely(db) } : {},
    );
  }
}

/** The key of a delivery's "due now" job in the slow lane: at most one waits per delivery. */
export const webhookNowKey = (deliveryId: string) => `now-${deliveryId}`;

/**
 * Makes a delivery due now in the slow lane, with `db` (the caller's transaction): its waiting
 * "now" job (created, or backed off after a failed attempt) is pulled forward, or one is written.
 * Repeated calls keep one job waiting (pg-boss upsert by singleton key); one more may be running.
 */
export async function sendWebhookJobNow(boss: PgBoss, job: WebhookJob, db: TransactionHandle): Promise<void> {
  await boss.upsert(
    WEBHOOK_SLOW_QUEUE,
    { deliveryId: job.deliveryId },
    {
      singletonKey: webhookNowKey(job.deliveryId),
      startAfter: 0,
      group: { id: String(job.webhookId) },
      db: fromKysely(db),
    },
  );
}

/**
 * Starts both lanes' workers in this process: one job a fetch (a hanging receiver then holds
 * only its own lane, not a batch), `lanes` fetch loops per queue, each woken by NOTIFY and after
 * each job by `afterJob`.
 */
export async function workWebhookLanes(
  boss: PgBoss,
  retry: WebhookRetryPolicy,
  options: {
    backstopPollSeconds: number;
    afterJob: (queue: string) => void;
    /** Runs `work` in one database transaction (the quick-to-slow move). */
    transaction: RunInTransaction;
  },
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
            if (outcome === 'later' && quick) await moveToSlowLane(boss, options.transaction, job);
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

/** Thrown to roll the move back: the quick job was no longer this worker's to complete. */
class QuickJobGone extends Error {}

/**
 * Moves a quick-lane job to the slow lane in one transaction: the slow job is written and the
 * quick one completed together, so a process killed in between leaves either the quick job
 * (active: it expires into the slow lane, its dead letter queue) or the slow one, never neither
 * and never both. A quick job no longer active (it expired meanwhile and was dead-lettered) rolls
 * the move back: the dead letter queue has the delivery already.
 */
async function moveToSlowLane(
  boss: PgBoss,
  transaction: RunInTransaction,
  job: JobWithMetadata<{ deliveryId: string }>,
): Promise<void> {
  try {
    await transaction(async (trx) => {
      const db = fromKysely(trx);
      await boss.send(
        WEBHOOK_SLOW_QUEUE,
        { deliveryId: job.data.deliveryId },
        { ...(job.groupId ? { group: { id: job.groupId } } : {}), db },
      );
      // pg-boss answers how many jobs it completed (`affected`; its type declares no field).
      const done = (await boss.complete(WEBHOOK_QUEUE, job.id, undefined, { db })) as { affected?: number };
      if (done.affected === 0) throw new QuickJobGone();
    });
  } catch (error) {
    if (!(error instanceof QuickJobGone)) throw error;
  }
}
