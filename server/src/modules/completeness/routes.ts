import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { CompletenessService } from './service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The SKU completeness report (issue 14) in the main API; the service checks function code 6. A
 * saved expectation is logged (SKU03) with the views it names.
 */
export const completenessRoutes: FastifyPluginAsync<{
  completeness: CompletenessService;
  oplog: OperationRecorder;
}> = async (app, { completeness, oplog }) => {
  route(app, endpoints.completenessConfig, async (request) => completeness.config(authOf(request)));
  route(app, endpoints.saveCompletenessConfig, async (request) => {
    await completeness.saveConfig(authOf(request), request.body);
    await oplog.record(request, OperationCode.setCompletenessViews, {
      details: {
        views: request.body.views.map((view) =>
          view.formats?.length ? `${view.name} (${view.formats.join('/')})` : view.name,
        ),
      },
    });
    return null;
  });
  route(app, endpoints.completenessFilterOptions, async (request) =>
    completeness.filterOptions(authOf(request)),
  );
  route(app, endpoints.completenessReport, async (request) =>
    completeness.report(authOf(request), request.body),
  );
  route(app, endpoints.exportCompleteness, async (request, reply) => {
    const exported = await completeness.export(authOf(request), request.body, request.lang);
    reply.header('content-type', XLSX_TYPE);
    reply.header(
      'content-disposition',
      `attachment; filename*=UTF-8''${encodeURIComponent(exported.fileName)}`,
    );
    return reply.send(exported.bytes);
  });
};
