import type { PgBoss, Queue } from 'pg-boss';
import type { DatabaseHandle } from '../db/database';
import type { WebhookRetryPolicy } from './webhook-lanes';

/**
 * How often a worker looks for jobs while NOTIFY announces new ones: only for what NOTIFY does
 * not announce, a failed job's retry coming due (5 s to an hour after the failure) and jobs lost
 * to a dropped listener connection.
 */
export const BACKSTOP_POLL_SECONDS = 10;
/** The same for the throttled passes, whose next-slot nudges from another process are not announced. */
export const NUDGED_BACKSTOP_POLL_SECONDS = 5;

/** Retries of a mail: 5 more attempts, 30 s, 1 min, 2 min… apart (tests shorten them). */
export interface MailRetryPolicy {
  retryLimit: number;
  retryDelaySeconds: number;
}
/** Retries of a media job: 5 more attempts, 5 s, 10 s, 20 s… apart (MEDIA_RETRY_DELAY_SECONDS; tests shorten them). */
export type MediaRetryPolicy = MailRetryPolicy;

/** The retry policies tests shorten; each module's declaration has its own default. */
export interface RetryPolicies {
  mailRetry?: MailRetryPolicy;
  mediaRetry?: MediaRetryPolicy;
  webhookRetry?: WebhookRetryPolicy;
}

/**
 * What a module's job declaration is given: pg-boss started on the application's database, and
 * the pieces every queue's sending and working share (jobs/queue.ts makes it).
 */
export interface JobRuntime {
  boss: PgBoss;
  database: DatabaseHandle;
  retries: RetryPolicies;
  /**
   * How often a running job of a long queue (media, composition) says it is alive; one whose
   * process died is taken up again that long after its last word (config JOB_HEARTBEAT_SECONDS).
   */
  heartbeatSeconds: number;
  /**
   * Creates a queue, announcing its jobs by NOTIFY. createQueue leaves an existing queue as it is,
   * so the options are then written over it: an install made by an older version gets today's.
   */
  ensureQueue(name: string, options?: Omit<Queue, 'name'>): Promise<void>;
  /** Asks this process's workers of a queue to fetch again as soon as their fetch has ended. */
  fetchAgain(queue: string): void;
  /** A worker's handler that, once it has ended, asks the queue's workers to fetch again. */
  thenFetchAgain<Jobs, Result>(
    queue: string,
    handler: (jobs: Jobs) => Promise<Result>,
  ): (jobs: Jobs) => Promise<Result>;
  /** After a nudge that may have been put in the next one-second slot: wakes this process's workers then. */
  wakeAfterSlot(queue: string): void;
}

/** What one module declares of its jobs: how its queues are made, and what it sends and works. */
export interface JobDeclaration<Api> {
  /** Creates (or brings up to date) the module's queues. */
  ensure(runtime: JobRuntime): Promise<void>;
  /**
   * Queues whose jobs are written inside a caller's transaction: pg-boss must know them by then
   * (updateQueue drops a queue from its cache). On PGlite, a lookup on pg-boss's own handle from
   * inside that transaction would wait for the transaction to end, which waits for the lookup; so
   * their cache entries are filled at start.
   */
  warm?: readonly string[];
  /** Queues whose tests wait for a job's end: pg-boss records it only on a spy made before. */
  spied?: readonly string[];
  /** The module's sending and working, on pg-boss. */
  api(runtime: JobRuntime): Api;
}

/** Declares a module's jobs (keeps the API's type). */
export const declareJobs = <Api>(declaration: JobDeclaration<Api>): JobDeclaration<Api> => declaration;

/** Runs a throttled pass soon: at most one a second, one asked within a second of the last runs in the next second. */
export async function nudgePass(runtime: JobRuntime, queue: string): Promise<void> {
  // So the pass after the last event of a batch is never dropped. A job put in the next slot is
  // not announced by NOTIFY: this process's worker is woken then (another process's polls).
  await runtime.boss.send(queue, {}, { singletonKey: 'pass', singletonSeconds: 1, singletonNextSlot: true });
  runtime.wakeAfterSlot(queue);
}

/** Runs one pass of a queue now and resolves when it has ended (tests). */
export async function passNow(boss: PgBoss, queue: string): Promise<void> {
  const marker = `${Date.now()}-${Math.random()}`;
  await boss.send(queue, { marker });
  await jobEnded<{ marker?: string }>(boss, queue, (data) => data?.marker === marker);
}

/** Resolves when a job of a spied queue matching `match` completed or failed (tests). */
export async function jobEnded<Data extends object>(
  boss: PgBoss,
  queue: string,
  match: (data: Data) => boolean,
): Promise<void> {
  const spy = boss.getSpy<Data>(queue);
  await Promise.race([spy.waitForJob(match, 'completed'), spy.waitForJob(match, 'failed')]);
}

type JobResult = { id: string; status: 'completed' | 'failed'; output?: object };

/**
 * Runs one fetch of jobs `lanes` at a time and reports each job's own outcome (pg-boss
 * `perJobResults`), so one failing job is retried without failing the others of its fetch.
 */
export async function runInLanes<T extends { id: string }>(
  jobs: readonly T[],
  lanes: number,
  run: (job: T) => Promise<unknown>,
): Promise<JobResult[]> {
  const results: JobResult[] = [];
  const waiting = [...jobs];
  const lane = async () => {
    for (let job = waiting.shift(); job; job = waiting.shift()) {
      try {
        await run(job);
        results.push({ id: job.id, status: 'completed' });
      } catch (error) {
        results.push({ id: job.id, status: 'failed', output: { message: (error as Error).message } });
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}
