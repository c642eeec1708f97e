import type { MediaJobWriter, UploadsRepository } from '../modules/uploads/repository';

/** Records queued per transaction of the sweep (each holds the sweep's lock a short while). */
export const MEDIA_SWEEP_BATCH = 200;

export interface MediaSweepDependencies {
  uploads: UploadsRepository;
  mediaJobs: MediaJobWriter;
  info: (details: Record<string, unknown>, message: string) => void;
}

/**
 * Queues a media job for every finished upload whose preview was never made and that has no media
 * job waiting, due for a retry or running (issue 38 item 5). Since the job is written in the
 * transaction that makes a record live, this finds only what older versions lost (a job sent
 * after the commit, by a process killed in between) or a job deleted by hand. Run once at each
 * start-up by the process that works media jobs.
 *
 * In batches, in id order, each batch in a transaction holding the sweep's lock, so passes of
 * several processes starting at once never queue one record twice; a record it finds already has
 * its job by the time its batch commits, so a second pass queues nothing more.
 */
export class LostMediaJobSweep {
  constructor(private readonly deps: MediaSweepDependencies) {}

  /** Runs one pass; answers how many jobs it queued. */
  async run(): Promise<number> {
    let queued = 0;
    let afterId = 0;
    for (;;) {
      const found = await this.deps.uploads.transaction(async (uploads) => {
        await uploads.lockMediaSweep();
        const ids = await uploads.previewPendingWithoutMediaJob(afterId, MEDIA_SWEEP_BATCH);
        for (const id of ids) await uploads.writeMediaJob(id, this.deps.mediaJobs);
        return ids;
      });
      queued += found.length;
      const last = found.at(-1);
      if (last === undefined || found.length < MEDIA_SWEEP_BATCH) break;
      afterId = last;
    }
    this.deps.info({ queued }, `media sweep: queued ${queued} lost media job(s)`);
    return queued;
  }
}
