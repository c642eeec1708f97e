import { BACKFILL_QUEUE_OPTIONS, workBackfill } from '../../jobs/backfill-queue';
import { declareJobs } from '../../jobs/runtime';

/** Fingerprints of files uploaded before near-duplicate detection (issue 17), a batch a job. */
export const FINGERPRINT_BACKFILL_QUEUE = 'fingerprint-backfill';

export interface FingerprintBackfillJobs {
  /**
   * Runs the fingerprint back-fill in this process: one batch a job, the next queued while a batch
   * comes back full, and one asked for now (a back-fill already queued makes it a no-op).
   */
  workFingerprintBackfill(batch: () => Promise<boolean>): Promise<void>;
}

export const fingerprintBackfillJobs = declareJobs<FingerprintBackfillJobs>({
  async ensure({ ensureQueue }) {
    // "stately": at most one batch queued and one running, so restarts and several processes never
    // run the back-fill twice over.
    await ensureQueue(FINGERPRINT_BACKFILL_QUEUE, BACKFILL_QUEUE_OPTIONS);
  },
  api: ({ boss }) => ({
    async workFingerprintBackfill(batch) {
      await workBackfill(boss, FINGERPRINT_BACKFILL_QUEUE, batch);
    },
  }),
});
