import { BACKFILL_QUEUE_OPTIONS, workBackfill } from '../../jobs/backfill-queue';
import { declareJobs } from '../../jobs/runtime';

/** Embedded metadata of files uploaded before issue 42, a batch a job. */
export const METADATA_BACKFILL_QUEUE = 'metadata-backfill';

export interface MetadataBackfillJobs {
  /**
   * Runs the metadata back-fill in this process: one batch a job, the next queued while a batch
   * comes back full, and one asked for now (a back-fill already queued makes it a no-op).
   */
  workMetadataBackfill(batch: () => Promise<boolean>): Promise<void>;
}

export const metadataBackfillJobs = declareJobs<MetadataBackfillJobs>({
  // The restart test waits for the batch its start queued.
  spied: [METADATA_BACKFILL_QUEUE],
  async ensure({ ensureQueue }) {
    // "stately" as the fingerprint back-fill: at most one batch queued and one running in the
    // whole installation, so at most one original is being copied from S3 for it at a time.
    await ensureQueue(METADATA_BACKFILL_QUEUE, BACKFILL_QUEUE_OPTIONS);
  },
  api: ({ boss }) => ({
    async workMetadataBackfill(batch) {
      await workBackfill(boss, METADATA_BACKFILL_QUEUE, batch);
    },
  }),
});
