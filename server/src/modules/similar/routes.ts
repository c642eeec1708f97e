import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { DuplicateReportService } from './report';
import type { SimilarService } from './service';
import { duplicateWorkbook } from './workbook';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Near-duplicates and similar images (issue 17) in the main API: the upload dialog's check, the
 * upload panel's check after the upload, and a file's "similar images". Session callers only.
 */
export const similarRoutes: FastifyPluginAsync<{
  similar: SimilarService;
  duplicates: DuplicateReportService;
  oplog: OperationRecorder;
}> = async (app, { similar, duplicates, oplog }) => {
  route(app, endpoints.similarCheck, async (request) => similar.check(authOf(request), request.body.files));
  route(app, endpoints.similarAfterUpload, async (request) =>
    similar.afterUpload(authOf(request), request.body.idList),
  );
  route(app, endpoints.similarOfFile, async (request) =>
    similar.ofFile(authOf(request), Number(request.query.folderDataId)),
  );
  route(app, endpoints.similarOfSelection, async (request) =>
    similar.ofSelection(authOf(request), request.body.folderDataIdList),
  );
  // The duplicate report (function code 6, checked by the service).
  route(app, endpoints.duplicateReport, async (request) =>
    duplicates.report(authOf(request), request.body, request.query),
  );
  route(app, endpoints.exportDuplicateReport, async (request, reply) => {
    const report = await duplicates.all(authOf(request), request.body);
    const { clusters } = report;
    const lang = request.lang === 'en' ? 'en' : 'zh';
    const bytes = await duplicateWorkbook({ ...report, exportedAt: new Date() }, lang);
    await oplog.record(request, OperationCode.exportDuplicates, {
      details: { clusters: clusters.length },
    });
    const fileName = lang === 'en' ? 'near-duplicates.xlsx' : '相似图片.xlsx';
    reply.header('content-type', XLSX_TYPE);
    reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`);
    return reply.send(bytes);
  });
};
