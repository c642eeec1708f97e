import type { MediaJobWriter, UploadsRepository } from '../modules/uploads/repository';

/** Records queued per transaction of the sweep (each holds the sweep's lock a short while). */
export const MEDIA_SWEEP_BATCH = 200;
/**
 * Past this many media jobs waiting, the sweep does not run. Each batch's query hashes the keys of
 * the waiting jobs (a hashed subplan); a set too large for hash_mem would be planned as a plain
 * subplan, comparing every pending record with every waiting job (over 60 s for one batch with
 * 300,000 waiting on PostgreSQL 15, against 0.3 s hashed). A queue that full is being worked; what
 * older versions lost waits for a start-up with a shorter queue.
 */
export const MEDIA_SWEEP_MAX_WAITING = 50_000;

type Log = (details: Record<string, unknown>, message: string) => void;

export interface MediaSweepDependencies {
  uploads: UploadsRepository;
  mediaJobs: MediaJobWriter;
  info: Log;
  warn: Log;
}

/**
 * Queues a media job for every finished upload whose preview was never made and that has no media
 * job waiting, due for a retry or running (issue 38 item 5). Since the job is written in the
 * transaction that makes a record live, this finds only what older versions lost (a job sent
 * after the commit, by a process killed in between) or a job deleted by hand. Started once at
 * each start-up, in the background, by the process that works media jobs (`start`); `stop` ends
 * it after the batch in progress, before the queue and database close.
 *
 * In batches, in id order, each batch in a transaction holding the sweep's lock, so passes of
 * several processes starting at once never queue one record twice; a record it finds already has
 * its job by the time its batch commits, so a second pass queues nothing more.
 */
export class LostMediaJobSweep {
  private running: Promise<void> | null = null;
  private stopping = false;

  constructor(private readonly deps: MediaSweepDependencies) {}

  /** Starts a pass in the background (once); a failure is logged, never thrown: start-up goes on. */
  start(): void {
    if (this.running || this.stopping) return;
    this.running = this.run().then(
      () => undefined,
      (err: unknown) => this.deps.warn({ err }, 'media sweep failed; it runs again at the next start-up'),
    );
  }

  /** Lets the batch in progress commit, runs no other, and waits for it. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  /** Runs one pass; answers how many jobs it queued (0 when skipped). */
  async run(): Promise<number> {
    const waiting = await this.deps.uploads.countWaitingMediaJobs(MEDIA_SWEEP_MAX_WAITING + 1);
    if (waiting > MEDIA_SWEEP_MAX_WAITING) {
      this.deps.info(
        { waiting: `>${MEDIA_SWEEP_MAX_WAITING}` },
        `media sweep skipped: more than ${MEDIA_SWEEP_MAX_WAITING} media jobs are waiting`,
      );
      return 0;
    }
    let queued = 0;
    let afterId = 0;
    while (!this.stopping) {
      const found = await this.deps.uploads.transaction(async (uploads) => {
        await uploads.lockMediaSweep();
        const ids = await uploads.previewPendingWithoutMediaJob(afterId, MEDIA_SWEEP_BATCH);
        for (const id of ids) await uploads.writeMediaJob(id, this.deps.mediaJobs);
        return ids;
      });
      queued += found.length;
      const last = found.at(-1);
      if (last === undefined || found.length < MEDIA_SWEEP_BATCH) {
        this.deps.info({ queued }, `media sweep: queued ${queued} lost media job(s)`);
        return queued;
      }
      afterId = last;
    }
    this.deps.info({ queued }, `media sweep stopped by shutdown after queuing ${queued} lost media job(s)`);
    return queued;
  }
}
