import {
  type Clock,
  fromKysely,
  fromPglite,
  type Job,
  type JobWithMetadata,
  PgBoss,
  type Queue,
} from 'pg-boss';
import type { DatabaseHandle } from '../db/database';
import { QueuePausesRepository } from '../modules/jobs-admin/pauses.repository';
import { QueuePauses } from './queue-pause';
import {
  ensureWebhookQueues,
  sendWebhookJobNow,
  sendWebhookJobs,
  type TransactionHandle,
  WEBHOOK_QUEUE,
  WEBHOOK_RETRY,
  WEBHOOK_SLOW_QUEUE,
  type WebhookJob,
  type WebhookLane,
  type WebhookOutcome,
  type WebhookRetryPolicy,
  workWebhookLanes,
} from './webhook-lanes';

export {
  WEBHOOK_QUEUE,
  WEBHOOK_SLOW_QUEUE,
  type WebhookJob,
  type WebhookLane,
  type WebhookOutcome,
  type WebhookRetryPolicy,
} from './webhook-lanes';

export const MEDIA_QUEUE = 'media';
/** The schema of pg-boss's tables (its default). */
export const JOB_SCHEMA = 'pgboss';
/** The singleton key of an upload's media job: what the lost-job sweep looks its job up by. */
export const MEDIA_JOB_KEY_PREFIX = 'media-';
export const mediaJobKey = (uploadId: number) => `${MEDIA_JOB_KEY_PREFIX}${uploadId}`;
export type { TransactionHandle } from './webhook-lanes';
/** One job per storage key of the object-deletion outbox (migration 012). */
export const OBJECT_DELETION_QUEUE = 'object-deletion';
/** Every 15 minutes: abandons forgotten uploads and re-sends deletions whose job was lost. */
export const STORAGE_MAINTENANCE_QUEUE = 'storage-maintenance';
/** Hourly: rolls finished days of the operation log up for data reports (migration 019). */
export const REPORT_ROLLUP_QUEUE = 'report-rollup';
/** Fingerprints of files uploaded before near-duplicate detection (issue 17), a batch a job. */
export const FINGERPRINT_BACKFILL_QUEUE = 'fingerprint-backfill';
/** Hourly: deletes change-journal entries older than OPEN_CHANGES_KEPT_DAYS (migration 023). */
export const ASSET_CHANGES_SWEEP_QUEUE = 'asset-changes-sweep';
/** One job per mail of the outbox (migration 015). */
export const MAIL_QUEUE = 'mail';
/** One job per dry run or apply of an import (migration 020). */
export const IMPORT_QUEUE = 'import';
/** Passes over the upload mail notices (migration 018): every minute, and when a batch may be done. */
export const MAIL_NOTICE_QUEUE = 'mail-notice';
/** Passes over the change journal making webhook deliveries: every minute, and when asked. */
export const WEBHOOK_DISPATCH_QUEUE = 'webhook-dispatch';
/** Detail-page renders, one job per article (issue 16): their own queue, so a 200-article batch never holds back thumbnails. */
export const COMPOSITE_QUEUE = 'composite';
/** Scheduled backups (BACKUP_SCHEDULE, modules/backup): one job per occurrence, never retried. */
export const BACKUP_QUEUE = 'backup';

/**
 * How often a worker looks for jobs while NOTIFY announces new ones: only for what NOTIFY does
 * not announce, a failed job's retry coming due (5 s to an hour after the failure) and jobs lost
 * to a dropped listener connection.
 */
const BACKSTOP_POLL_SECONDS = 10;
/** The same for the throttled passes, whose next-slot nudges from another process are not announced. */
const NUDGED_BACKSTOP_POLL_SECONDS = 5;
/** How often each process reads the queues' pause flags (the jobs screen's pause reaches it within this). */
const PAUSE_POLL_MS = 5_000;

/** Retries of a mail: 5 more attempts, 30 s, 1 min, 2 min… apart (tests shorten them). */
export interface MailRetryPolicy {
  retryLimit: number;
  retryDelaySeconds: number;
}
const MAIL_RETRY: MailRetryPolicy = { retryLimit: 5, retryDelaySeconds: 30 };
/** Retries of a media job: 5 more attempts, 5 s, 10 s, 20 s… apart (MEDIA_RETRY_DELAY_SECONDS; tests shorten them). */
export type MediaRetryPolicy = MailRetryPolicy;
const MEDIA_RETRY: MediaRetryPolicy = { retryLimit: 5, retryDelaySeconds: 5 };

export interface JobQueue {
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
  /** Runs the report rollup in this process: hourly, and once soon after start. */
  workReportRollup(handler: () => Promise<unknown>): Promise<void>;
  /**
   * Runs the fingerprint back-fill in this process: one batch a job, the next queued while a batch
   * comes back full, and one asked for now (a back-fill already queued makes it a no-op).
   */
  workFingerprintBackfill(batch: () => Promise<boolean>): Promise<void>;
  /** Runs the change journal's retention sweep in this process, hourly. */
  workAssetChangesSweep(handler: () => Promise<unknown>): Promise<void>;
  /** Queues the delivery of a mail written to the outbox. */
  enqueueMail(mailId: number): Promise<void>;
  /** Delivers mails in this process; `finalAttempt` is true on the last try the queue will make. */
  workMail(handler: (mailId: number, finalAttempt: boolean) => Promise<void>): Promise<void>;
  /** Resolves when the mail job of a mail ended, delivered or failed for good (tests). */
  mailDone(mailId: number): Promise<void>;
  /** Asks for a pass over the mail notices soon (at most one a second). */
  nudgeMailNotices(): Promise<void>;
  /** Runs the passes over the mail notices in this process, and one every minute. */
  workMailNotices(pass: () => Promise<unknown>): Promise<void>;
  /** Runs one pass now and resolves when it has ended (tests). */
  mailNoticePass(): Promise<void>;
  /** Queues the dry run (`check`) or the apply of an import. */
  enqueueImport(importId: number, action: 'check' | 'apply'): Promise<void>;
  /** Runs import jobs in this process, one at a time. */
  workImports(handler: (importId: number, action: 'check' | 'apply') => Promise<void>): Promise<void>;
  /** Resolves when the import job of an import and action ended (tests). */
  importDone(importId: number, action: 'check' | 'apply'): Promise<void>;
  /**
   * Writes one job per webhook delivery, in its receiver's lane (jobs/webhook-lanes.ts), with `db`:
   * given the transaction that writes the deliveries, the jobs commit or roll back with them.
   */
  enqueueWebhooks(deliveries: readonly WebhookJob[], db?: TransactionHandle): Promise<void>;
  /** Makes a delivery due now in the slow lane (one job waiting at most), with the caller's transaction. */
  enqueueWebhookNow(delivery: WebhookJob, db: TransactionHandle): Promise<void>;
  /** Sends webhook deliveries in this process, in the quick and slow lanes (jobs/webhook-lanes.ts). */
  workWebhooks(handler: (deliveryId: string, lane: WebhookLane) => Promise<WebhookOutcome>): Promise<void>;
  /** Asks for a webhook dispatch pass soon (at most one a second). */
  nudgeWebhookDispatch(): Promise<void>;
  /** Runs the webhook dispatch passes in this process, and one every minute. */
  workWebhookDispatch(pass: () => Promise<unknown>): Promise<void>;
  /** Runs one dispatch pass now and resolves when it has ended (tests). */
  webhookDispatchPass(): Promise<void>;
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
  /**
   * Runs scheduled backups in this process, on `schedule` (cron in `tz`); without a schedule the
   * one a previous configuration left is removed.
   */
  workBackups(schedule: { cron: string; tz: string } | null, handler: () => Promise<void>): Promise<void>;
  /** Runs failed jobs of a queue once more (the jobs screen); answers how many were still failed. */
  retryJobs(queue: string, ids: readonly string[]): Promise<number>;
  /** Resolves when a job (by id) of a queue with a spy ended so (tests). */
  jobEnded(queue: string, id: string, state: 'completed' | 'failed'): Promise<void>;
  /** Reads the queues' pause flags now and stops or starts this process's workers to match (jobs/queue-pause.ts). */
  refreshPauses(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * pg-boss on the application's own database: the embedded PGlite by default, PostgreSQL at scale.
 * Media jobs are retried with exponential back-off, and their lease (1 h, with heartbeats)
 * outlives the slowest conversion, so a busy event loop never loses a job to a second worker.
 */
export async function startJobQueue(
  database: DatabaseHandle,
  options: {
    onError: (error: Error) => void;
    spies?: boolean;
    mailRetry?: MailRetryPolicy;
    mediaRetry?: MediaRetryPolicy;
    webhookRetry?: WebhookRetryPolicy;
    /** pg-boss's time and timers (tests: a TestClock that only moves when told, so no poll comes). */
    clock?: Clock;
    /** How often the queues' pause flags are read (another process may change them); 0: only when asked. */
    pausePollMs?: number;
  },
): Promise<JobQueue> {
  const common = {
    useListenNotify: true,
    ...(options.clock ? { clock: options.clock } : {}),
    __test__enableSpies: options.spies === true,
  };
  const boss =
    database.kind === 'pglite' && database.pglite
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', ...common })
      : new PgBoss({ connectionString: database.url ?? '', max: 4, ...common });
  boss.on('error', options.onError);
  await boss.start();
  // Before any worker is registered: a paused queue's workers are never started (jobs/queue-pause.ts).
  const pauses = new QueuePauses(boss, () => new QueuePausesRepository(database.db).pausedQueues());
  await pauses.refresh();
  pauses.start(options.pausePollMs ?? PAUSE_POLL_MS, options.onError);
  // Every queue wakes its workers by NOTIFY when a job is sent (pg-boss's `notify`, in-process on
  // PGlite, across processes on PostgreSQL), so workers poll only as a backstop: an idle server
  // made ~14 fetches a second before, each on the embedded database's one thread that also
  // serves requests. createQueue leaves an existing queue as it is, so the options are then
  // written over it: an install made by an older version gets today's.
  const ensureQueue = async (name: string, queueOptions: Omit<Queue, 'name'> = {}) => {
    const wanted = { ...queueOptions, notify: true };
    await boss.createQueue(name, wanted);
    const { policy: _fixedAtCreation, ...changeable } = wanted;
    await boss.updateQueue(name, changeable);
  };
  const mediaRetry = options.mediaRetry ?? MEDIA_RETRY;
  await ensureQueue(MEDIA_QUEUE, {
    retryLimit: mediaRetry.retryLimit,
    retryDelay: mediaRetry.retryDelaySeconds,
    retryBackoff: mediaRetry.retryDelaySeconds > 0,
    expireInSeconds: 3600,
    heartbeatSeconds: 60,
  });
  // Media jobs are written inside the caller's transaction: pg-boss must know the queue by then
  // (updateQueue just dropped it from its cache). On PGlite, a lookup on pg-boss's own handle from
  // inside that transaction would wait for the transaction to end, which waits for the lookup.
  await boss.findJobs(MEDIA_QUEUE, { key: mediaJobKey(0), queued: true });
  // A store that refuses (down, throttling) is tried again after 30 s, 1 min, 2 min… up to an hour
  // apart, for about a day; the outbox row stays meanwhile and the maintenance pass re-sends it
  // after that.
  await ensureQueue(OBJECT_DELETION_QUEUE, {
    retryLimit: 30,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 3600,
    expireInSeconds: 600,
  });
  await ensureQueue(STORAGE_MAINTENANCE_QUEUE, { retryLimit: 0, expireInSeconds: 3600 });
  // An import job records its own failure on the import (handlers never throw); an hour covers 100 000 rows.
  await ensureQueue(IMPORT_QUEUE, { retryLimit: 2, retryDelay: 5, expireInSeconds: 3600 });
  await ensureQueue(REPORT_ROLLUP_QUEUE, { retryLimit: 2, retryDelay: 300, expireInSeconds: 3600 });
  // "stately": at most one batch queued and one running, so restarts and several processes never
  // run the back-fill twice over.
  await ensureQueue(FINGERPRINT_BACKFILL_QUEUE, {
    policy: 'stately',
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 900,
  });
  await ensureQueue(ASSET_CHANGES_SWEEP_QUEUE, {
    retryLimit: 2,
    retryDelay: 300,
    expireInSeconds: 3600,
  });
  const mailRetry = options.mailRetry ?? MAIL_RETRY;
  await ensureQueue(MAIL_NOTICE_QUEUE, { retryLimit: 0, expireInSeconds: 300 });
  await ensureQueue(MAIL_QUEUE, {
    retryLimit: mailRetry.retryLimit,
    retryDelay: mailRetry.retryDelaySeconds,
    retryBackoff: mailRetry.retryDelaySeconds > 0,
    expireInSeconds: 300,
  });
  const webhookRetry = options.webhookRetry ?? WEBHOOK_RETRY;
  await ensureQueue(WEBHOOK_DISPATCH_QUEUE, { retryLimit: 0, expireInSeconds: 300 });
  // A page renders in seconds; 15 minutes with heartbeats covers the tallest under load.
  await ensureQueue(COMPOSITE_QUEUE, {
    retryLimit: 2,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 900,
    heartbeatSeconds: 60,
  });
  await ensureWebhookQueues(ensureQueue, webhookRetry);
  // Webhook jobs are written (and quick jobs completed) inside the caller's transaction too: the
  // queues' cache entries are filled now, as the media queue's above.
  for (const queue of [WEBHOOK_QUEUE, WEBHOOK_SLOW_QUEUE])
    await boss.findJobs(queue, { key: 'warm-up', queued: true });
  // pg-boss records a job's end only on a spy that exists by then (it makes them on first ask): the
  // tests' spies are made now, so a job that ends before a test asks after it is not missed.
  if (options.spies) {
    for (const queue of [MEDIA_QUEUE, OBJECT_DELETION_QUEUE, MAIL_QUEUE, MAIL_NOTICE_QUEUE])
      boss.getSpy(queue);
  }
  if (options.spies) boss.getSpy(IMPORT_QUEUE);
  if (options.spies) boss.getSpy(WEBHOOK_DISPATCH_QUEUE);
  if (options.spies) boss.getSpy(COMPOSITE_QUEUE);
  /**
   * Asks this process's workers of a queue to fetch again as soon as their fetch has ended. Called
   * after every fetch that brought jobs: one NOTIFY announces a whole insert (a 200-article render
   * batch), and a worker that takes one job a fetch would otherwise wait for its backstop poll
   * between them (pg-boss bursts only for batches of more than one). A job that just failed and is
   * due again at once (a retry delay of 0) is taken by that next fetch too; the fetch that finds
   * nothing ends it.
   */
  const fetchAgain = (queue: string) => {
    for (const worker of boss.getWipData()) if (worker.name === queue) boss.notifyWorker(worker.id);
  };
  /** A worker's handler that, once it has ended, asks the queue's workers to fetch again (above). */
  const thenFetchAgain =
    <Jobs, Result>(queue: string, handler: (jobs: Jobs) => Promise<Result>) =>
    async (jobs: Jobs): Promise<Result> => {
      try {
        return await handler(jobs);
      } finally {
        fetchAgain(queue);
      }
    };
  /** After a nudge that may have been put in the next one-second slot: wakes this process's workers then. */
  const nudgeTimers = new Map<string, NodeJS.Timeout>();
  const wakeAfterSlot = (queue: string) => {
    if (nudgeTimers.has(queue)) return;
    const timer = setTimeout(() => {
      nudgeTimers.delete(queue);
      fetchAgain(queue);
    }, 1_100);
    timer.unref();
    nudgeTimers.set(queue, timer);
  };
  const sendDeletions = async (keys: readonly string[]) => {
    for (let i = 0; i < keys.length; i += 1000) {
      await boss.insert(
        OBJECT_DELETION_QUEUE,
        keys.slice(i, i + 1000).map((key) => ({ data: { key } })),
      );
    }
  };
  return {
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
    enqueueObjectDeletions: sendDeletions,
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
        await sendDeletions(await handlers.maintain());
      });
      await boss.schedule(STORAGE_MAINTENANCE_QUEUE, '*/15 * * * *', null, { singletonKey: 'maintenance' });
    },
    async workReportRollup(handler) {
      await boss.work(REPORT_ROLLUP_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
        await handler();
      });
      await boss.schedule(REPORT_ROLLUP_QUEUE, '7 * * * *', null, { singletonKey: 'report-rollup' });
      await boss.send(REPORT_ROLLUP_QUEUE, null, {
        singletonKey: 'report-rollup-start',
        singletonSeconds: 600,
      });
    },
    async workFingerprintBackfill(batch) {
      await boss.work(
        FINGERPRINT_BACKFILL_QUEUE,
        { pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: BACKSTOP_POLL_SECONDS },
        async () => {
          if (await batch()) await boss.send(FINGERPRINT_BACKFILL_QUEUE, {});
        },
      );
      await boss.send(FINGERPRINT_BACKFILL_QUEUE, {});
    },
    async workAssetChangesSweep(handler) {
      await boss.work(ASSET_CHANGES_SWEEP_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
        await handler();
      });
      await boss.schedule(ASSET_CHANGES_SWEEP_QUEUE, '37 * * * *', null, {
        singletonKey: 'asset-changes-sweep',
      });
    },
    async objectDeletionDone(key) {
      await boss
        .getSpy<{ key: string }>(OBJECT_DELETION_QUEUE)
        .waitForJob((data) => data.key === key, 'completed');
    },
    async enqueueMail(mailId) {
      await boss.send(MAIL_QUEUE, { mailId }, { singletonKey: `mail-${mailId}` });
    },
    async workMail(handler) {
      // One worker: mail is not urgent, and on the embedded database every fetch runs on the one
      // thread that also serves requests and media jobs.
      await boss.work(
        MAIL_QUEUE,
        {
          includeMetadata: true,
          pollingIntervalSeconds: 1,
          notifyPollingIntervalSeconds: BACKSTOP_POLL_SECONDS,
        },
        thenFetchAgain(MAIL_QUEUE, async ([job]: JobWithMetadata<{ mailId: number }>[]) => {
          if (job) await handler(job.data.mailId, job.retryCount >= job.retryLimit);
        }),
      );
    },
    async mailDone(mailId) {
      const spy = boss.getSpy<{ mailId: number }>(MAIL_QUEUE);
      await Promise.race([
        spy.waitForJob((data) => data.mailId === mailId, 'completed'),
        spy.waitForJob((data) => data.mailId === mailId, 'failed'),
      ]);
    },
    async nudgeMailNotices() {
      // Throttled to one a second; one asked within a second of the last runs in the next second,
      // so the pass after the last event of a batch is never dropped. A job put in the next slot is
      // not announced by NOTIFY: this process's worker is woken then (another process's polls).
      await boss.send(
        MAIL_NOTICE_QUEUE,
        {},
        { singletonKey: 'pass', singletonSeconds: 1, singletonNextSlot: true },
      );
      wakeAfterSlot(MAIL_NOTICE_QUEUE);
    },
    async workMailNotices(pass) {
      await boss.work(
        MAIL_NOTICE_QUEUE,
        { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: NUDGED_BACKSTOP_POLL_SECONDS },
        async () => {
          await pass();
        },
      );
      // Delays are whole hours: a pass a minute sends a notice within a minute of its time.
      await boss.schedule(MAIL_NOTICE_QUEUE, '* * * * *', null, { singletonKey: 'every-minute' });
    },
    async mailNoticePass() {
      const marker = `${Date.now()}-${Math.random()}`;
      await boss.send(MAIL_NOTICE_QUEUE, { marker });
      const spy = boss.getSpy<{ marker?: string }>(MAIL_NOTICE_QUEUE);
      await Promise.race([
        spy.waitForJob((data) => data?.marker === marker, 'completed'),
        spy.waitForJob((data) => data?.marker === marker, 'failed'),
      ]);
    },
    async enqueueImport(importId, action) {
      await boss.send(IMPORT_QUEUE, { importId, action }, { singletonKey: `import-${importId}-${action}` });
    },
    async workImports(handler) {
      await boss.work(
        IMPORT_QUEUE,
        { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: BACKSTOP_POLL_SECONDS },
        thenFetchAgain(
          IMPORT_QUEUE,
          async ([job]: Job<{ importId: number; action: 'check' | 'apply' }>[]) => {
            if (job) await handler(job.data.importId, job.data.action);
          },
        ),
      );
    },
    async importDone(importId, action) {
      await boss
        .getSpy<{ importId: number; action: string }>(IMPORT_QUEUE)
        .waitForJob((data) => data.importId === importId && data.action === action, 'completed');
    },
    enqueueWebhooks: (deliveries, db) => sendWebhookJobs(boss, deliveries, db),
    enqueueWebhookNow: (delivery, db) => sendWebhookJobNow(boss, delivery, db),
    async workWebhooks(handler) {
      await workWebhookLanes(
        boss,
        webhookRetry,
        {
          backstopPollSeconds: BACKSTOP_POLL_SECONDS,
          afterJob: fetchAgain,
          transaction: (work) => database.db.transaction().execute(work),
        },
        handler,
      );
    },
    async nudgeWebhookDispatch() {
      await boss.send(
        WEBHOOK_DISPATCH_QUEUE,
        {},
        { singletonKey: 'pass', singletonSeconds: 1, singletonNextSlot: true },
      );
      wakeAfterSlot(WEBHOOK_DISPATCH_QUEUE);
    },
    async workWebhookDispatch(pass) {
      await boss.work(
        WEBHOOK_DISPATCH_QUEUE,
        { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: NUDGED_BACKSTOP_POLL_SECONDS },
        async () => {
          await pass();
        },
      );
      await boss.schedule(WEBHOOK_DISPATCH_QUEUE, '* * * * *', null, { singletonKey: 'every-minute' });
    },
    async webhookDispatchPass() {
      const marker = `${Date.now()}-${Math.random()}`;
      await boss.send(WEBHOOK_DISPATCH_QUEUE, { marker });
      const spy = boss.getSpy<{ marker?: string }>(WEBHOOK_DISPATCH_QUEUE);
      await Promise.race([
        spy.waitForJob((data) => data?.marker === marker, 'completed'),
        spy.waitForJob((data) => data?.marker === marker, 'failed'),
      ]);
    },
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
    async compositeDone(articleId) {
      const spy = boss.getSpy<{ articleId: number }>(COMPOSITE_QUEUE);
      await Promise.race([
        spy.waitForJob((data) => data.articleId === articleId, 'completed'),
        spy.waitForJob((data) => data.articleId === articleId, 'failed'),
      ]);
    },
    async retryJobs(queue, ids) {
      if (ids.length === 0) return 0;
      // pg-boss types the answer as an empty object; it carries how many jobs were still failed.
      const response = (await boss.retry(queue, [...ids])) as { affected?: number };
      fetchAgain(queue);
      return response.affected ?? 0;
    },
    refreshPauses: () => pauses.refresh(),
    async jobEnded(queue, id, state) {
      await boss.getSpy(queue).waitForJobWithId(id, state);
    },
    async workBackups(schedule, handler) {
      if (!schedule) {
        if (await boss.getQueue(BACKUP_QUEUE)) await boss.unschedule(BACKUP_QUEUE);
        return;
      }
      // A backup takes as long as the data: a lease of a day, and a failed run waits for the next.
      await ensureQueue(BACKUP_QUEUE, { retryLimit: 0, expireInSeconds: 24 * 3600 });
      await boss.work(BACKUP_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
        await handler();
      });
      await boss.schedule(BACKUP_QUEUE, schedule.cron, null, { tz: schedule.tz });
    },
    async stop() {
      await pauses.stop();
      for (const timer of nudgeTimers.values()) clearTimeout(timer);
      nudgeTimers.clear();
      await boss.stop({ graceful: true, close: true, timeout: 10_000 });
    },
  };
}

type JobResult = { id: string; status: 'completed' | 'failed'; output?: object };

/**
 * Runs one fetch of jobs `lanes` at a time and reports each job's own outcome (pg-boss
 * `perJobResults`), so one failing job is retried without failing the others of its fetch.
 */
async function runInLanes<T extends { id: string }>(
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
