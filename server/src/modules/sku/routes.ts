import { endpoints, OperationCode, SKU_IMPORT_MAX_BYTES } from '@dam/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { invalidField } from '../../http/app-error';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { SkuService } from './service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** SKU master calls of SPEC §7 (selectors, SKU) and the article-number check of file names. */
export const skuRoutes: FastifyPluginAsync<{ sku: SkuService; oplog: OperationRecorder }> = async (
  app,
  { sku, oplog },
) => {
  await app.register(multipart, {
    // Cut at the limit instead of failing mid-stream; the service reports SESK_06.
    throwFileSizeLimit: false,
    limits: { fileSize: SKU_IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024 },
  });

  route(app, endpoints.skuList, async (request) =>
    sku.list(authOf(request), request.body?.query, request.query),
  );
  route(app, endpoints.skuOptions, async (request) => sku.options(authOf(request), request.query.query));
  route(app, endpoints.artNumSuggestions, async (request) =>
    sku.suggest(authOf(request), request.query.artNum),
  );
  route(app, endpoints.fileTagInfo, async (request) =>
    sku.fileTagInfo(authOf(request), request.body.nameList),
  );
  route(app, endpoints.checkSkus, async (request) => sku.check(authOf(request), request.body.artNumList));

  route(app, endpoints.skuImportTemplate, async (request, reply) => {
    const chinese = request.lang === 'zh';
    const bytes = await sku.template(authOf(request), chinese);
    const name = chinese ? '货号导入模板.xlsx' : 'sku-import-template.xlsx';
    reply.header('content-type', XLSX_TYPE);
    reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
    return reply.send(bytes);
  });

  route(
    app,
    endpoints.importSkus,
    // A workbook may take HTTP_UPLOAD_TIMEOUT_MS to arrive (http/connection-limits.ts).
    { config: { longBody: true } },
    async (request) => {
      const auth = authOf(request);
      // Refused before a byte of the workbook is read.
      sku.requireImport(auth);
      if (!request.isMultipart()) throw invalidField('content-type', 'invalidFormat');
      const part = await request.file();
      if (part?.fieldname !== 'file' || !part) throw invalidField('file', 'required');
      // A refused workbook throws SkuImportError (an AppError with the row): the error handler answers.
      const imported = await sku.importWorkbook(auth, {
        stream: part.file,
        truncated: () => part.file.truncated,
      });
      await oplog.record(request, OperationCode.importSku, {
        details: { ...imported, fileName: part.filename },
      });
      return imported;
    },
  );
};
