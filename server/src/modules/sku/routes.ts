import {
  artNumSuggestionSchema,
  artNumSuggestQuerySchema,
  ERROR_HTTP_STATUS,
  ERROR_MESSAGES,
  envelopeSchema,
  fileTagInfoRequestSchema,
  fileTagInfoResultSchema,
  fillTemplate,
  type Language,
  OperationCode,
  pagedSkusSchema,
  SKU_IMPORT_MAX_BYTES,
  skuCheckRequestSchema,
  skuCheckResultSchema,
  skuImportResultSchema,
  skuListQuerySchema,
  skuListRequestSchema,
  skuOptionSchema,
  skuSelectorQuerySchema,
} from '@dam/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invalidField } from '../../http/app-error';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import { SkuImportError, type SkuService } from './service';
import { templateHeader } from './workbook';

const refused = envelopeSchema(z.null());
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The localised envelope of a refused import, with row, column and limits filled in. */
function importFailure(error: SkuImportError, lang: Language) {
  const values: Record<string, string | number> = { ...error.values };
  if (error.field) values.column = templateHeader(error.field, lang === 'zh');
  if (error.code === 'SESK_06') values.max = `${SKU_IMPORT_MAX_BYTES / 1024 / 1024} MB`;
  const template = ERROR_MESSAGES[lang]?.[error.code] ?? ERROR_MESSAGES.zh[error.code];
  return {
    success: false,
    result: null,
    errorCode: error.code,
    errorDesc: fillTemplate(template, values),
  };
}

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
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/v1_0/sku/data/list',
    {
      schema: {
        querystring: skuListQuerySchema,
        body: skuListRequestSchema,
        response: { 200: envelopeSchema(pagedSkusSchema) },
      },
    },
    async (request) => ok(await sku.list(authOf(request), request.body?.query, request.query)),
  );

  routes.get(
    '/selector/sku-info',
    {
      schema: {
        querystring: skuSelectorQuerySchema,
        response: { 200: envelopeSchema(z.array(skuOptionSchema)) },
      },
    },
    async (request) => ok(await sku.options(authOf(request), request.query.query)),
  );

  routes.get(
    '/v1_0/file/art-num',
    {
      schema: {
        querystring: artNumSuggestQuerySchema,
        response: { 200: envelopeSchema(z.array(artNumSuggestionSchema)) },
      },
    },
    async (request) => ok(await sku.suggest(authOf(request), request.query.artNum)),
  );

  routes.post(
    '/v1_0/sku/file-tag-info',
    {
      schema: { body: fileTagInfoRequestSchema, response: { 200: envelopeSchema(fileTagInfoResultSchema) } },
    },
    async (request) => ok(await sku.fileTagInfo(authOf(request), request.body.nameList)),
  );

  routes.post(
    '/v1_0/sku/check',
    { schema: { body: skuCheckRequestSchema, response: { 200: envelopeSchema(skuCheckResultSchema) } } },
    async (request) => ok(await sku.check(authOf(request), request.body.artNumList)),
  );

  routes.get('/v1_0/sku/import-template', async (request, reply) => {
    const chinese = request.lang === 'zh';
    const bytes = await sku.template(authOf(request), chinese);
    const name = chinese ? '货号导入模板.xlsx' : 'sku-import-template.xlsx';
    reply.header('content-type', XLSX_TYPE);
    reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
    return reply.send(bytes);
  });

  routes.post(
    '/v1_0/sku/import',
    {
      // A workbook may take HTTP_UPLOAD_TIMEOUT_MS to arrive (http/connection-limits.ts).
      config: { longBody: true },
      schema: {
        response: { 200: envelopeSchema(skuImportResultSchema), 400: refused, 413: refused },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      // Refused before a byte of the workbook is read.
      sku.requireImport(auth);
      if (!request.isMultipart()) throw invalidField('content-type', 'invalidFormat');
      const part = await request.file();
      if (part?.fieldname !== 'file' || !part) throw invalidField('file', 'required');
      try {
        const imported = await sku.importWorkbook(auth, {
          stream: part.file,
          truncated: () => part.file.truncated,
        });
        await oplog.record(request, OperationCode.importSku, {
          details: { ...imported, fileName: part.filename },
        });
        return ok(imported);
      } catch (error) {
        if (!(error instanceof SkuImportError)) throw error;
        const status = ERROR_HTTP_STATUS[error.code] === 413 ? 413 : 400;
        return reply.code(status).send(importFailure(error, request.lang));
      }
    },
  );
};
