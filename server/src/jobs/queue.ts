import { type Clock, fromPglite, PgBoss, type Queue } from 'pg-boss';
import type { DatabaseHandle } from '../db/database';
import { type BackupJobs, backupJobs } from '../modules/backup/jobs';
import { type CompositeJobs, compositeJobs } from '../modules/composite/jobs';
import { type ObjectDeletionJobs, objectDeletionJobs } from '../modules/deletion-outbox/jobs';
import { type ImportJobs, importJobs } from '../modules/imports/jobs';
import { QueuePausesRepository } from '../modules/jobs-admin/pauses.repository';
import { type MailJobs, mailJobs } from '../modules/mail/jobs';
import { type MailNoticeJobs, mailNoticeJobs } from '../modules/mail-notices/jobs';
import { type MediaJobs, mediaJobs } from '../modules/media/jobs';
import { type MetadataBackfillJobs, metadataBackfillJobs } from '../modules/metadata/jobs';
import { type AssetChangesSweepJobs, assetChangesSweepJobs } from '../modules/open-api/changes/jobs';
import { type ReportRollupJobs, reportRollupJobs } from '../modules/reports/jobs';
import { type FingerprintBackfillJobs, fingerprintBackfillJobs } from '../modules/similar/jobs';
import { type WebhookJobs, webhookJobs } from '../modules/webhooks/jobs';
import { QueuePauses } from './queue-pause';
import type { JobDeclaration, JobRuntime, RetryPolicies } from './runtime';

export { BACKUP_QUEUE } from '../modules/backup/jobs';
export { COMPOSITE_QUEUE } from '../modules/composite/jobs';
export { OBJECT_DELETION_QUEUE, STORAGE_MAINTENANCE_QUEUE } from '../modules/deletion-outbox/jobs';
export { IMPORT_QUEUE } from '../modules/imports/jobs';
export { MAIL_QUEUE } from '../modules/mail/jobs';
export { MAIL_NOTICE_QUEUE } from '../modules/mail-notices/jobs';
export { MEDIA_JOB_KEY_PREFIX, MEDIA_QUEUE, mediaJobKey } from '../modules/media/jobs';
export { METADATA_BACKFILL_QUEUE } from '../modules/metadata/jobs';
export { ASSET_CHANGES_SWEEP_QUEUE } from '../modules/open-api/changes/jobs';
export { REPORT_ROLLUP_QUEUE } from '../modules/reports/jobs';
export { FINGERPRINT_BACKFILL_QUEUE } from '../modules/similar/jobs';
export { WEBHOOK_DISPATCH_QUEUE } from '../modules/webhooks/jobs';
export type { MailRetryPolicy, MediaRetryPolicy } from './runtime';
export {
  type TransactionHandle,
  WEBHOOK_QUEUE,
  WEBHOOK_SLOW_QUEUE,
  type WebhookJob,
  type WebhookLane,
  type WebhookOutcome,
  type WebhookRetryPolicy,
} from './webhook-lanes';

/** The schema of pg-boss's tables (its default). */
export const JOB_SCHEMA = 'pgboss';
/** How often each process reads the queues' pause flags (the jobs screen's pause reaches it within this). */
const PAUSE_POLL_MS = 5_000;

/**
 * Every module's job declaration, in the order their queues are made. A module with jobs declares
 * them in its own `jobs.ts` (queue names, options, sending and working) and is listed here once.
 */
const DECLARATIONS = [
  mediaJobs,
  objectDeletionJobs,
  importJobs,
  reportRollupJobs,
  fingerprintBackfillJobs,
  metadataBackfillJobs,
  assetChangesSweepJobs,
  mailNoticeJobs,
  mailJobs,
  webhookJobs,
  compositeJobs,
  backupJobs,
] as const;

/** What the queue itself does for the jobs screen, tests and shutdown, whatever the module. */
export interface QueueControl {
  /** Runs failed jobs of a queue once more (the jobs screen); answers how many were still failed. */
  retryJobs(queue: string, ids: readonly string[]): Promise<number>;
  /** Resolves when a job (by id) of a queue with a spy ended so (tests). */
  jobEnded(queue: string, id: string, state: 'completed' | 'failed'): Promise<void>;
  /** Reads the queues' pause flags now and stops or starts this process's workers to match (jobs/queue-pause.ts). */
  refreshPauses(): Promise<void>;
  stop(): Promise<void>;
}

/** The job queue: every module's declared sending and working, and the queue's own control. */
export type JobQueue = MediaJobs &
  ObjectDeletionJobs &
  ImportJobs &
  ReportRollupJobs &
  FingerprintBackfillJobs &
  MetadataBackfillJobs &
  AssetChangesSweepJobs &
  MailNoticeJobs &
  MailJobs &
  WebhookJobs &
  CompositeJobs &
  BackupJobs &
  QueueControl;

/** pg-boss's own period for its supervision and monitoring passes, and the long queues' heartbeat. */
const DEFAULT_HEARTBEAT_SECONDS = 60;

/**
 * pg-boss on the application's own database: the embedded PGlite by default, PostgreSQL at scale,
 * with the queues every module declares (DECLARATIONS).
 */
export async function startJobQueue(
  database: DatabaseHandle,
  options: RetryPolicies & {
    onError: (error: Error) => void;
    spies?: boolean;
    /** pg-boss's time and timers (tests: a TestClock that only moves when told, so no poll comes). */
    clock?: Clock;
    /** How often the queues' pause flags are read (another process may change them); 0: only when asked. */
    pausePollMs?: number;
    /** JobRuntime.heartbeatSeconds (default 60); pg-boss looks for missed heartbeats as often. */
    heartbeatSeconds?: number;
  },
): Promise<JobQueue> {
  const heartbeatSeconds = options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS;
  const supervise = Math.min(heartbeatSeconds, DEFAULT_HEARTBEAT_SECONDS);
  const common = {
    useListenNotify: true,
    superviseIntervalSeconds: supervise,
    monitorIntervalSeconds: supervise,
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
  const nudgeTimers = new Map<string, NodeJS.Timeout>();
  const runtime = jobRuntime(boss, database, options, heartbeatSeconds, nudgeTimers);
  const declarations: readonly JobDeclaration<object>[] = DECLARATIONS;
  for (const declaration of declarations) await declaration.ensure(runtime);
  for (const queue of declarations.flatMap((declaration) => declaration.warm ?? []))
    await boss.findJobs(queue, { key: 'warm-up', queued: true });
  // pg-boss records a job's end only on a spy that exists by then (it makes them on first ask): the
  // tests' spies are made now, so a job that ends before a test asks after it is not missed.
  if (options.spies)
    for (const queue of declarations.flatMap((declaration) => declaration.spied ?? [])) boss.getSpy(queue);
  const control: QueueControl = {
    async retryJobs(queue, ids) {
      if (ids.length === 0) return 0;
      // pg-boss types the answer as an empty object; it carries how many jobs were still failed.
      const response = (await boss.retry(queue, [...ids])) as { affected?: number };
      runtime.fetchAgain(queue);
      return response.affected ?? 0;
    },
    refreshPauses: () => pauses.refresh(),
    async jobEnded(queue, id, state) {
      await boss.getSpy(queue).waitForJobWithId(id, state);
    },
    async stop() {
      await pauses.stop();
      for (const timer of nudgeTimers.values()) clearTimeout(timer);
      nudgeTimers.clear();
      await boss.stop({ graceful: true, close: true, timeout: 10_000 });
    },
  };
  return Object.assign({}, ...DECLARATIONS.map((declaration) => declaration.api(runtime)), control);
}

/** The pieces every module's sending and working share (jobs/runtime.ts). */
function jobRuntime(
  boss: PgBoss,
  database: DatabaseHandle,
  retries: RetryPolicies,
  heartbeatSeconds: number,
  nudgeTimers: Map<string, NodeJS.Timeout>,
): JobRuntime {
  // Every queue wakes its workers by NOTIFY when a job is sent (pg-boss's `notify`, in-process on
  // PGlite, across processes on PostgreSQL), so workers poll only as a backstop: an idle server
  // made ~14 fetches a second before, each on the embedded database's one thread that also
  // serves requests.
  const ensureQueue = async (name: string, queueOptions: Omit<Queue, 'name'> = {}) => {
    const wanted = { ...queueOptions, notify: true };
    await boss.createQueue(name, wanted);
    const { policy: _fixedAtCreation, ...changeable } = wanted;
    await boss.updateQueue(name, changeable);
  };
  /**
   * Called after every fetch that brought jobs: one NOTIFY announces a whole insert (a 200-article
   * render batch), and a worker that takes one job a fetch would otherwise wait for its backstop
   * poll between them (pg-boss bursts only for batches of more than one). A job that just failed
   * and is due again at once (a retry delay of 0) is taken by that next fetch too; the fetch that
   * finds nothing ends it.
   */
  const fetchAgain = (queue: string) => {
    for (const worker of boss.getWipData()) if (worker.name === queue) boss.notifyWorker(worker.id);
  };
  return {
    boss,
    database,
    retries: {
      ...(retries.mailRetry ? { mailRetry: retries.mailRetry } : {}),
      ...(retries.mediaRetry ? { mediaRetry: retries.mediaRetry } : {}),
      ...(retries.webhookRetry ? { webhookRetry: retries.webhookRetry } : {}),
    },
    heartbeatSeconds,
    ensureQueue,
    fetchAgain,
    thenFetchAgain:
      <Jobs, Result>(queue: string, handler: (jobs: Jobs) => Promise<Result>) =>
      async (jobs: Jobs): Promise<Result> => {
        try {
          return await handler(jobs);
        } finally {
          fetchAgain(queue);
        }
      },
    wakeAfterSlot(queue) {
      if (nudgeTimers.has(queue)) return;
      const timer = setTimeout(() => {
        nudgeTimers.delete(queue);
        fetchAgain(queue);
      }, 1_100);
      timer.unref();
      nudgeTimers.set(queue, timer);
    },
  };
}
