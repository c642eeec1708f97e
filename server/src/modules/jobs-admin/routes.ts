import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { JobsAdminService } from './service';

/**
 * The jobs screen (issue 40 item 4; /manage/jobs): the service checks function code 10. Every
 * action (retry, retry all, pause, resume, regenerate previews) is written to the operation log.
 */
export const jobsAdminRoutes: FastifyPluginAsync<{
  jobsAdmin: JobsAdminService;
  oplog: OperationRecorder;
}> = async (app, { jobsAdmin, oplog }) => {
  route(app, endpoints.jobsOverview, async (request) => jobsAdmin.overview(authOf(request)));
  route(app, endpoints.failedJobs, async (request) => jobsAdmin.failed(authOf(request), request.query.queue));
  route(app, endpoints.retryJob, async (request) => {
    const { queue, id } = request.body;
    const { retried, uploadId } = await jobsAdmin.retry(authOf(request), queue, id);
    await oplog.record(request, OperationCode.retryJob, {
      ...(uploadId === null ? {} : { uploads: [uploadId] }),
      newValue: queue,
      details: { queue, jobId: id },
    });
    return { retried };
  });
  route(app, endpoints.retryAllJobs, async (request) => {
    const { queue } = request.body;
    const result = await jobsAdmin.retryAll(authOf(request), queue);
    await oplog.record(request, OperationCode.retryAllJobs, {
      newValue: `${queue} × ${result.retried}`,
      details: { queue, retried: result.retried },
    });
    return result;
  });
  route(app, endpoints.pauseQueue, async (request) => {
    const { queue, paused } = request.body;
    const result = await jobsAdmin.setPaused(authOf(request), queue, paused);
    await oplog.record(request, paused ? OperationCode.pauseQueue : OperationCode.resumeQueue, {
      newValue: queue,
      details: { queue, changed: result.changed },
    });
    return { queue: result.queue, paused: result.paused };
  });
  route(app, endpoints.regeneratePreviews, async (request) => {
    const { item, ...result } = await jobsAdmin.regenerate(authOf(request), request.body.itemId);
    await oplog.record(request, OperationCode.regeneratePreviews, {
      items: [item.id],
      newValue: String(result.queued),
      details: result,
    });
    return result;
  });
};
