import { z } from 'zod';
import { BACKFILL_KINDS, JOB_QUEUE_NAMES } from './jobs-admin-values';

export * from './jobs-admin-values';

/** The jobs screen (issue 40 item 4; /manage/jobs, function code 10). */

export const jobQueueSchema = z.enum(JOB_QUEUE_NAMES, { error: 'invalidValue' });

/** One queue: jobs waiting (queued or due for a retry), running, failed for good, done (retained ones). */
export const queueSummarySchema = z.object({
  queue: jobQueueSchema,
  waiting: z.number().int(),
  active: z.number().int(),
  failed: z.number().int(),
  completed: z.number().int(),
  /** Paused: no process takes its jobs until it is resumed (jobs still queue up). */
  paused: z.boolean(),
});
export type QueueSummary = z.infer<typeof queueSummarySchema>;

/** A back-fill: how many of the records it covers are done. */
export const backfillProgressSchema = z.object({
  kind: z.enum(BACKFILL_KINDS),
  done: z.number().int(),
  total: z.number().int(),
});
export type BackfillProgressSummary = z.infer<typeof backfillProgressSchema>;

export const jobsOverviewSchema = z.object({
  queues: z.array(queueSummarySchema),
  backfills: z.array(backfillProgressSchema),
});
export type JobsOverview = z.infer<typeof jobsOverviewSchema>;

/** `GET /v1_0/manage/jobs/failed?queue=`: the newest failed jobs of a queue. */
export const failedJobsQuerySchema = z.object({ queue: jobQueueSchema });

export const failedJobSchema = z.object({
  id: z.string(),
  queue: jobQueueSchema,
  /** The error of its last attempt, as the handler threw it. */
  error: z.string().nullable(),
  failedAt: z.string().nullable(),
  attempts: z.number().int(),
  /**
   * The file a media job concerns: its upload record and, when the caller may see it, the file's
   * id and name (null otherwise, or when the file is gone).
   */
  file: z
    .object({ uploadId: z.number().int(), itemId: z.number().int().nullable(), name: z.string().nullable() })
    .nullable(),
});
export type FailedJob = z.infer<typeof failedJobSchema>;
export const failedJobsSchema = z.object({ list: z.array(failedJobSchema), total: z.number().int() });
export type FailedJobs = z.infer<typeof failedJobsSchema>;

export const retryJobBodySchema = z.object({ queue: jobQueueSchema, id: z.uuid({ error: 'invalidValue' }) });
export const retryAllJobsBodySchema = z.object({ queue: jobQueueSchema });
export const retriedSchema = z.object({ retried: z.number().int() });

export const pauseQueueBodySchema = z.object({ queue: jobQueueSchema, paused: z.boolean() });
export const pauseQueueResultSchema = z.object({ queue: jobQueueSchema, paused: z.boolean() });

/** A file (its every version) or a folder (every file version below it, up to REGENERATE_PREVIEWS_MAX). */
export const regeneratePreviewsBodySchema = z.object({ itemId: z.number().int().positive() });
export const regeneratePreviewsResultSchema = z.object({
  /** Media jobs queued now. */
  queued: z.number().int(),
  /** Records whose media job was already waiting or running: not queued twice. */
  alreadyPending: z.number().int(),
});
export type RegeneratePreviewsResult = z.infer<typeof regeneratePreviewsResultSchema>;
