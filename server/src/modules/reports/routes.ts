import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { ReportsService } from './service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Data reports (SPEC §2 /manage/data-table, function code 6, checked by the service). */
export const reportsRoutes: FastifyPluginAsync<{ reports: ReportsService }> = async (app, { reports }) => {
  route(app, endpoints.dataReport, async (request) => reports.report(authOf(request), request.body));

  route(app, endpoints.exportDataReport, async (request, reply) => {
    const exported = await reports.export(authOf(request), request.query, request.lang);
    reply.header('content-type', XLSX_TYPE);
    reply.header(
      'content-disposition',
      `attachment; filename*=UTF-8''${encodeURIComponent(exported.fileName)}`,
    );
    return reply.send(exported.workbook);
  });
};
