import {
  addChannelTagRequestSchema,
  channelTagListQuerySchema,
  channelTagListSchema,
  channelTagSchema,
  deleteChannelTagQuerySchema,
  deleteTagDimensionRequestSchema,
  ERROR_MESSAGES,
  envelopeSchema,
  fillTemplate,
  type Language,
  listSkuTagQuerySchema,
  managedTagDimensionListSchema,
  managedTagDimensionSchema,
  modifyTagRequestSchema,
  modifyTagResultSchema,
  OperationCode,
  selectorTagsQuerySchema,
  selectorTagsResultSchema,
  setSkuTagRequestSchema,
  skuTagListSchema,
  skuTagSchema,
  sortTagDimensionsRequestSchema,
  TAG_IMPORT_MAX_BYTES,
  tagModelExportRequestSchema,
  tagModelImportResultSchema,
  updateTagRequestSchema,
  VALIDATION_MESSAGES,
} from '@dam/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invalidField } from '../../http/app-error';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { ChannelTagsService } from './channel-tags';
import type { TagDimensionsService } from './dimensions';
import { type TagExchangeService, TagImportError } from './exchange';
import type { ItemTagsService } from './item-tags';
import type { SkuTagsService } from './sku-tags';

const nothing = envelopeSchema(z.null());
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The localised envelope of a refused tag import: the file's problem, or the row and column's. */
function importFailure(error: TagImportError, lang: Language) {
  const message = (code: TagImportError['code'], values: Record<string, string | number>) =>
    fillTemplate(ERROR_MESSAGES[lang]?.[code] ?? ERROR_MESSAGES.zh[code], values);
  const values: Record<string, string | number> = { ...error.values };
  if (error.code === 'SESK_06') values.max = `${TAG_IMPORT_MAX_BYTES / 1024 / 1024} MB`;
  if (error.detail) {
    const detail = error.detail;
    values.detail =
      'code' in detail
        ? message(detail.code, detail.values)
        : fillTemplate(
            VALIDATION_MESSAGES[lang]?.[detail.key] ?? VALIDATION_MESSAGES.zh[detail.key],
            detail.values,
          );
  }
  return { success: false, result: null, errorCode: error.code, errorDesc: message(error.code, values) };
}

/**
 * Tags and channel tags (SPEC §7 "Main API, selectors, SKU and tags" and file/modify-tag,
 * add-channel-tag, channel-tag, delete-channel-tag); management calls need function code 4.
 */
export const tagsRoutes: FastifyPluginAsync<{
  dimensions: TagDimensionsService;
  itemTags: ItemTagsService;
  channelTags: ChannelTagsService;
  skuTags: SkuTagsService;
  exchange: TagExchangeService;
  oplog: OperationRecorder;
}> = async (app, { dimensions, itemTags, channelTags, skuTags, exchange, oplog }) => {
  await app.register(multipart, {
    // Cut at the limit instead of failing mid-stream; the service reports SESK_06.
    throwFileSizeLimit: false,
    limits: { fileSize: TAG_IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024 },
  });
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/selector/tags',
    {
      schema: {
        querystring: selectorTagsQuerySchema,
        response: { 200: envelopeSchema(selectorTagsResultSchema) },
      },
    },
    async (request) => ok(await dimensions.selector(authOf(request), request.query.folderDataId)),
  );

  routes.get(
    '/v1_0/manage/tag-dimension/list',
    { schema: { response: { 200: envelopeSchema(managedTagDimensionListSchema) } } },
    async (request) => ok(await dimensions.manageList(authOf(request))),
  );

  routes.post(
    '/v1_0/manage/update-tag',
    {
      schema: { body: updateTagRequestSchema, response: { 200: envelopeSchema(managedTagDimensionSchema) } },
    },
    async (request) => {
      const saved = await dimensions.saveDimension(authOf(request), request.body);
      await oplog.record(request, OperationCode.updateTags, {
        newValue: saved.dimensionName,
        details: { dimensionId: saved.id, tags: saved.tagDTOList.map((tag) => tag.tagName) },
      });
      return ok(saved);
    },
  );

  routes.post(
    '/v1_0/manage/tag-dimension/delete',
    { schema: { body: deleteTagDimensionRequestSchema, response: { 200: nothing } } },
    async (request) => {
      await dimensions.deleteDimension(authOf(request), request.body.id);
      return ok(null);
    },
  );

  routes.post(
    '/v1_0/manage/tag-dimension/sort',
    { schema: { body: sortTagDimensionsRequestSchema, response: { 200: nothing } } },
    async (request) => {
      await dimensions.sortDimensions(authOf(request), request.body.idList);
      return ok(null);
    },
  );

  routes.post(
    '/v1_0/file/modify-tag',
    { schema: { body: modifyTagRequestSchema, response: { 200: envelopeSchema(modifyTagResultSchema) } } },
    async (request) => {
      const result = await itemTags.modifyTags(authOf(request), request.body);
      const items = request.body.folderDataIdList ?? [request.body.folderDataId as number];
      await oplog.record(request, OperationCode.updateTags, {
        items,
        newValue: request.body.tagIdList.join(','),
        details: { mode: request.body.mode, tagIdList: request.body.tagIdList },
      });
      return ok(result);
    },
  );

  routes.post(
    '/v1_0/file/add-channel-tag',
    { schema: { body: addChannelTagRequestSchema, response: { 200: envelopeSchema(channelTagSchema) } } },
    async (request) =>
      ok(
        await channelTags.addChannelTag(authOf(request), request.body.folderDataId, request.body.channelName),
      ),
  );

  routes.get(
    '/v1_0/file/channel-tag',
    {
      schema: {
        querystring: channelTagListQuerySchema,
        response: { 200: envelopeSchema(channelTagListSchema) },
      },
    },
    async (request) => ok(await channelTags.listChannelTags(authOf(request), request.query.folderDataId)),
  );

  routes.get(
    '/v1_0/file/delete-channel-tag',
    { schema: { querystring: deleteChannelTagQuerySchema, response: { 200: nothing } } },
    async (request) => {
      await channelTags.deleteChannelTag(authOf(request), request.query.id);
      return ok(null);
    },
  );

  routes.get(
    '/v1_0/file-upload/list-sku-tag',
    { schema: { querystring: listSkuTagQuerySchema, response: { 200: envelopeSchema(skuTagListSchema) } } },
    async (request) => ok(await skuTags.listSkuTags(authOf(request), request.query.artNumList)),
  );

  routes.post(
    '/v1_0/manage/sku-tag',
    { schema: { body: setSkuTagRequestSchema, response: { 200: envelopeSchema(skuTagSchema) } } },
    async (request) =>
      ok(await skuTags.setSkuTags(authOf(request), request.body.artNum, request.body.tagIdList)),
  );

  routes.post(
    '/v1_0/manage/tag-model-export',
    { schema: { body: tagModelExportRequestSchema } },
    async (request, reply) => {
      const chinese = request.lang === 'zh';
      const bytes = await exchange.exportWorkbook(authOf(request), request.body, chinese);
      const name = chinese ? '标签数据.xlsx' : 'tags.xlsx';
      reply.header('content-type', XLSX_TYPE);
      reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
      return reply.send(bytes);
    },
  );

  routes.post(
    '/v1_0/manage/tag-model-import',
    {
      // A workbook may take HTTP_UPLOAD_TIMEOUT_MS to arrive (http/connection-limits.ts).
      config: { longBody: true },
      schema: {
        response: { 200: envelopeSchema(tagModelImportResultSchema), 400: nothing, 413: nothing },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      // Refused before a byte of the workbook is read.
      exchange.requireTagManagement(auth);
      if (!request.isMultipart()) throw invalidField('content-type', 'invalidFormat');
      const part = await request.file();
      // SPEC §5: "import needs an Excel file".
      if (part?.fieldname !== 'file' || !part) throw invalidField('file', 'required');
      try {
        return ok(
          await exchange.importWorkbook(auth, { stream: part.file, truncated: () => part.file.truncated }),
        );
      } catch (error) {
        if (!(error instanceof TagImportError)) throw error;
        return reply.code(error.code === 'SESK_06' ? 413 : 400).send(importFailure(error, request.lang));
      }
    },
  );
};
