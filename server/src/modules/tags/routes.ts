import { endpoints, OperationCode, TAG_IMPORT_MAX_BYTES } from '@dam/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { invalidField } from '../../http/app-error';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { ChannelTagsService } from './channel-tags';
import type { TagDimensionsService } from './dimensions';
import type { TagExchangeService } from './exchange';
import type { ItemTagsService } from './item-tags';
import type { SkuTagsService } from './sku-tags';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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

  route(app, endpoints.tagSelector, async (request) =>
    dimensions.selector(authOf(request), request.query.folderDataId),
  );
  route(app, endpoints.tagDimensions, async (request) => dimensions.manageList(authOf(request)));

  route(app, endpoints.saveTagDimension, async (request) => {
    const saved = await dimensions.saveDimension(authOf(request), request.body);
    await oplog.record(request, OperationCode.updateTags, {
      newValue: saved.dimensionName,
      details: { dimensionId: saved.id, tags: saved.tagDTOList.map((tag) => tag.tagName) },
    });
    return saved;
  });

  route(app, endpoints.deleteTagDimension, async (request) => {
    await dimensions.deleteDimension(authOf(request), request.body.id);
    return null;
  });

  route(app, endpoints.sortTagDimensions, async (request) => {
    await dimensions.sortDimensions(authOf(request), request.body.idList);
    return null;
  });

  route(app, endpoints.modifyItemTags, async (request) => {
    const result = await itemTags.modifyTags(authOf(request), request.body);
    const items = request.body.folderDataIdList ?? [request.body.folderDataId as number];
    await oplog.record(request, OperationCode.updateTags, {
      items,
      newValue: request.body.tagIdList.join(','),
      details: {
        mode: request.body.mode,
        tagIdList: request.body.tagIdList,
        // Names as they were: the log reads "added tags: 2026 SS" even after a tag is renamed.
        tagNames: await itemTags.tagNames(request.body.tagIdList),
      },
    });
    return result;
  });

  route(app, endpoints.tagsOfItems, async (request) =>
    itemTags.tagsOfItems(authOf(request), request.body.folderDataIdList),
  );

  route(app, endpoints.addChannelTag, async (request) =>
    channelTags.addChannelTag(authOf(request), request.body.folderDataId, request.body.channelName),
  );
  route(app, endpoints.channelTags, async (request) =>
    channelTags.listChannelTags(authOf(request), request.query.folderDataId),
  );
  route(app, endpoints.deleteChannelTag, async (request) => {
    await channelTags.deleteChannelTag(authOf(request), request.query.id);
    return null;
  });

  route(app, endpoints.skuTags, async (request) =>
    skuTags.listSkuTags(authOf(request), request.query.artNumList),
  );
  route(app, endpoints.setSkuTags, async (request) =>
    skuTags.setSkuTags(authOf(request), request.body.artNum, request.body.tagIdList),
  );

  route(app, endpoints.exportTagWorkbook, async (request, reply) => {
    const chinese = request.lang === 'zh';
    const bytes = await exchange.exportWorkbook(authOf(request), request.body, chinese);
    const name = chinese ? '标签数据.xlsx' : 'tags.xlsx';
    reply.header('content-type', XLSX_TYPE);
    reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
    return reply.send(bytes);
  });

  route(
    app,
    endpoints.importTagWorkbook,
    // A workbook may take HTTP_UPLOAD_TIMEOUT_MS to arrive (http/connection-limits.ts).
    { config: { longBody: true } },
    async (request) => {
      const auth = authOf(request);
      // Refused before a byte of the workbook is read.
      exchange.requireTagManagement(auth);
      if (!request.isMultipart()) throw invalidField('content-type', 'invalidFormat');
      const part = await request.file();
      // SPEC §5: "import needs an Excel file".
      if (part?.fieldname !== 'file' || !part) throw invalidField('file', 'required');
      // A refused workbook throws TagImportError (an AppError with the row): the error handler answers.
      return exchange.importWorkbook(
        auth,
        { stream: part.file, truncated: () => part.file.truncated },
        { dryRun: request.query.dryRun, lang: request.lang },
      );
    },
  );
};
