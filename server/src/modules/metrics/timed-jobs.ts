import {
  ASSET_CHANGES_SWEEP_QUEUE,
  COMPOSITE_QUEUE,
  FINGERPRINT_BACKFILL_QUEUE,
  IMPORT_QUEUE,
  type JobQueue,
  MAIL_NOTICE_QUEUE,
  MAIL_QUEUE,
  MEDIA_QUEUE,
  METADATA_BACKFILL_QUEUE,
  OBJECT_DELETION_QUEUE,
  REPORT_ROLLUP_QUEUE,
  STORAGE_MAINTENANCE_QUEUE,
  WEBHOOK_DISPATCH_QUEUE,
  WEBHOOK_QUEUE,
  WEBHOOK_SLOW_QUEUE,
} from '../../jobs/queue';
import type { Metrics } from './metrics';

/**
 * The job queue with every handler this process works timed into `dam_job_duration_seconds`: from
 * the handler's start to its end, one observation per job, `failed` when it threw. Everything else
 * (sending jobs, waiting for them in tests) is the queue's own.
 */
export function timedJobs(jobs: JobQueue, metrics: Pick<Metrics, 'observeJob'>): JobQueue {
  const timed =
    <Args extends unknown[], Result>(
      queue: string | ((...args: Args) => string),
      run: (...args: Args) => Promise<Result>,
    ) =>
    async (...args: Args): Promise<Result> => {
      const name = typeof queue === 'string' ? queue : queue(...args);
      const started = performance.now();
      let outcome: 'completed' | 'failed' = 'failed';
      try {
        const result = await run(...args);
        outcome = 'completed';
        return result;
      } finally {
        metrics.observeJob(name, outcome, (performance.now() - started) / 1000);
      }
    };
  return {
    ...jobs,
    workMedia: (handler, concurrency) => jobs.workMedia(timed(MEDIA_QUEUE, handler), concurrency),
    workObjectDeletions: ({ deleteObject, maintain }) =>
      jobs.workObjectDeletions({
        deleteObject: timed(OBJECT_DELETION_QUEUE, deleteObject),
        maintain: timed(STORAGE_MAINTENANCE_QUEUE, maintain),
      }),
    workReportRollup: (handler) => jobs.workReportRollup(timed(REPORT_ROLLUP_QUEUE, handler)),
    workFingerprintBackfill: (batch) =>
      jobs.workFingerprintBackfill(timed(FINGERPRINT_BACKFILL_QUEUE, batch)),
    workMetadataBackfill: (batch) => jobs.workMetadataBackfill(timed(METADATA_BACKFILL_QUEUE, batch)),
    workAssetChangesSweep: (handler) => jobs.workAssetChangesSweep(timed(ASSET_CHANGES_SWEEP_QUEUE, handler)),
    workMail: (handler) => jobs.workMail(timed(MAIL_QUEUE, handler)),
    workMailNotices: (pass) => jobs.workMailNotices(timed(MAIL_NOTICE_QUEUE, pass)),
    workImports: (handler) => jobs.workImports(timed(IMPORT_QUEUE, handler)),
    workWebhooks: (handler) =>
      jobs.workWebhooks(
        timed((_deliveryId, lane) => (lane.quick ? WEBHOOK_QUEUE : WEBHOOK_SLOW_QUEUE), handler),
      ),
    workWebhookDispatch: (pass) => jobs.workWebhookDispatch(timed(WEBHOOK_DISPATCH_QUEUE, pass)),
    workComposite: (handler, lanes) => jobs.workComposite(timed(COMPOSITE_QUEUE, handler), lanes),
  };
}
