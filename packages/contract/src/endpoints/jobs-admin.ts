import {
  failedJobsQuerySchema,
  failedJobsSchema,
  jobsOverviewSchema,
  pauseQueueBodySchema,
  pauseQueueResultSchema,
  regeneratePreviewsBodySchema,
  regeneratePreviewsResultSchema,
  retriedSchema,
  retryAllJobsBodySchema,
  retryJobBodySchema,
} from '../jobs-admin';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** The jobs screen (issue 40 item 4; /manage/jobs, function code 10). */
export const jobsAdminEndpoints = {
  jobsOverview: defineEndpoint({ ...routes.jobsOverview, reply: 'json', result: jobsOverviewSchema }),
  failedJobs: defineEndpoint({
    ...routes.failedJobs,
    query: failedJobsQuerySchema,
    reply: 'json',
    result: failedJobsSchema,
  }),
  retryJob: defineEndpoint({
    ...routes.retryJob,
    body: retryJobBodySchema,
    reply: 'json',
    result: retriedSchema,
  }),
  retryAllJobs: defineEndpoint({
    ...routes.retryAllJobs,
    body: retryAllJobsBodySchema,
    reply: 'json',
    result: retriedSchema,
  }),
  pauseQueue: defineEndpoint({
    ...routes.pauseQueue,
    body: pauseQueueBodySchema,
    reply: 'json',
    result: pauseQueueResultSchema,
  }),
  regeneratePreviews: defineEndpoint({
    ...routes.regeneratePreviews,
    body: regeneratePreviewsBodySchema,
    reply: 'json',
    result: regeneratePreviewsResultSchema,
  }),
};
