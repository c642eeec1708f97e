import {
  FAILED_JOBS_SHOWN,
  type FailedJobs,
  FILE_JOB_QUEUES,
  FunctionCode,
  ItemState,
  JOB_QUEUE_NAMES,
  type JobQueueName,
  type JobsOverview,
  REGENERATE_PREVIEWS_MAX,
  type RegeneratePreviewsResult,
} from '@dam/contract';
import { AppError, coded } from '../../http/app-error';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { type AuthContext, requireAnyCode } from '../access/access';
import { canSee } from '../items/policy';
import type { MediaJobWriter } from '../uploads/repository';
import type { QueuePausesRepository } from './pauses.repository';
import type { JobsAdminRepository } from './repository';

/** A retry-all takes at most this many failed jobs a call (the screen's button may be pressed again). */
const RETRY_ALL_MAX = 10_000;
/** The back-fills' counts go over every upload record: kept this long between the screen's refreshes. */
const PROGRESS_KEEP_MS = 10_000;
const ERROR_MAX_CHARS = 2000;

export interface JobsAdminDependencies {
  repo: JobsAdminRepository;
  pauses: QueuePausesRepository;
  clock: Clock;
  /** The job queue (null where the process has none: some tests). */
  queue: Pick<JobQueue, 'retryJobs' | 'refreshPauses'> | null;
  mediaJobs: MediaJobWriter | null;
  fingerprintProgress: () => Promise<{ done: number; total: number }>;
  /** Records with their embedded metadata read (issue 42), of all finished ones. */
  metadataProgress: () => Promise<{ done: number; total: number }>;
}

/** The message of a failed job's last attempt, as pg-boss stored what the handler threw. */
function errorOf(output: unknown): string | null {
  if (output === null || output === undefined) return null;
  const message =
    typeof output === 'object' && typeof (output as { message?: unknown }).message === 'string'
      ? (output as { message: string }).message
      : typeof output === 'string'
        ? output
        : JSON.stringify(output);
  return message.length > ERROR_MAX_CHARS ? `${message.slice(0, ERROR_MAX_CHARS - 1)}…` : message;
}

const uploadIdOf = (data: unknown): number | null => {
  const id = (data as { uploadId?: unknown } | null)?.uploadId;
  return typeof id === 'number' && Number.isInteger(id) ? id : null;
};

/**
 * The jobs screen (issue 40 item 4; function code 10): the queues' counts, failed jobs and the file
 * each concerns, retries, pausing a queue (jobs/queue-pause.ts), back-fill progress, and making a
 * file's or folder's previews again through the media job path. Every call needs code 10.
 */
export class JobsAdminService {
  private progress: { at: number; value: JobsOverview['backfills'] } | null = null;

  constructor(private readonly deps: JobsAdminDependencies) {}

  async overview(auth: AuthContext): Promise<JobsOverview> {
    requireAnyCode(auth, FunctionCode.jobs);
    const [counts, paused, backfills] = await Promise.all([
      this.deps.repo.counts(JOB_QUEUE_NAMES),
      this.deps.pauses.pausedQueues(),
      this.backfills(),
    ]);
    return {
      queues: JOB_QUEUE_NAMES.map((queue) => ({
        queue,
        ...(counts.get(queue) ?? { waiting: 0, active: 0, failed: 0, completed: 0 }),
        paused: paused.has(queue),
      })),
      backfills,
    };
  }

  private async backfills(): Promise<JobsOverview['backfills']> {
    const now = this.deps.clock.now().getTime();
    if (this.progress && now - this.progress.at < PROGRESS_KEEP_MS) return this.progress.value;
    const [fingerprints, metadata, previews] = await Promise.all([
      this.deps.fingerprintProgress(),
      this.deps.metadataProgress(),
      this.deps.repo.previewProgress(),
    ]);
    const value: JobsOverview['backfills'] = [
      { kind: 'fingerprints', ...fingerprints },
      { kind: 'metadata', ...metadata },
      { kind: 'previews', ...previews },
    ];
    this.progress = { at: now, value };
    return value;
  }

  /** The newest failed jobs of a queue, each with its error and the file it concerns if the caller may see it. */
  async failed(auth: AuthContext, queue: JobQueueName): Promise<FailedJobs> {
    requireAnyCode(auth, FunctionCode.jobs);
    const [rows, counts] = await Promise.all([
      this.deps.repo.failedJobs(queue, FAILED_JOBS_SHOWN),
      this.deps.repo.counts([queue]),
    ]);
    const withFiles = FILE_JOB_QUEUES.includes(queue);
    const uploadIds = withFiles ? rows.map((row) => uploadIdOf(row.data)).filter((id) => id !== null) : [];
    const files = await this.deps.repo.uploadFiles(uploadIds);
    return {
      total: counts.get(queue)?.failed ?? rows.length,
      list: rows.map((row) => {
        const uploadId = withFiles ? uploadIdOf(row.data) : null;
        const item = uploadId === null ? null : files.get(uploadId);
        const visible = item && item.state === ItemState.normal && canSee(auth, item) ? item : null;
        return {
          id: row.id,
          queue,
          error: errorOf(row.output),
          failedAt: row.completed_on?.toISOString() ?? null,
          attempts: row.retry_count + 1,
          file:
            uploadId === null ? null : { uploadId, itemId: visible?.id ?? null, name: visible?.name ?? null },
        };
      }),
    };
  }

  /** Runs a failed job once more; SEJB_02 when it is no longer failed. Answers the upload it concerns, for the log. */
  async retry(
    auth: AuthContext,
    queue: JobQueueName,
    id: string,
  ): Promise<{ retried: number; uploadId: number | null }> {
    requireAnyCode(auth, FunctionCode.jobs);
    const [job] = (await this.deps.repo.failedJobs(queue, FAILED_JOBS_SHOWN)).filter((row) => row.id === id);
    const retried = this.deps.queue ? await this.deps.queue.retryJobs(queue, [id]) : 0;
    if (retried === 0) throw new AppError('SEJB_02');
    return { retried, uploadId: job ? uploadIdOf(job.data) : null };
  }

  /** Runs every failed job of a queue once more (up to RETRY_ALL_MAX a call). */
  async retryAll(auth: AuthContext, queue: JobQueueName): Promise<{ retried: number }> {
    requireAnyCode(auth, FunctionCode.jobs);
    const ids = await this.deps.repo.failedJobIds(queue, RETRY_ALL_MAX);
    if (ids.length === 0 || !this.deps.queue) return { retried: 0 };
    return { retried: await this.deps.queue.retryJobs(queue, ids) };
  }

  /** Pauses or resumes a queue in every process; `changed` is false when it already was. */
  async setPaused(
    auth: AuthContext,
    queue: JobQueueName,
    paused: boolean,
  ): Promise<{ queue: JobQueueName; paused: boolean; changed: boolean }> {
    requireAnyCode(auth, FunctionCode.jobs);
    const changed = await this.deps.pauses.setPaused(queue, paused, {
      userId: auth.userId,
      at: this.deps.clock.now(),
    });
    // This process at once; the others at their next reading of the flags.
    await this.deps.queue?.refreshPauses();
    return { queue, paused, changed };
  }

  /**
   * Queues the media job of every finished record of a file, or of every file below a folder, in
   * one transaction holding the lost-media-job sweep's lock: a record whose job is already waiting
   * or running is not queued again (a second click while pending queues nothing). Above
   * REGENERATE_PREVIEWS_MAX records nothing is queued (SEJB_01).
   */
  async regenerate(
    auth: AuthContext,
    itemId: number,
  ): Promise<RegeneratePreviewsResult & { item: { id: number; name: string } }> {
    requireAnyCode(auth, FunctionCode.jobs);
    const item = await this.deps.repo.item(itemId);
    if (!item || item.state !== ItemState.normal || !canSee(auth, item)) throw new AppError('SE_404');
    const writer = this.deps.mediaJobs;
    const result = await this.deps.repo.transaction(async (repo, uploads) => {
      const ids = await repo.finishedUploadsOf(item, REGENERATE_PREVIEWS_MAX + 1);
      if (ids.length > REGENERATE_PREVIEWS_MAX)
        throw coded('SEJB_01', { count: `${REGENERATE_PREVIEWS_MAX}+`, max: REGENERATE_PREVIEWS_MAX });
      await uploads.lockMediaSweep();
      const pending = await repo.withPendingMediaJob(ids);
      const due = ids.filter((id) => !pending.has(id));
      for (const id of due) await uploads.writeMediaJob(id, writer);
      return { queued: writer ? due.length : 0, alreadyPending: pending.size };
    });
    return { ...result, item: { id: item.id, name: item.name } };
  }
}
