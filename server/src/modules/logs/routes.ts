import { endpoints, LOG_EXPORT_MAX_ROWS, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from './recorder';
import type { LogsService } from './service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface LogsRoutesOptions {
  logs: LogsService;
  oplog: OperationRecorder;
  /** Rows of one export at most (LOG_EXPORT_MAX_ROWS; tests lower it). */
  exportMaxRows?: number;
}

/** The operation log (SPEC §2 /manage/log, §7 operator-log/add-log): signed-in callers. */
export const logsRoutes: FastifyPluginAsync<LogsRoutesOptions> = async (
  app,
  { logs, oplog, exportMaxRows = LOG_EXPORT_MAX_ROWS },
) => {
  // At most REPORTS_PER_MINUTE per person, counted in the database as every other limit.
  route(app, endpoints.reportOperation, async (request) => {
    const auth = authOf(request);
    await logs.report(
      auth,
      {
        userId: auth.userId,
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
      },
      request.body,
    );
    return null;
  });

  route(app, endpoints.operationLog, async (request) =>
    logs.list(authOf(request), request.body, request.lang),
  );

  route(app, endpoints.exportOperationLog, async (request, reply) => {
    const exported = await logs.export(authOf(request), request.query, request.lang, exportMaxRows);
    await oplog.record(request, OperationCode.exportLog, {
      details: { filter: request.query, rows: exported.rows, total: exported.total },
    });
    reply.header('content-type', XLSX_TYPE);
    reply.header(
      'content-disposition',
      `attachment; filename*=UTF-8''${encodeURIComponent(exported.fileName)}`,
    );
    return reply.send(exported.stream);
  });
};
