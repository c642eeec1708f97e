/**
 * The jobs screen (issue 40 item 4; /manage/jobs, function code 10): the queues it shows and its
 * limits, apart from the request schemas so the web app's page carries no zod.
 */

/** Every pg-boss queue of server/src/jobs/queue.ts, in the order the screen lists them. */
export const JOB_QUEUE_NAMES = [
  'media',
  'composite',
  'mail',
  'mail-notice',
  'import',
  'webhook-dispatch',
  'webhook',
  'webhook-slow',
  'object-deletion',
  'storage-maintenance',
  'fingerprint-backfill',
  'metadata-backfill',
  'report-rollup',
  'asset-changes-sweep',
  'backup',
] as const;
export type JobQueueName = (typeof JOB_QUEUE_NAMES)[number];

/** Queues whose jobs name an upload record (`data.uploadId`): their failures show the file. */
export const FILE_JOB_QUEUES: readonly JobQueueName[] = ['media'];

/** At most this many upload records (versions) a "regenerate previews" of a folder queues (SEJB_01 above). */
export const REGENERATE_PREVIEWS_MAX = 1000;

/** The newest failed jobs of a queue the screen lists. */
export const FAILED_JOBS_SHOWN = 50;

/** Back-fills whose progress the screen shows. */
export const BACKFILL_KINDS = ['fingerprints', 'metadata', 'previews'] as const;
export type BackfillKind = (typeof BACKFILL_KINDS)[number];
