import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { MakerService } from './maker.service';

/**
 * The maker of detail pages (issue 16) in the main API: any signed-in user composes; the service
 * checks what each call touches. A started job is logged (IMG01) with its template and target.
 */
export const makerRoutes: FastifyPluginAsync<{ maker: MakerService; oplog: OperationRecorder }> = async (
  app,
  { maker, oplog },
) => {
  route(app, endpoints.makerPlan, async (request) => maker.plan(authOf(request), request.body, request.lang));
  route(app, endpoints.makerArticle, async (request) =>
    maker.article(authOf(request), request.body, request.lang),
  );
  route(app, endpoints.makerImage, async (request) => {
    const started = await maker.start(authOf(request), request.body);
    await oplog.record(request, OperationCode.composeStart, startSubject(started));
    return { jobId: started.jobId };
  });
  route(app, endpoints.checkMakerImageStatus, async (request) =>
    maker.status(authOf(request), request.query.jobId),
  );
  route(app, endpoints.getUserSend, async (request) => maker.list(authOf(request), request.body));
  route(app, endpoints.refreshUserSend, async (request) => {
    const started = await maker.refresh(authOf(request), request.body);
    await oplog.record(request, OperationCode.composeStart, startSubject(started, request.body.jobId));
    return { jobId: started.jobId };
  });
  route(app, endpoints.cancelMakerImage, async (request) => {
    await maker.cancel(authOf(request), request.body.jobId);
    return null;
  });
  route(app, endpoints.makerDownloadTicket, async (request) => ({
    url: await maker.downloadLink(authOf(request), request.body),
  }));
};

function startSubject(
  started: Awaited<ReturnType<MakerService['start']>>,
  retryOf?: number,
): { items?: number[]; details: Record<string, unknown> } {
  return {
    ...(started.targetFolderId === null ? {} : { items: [started.targetFolderId] }),
    details: {
      job: started.jobId,
      template: started.templateName,
      version: started.version,
      articles: started.articleCount,
      ...(retryOf === undefined ? {} : { retryOf }),
    },
  };
}
