import {
  batchDeleteRequestSchema,
  batchMoveRequestSchema,
  checkViewFolderRequestSchema,
  createFolderRequestSchema,
  createFolderResultSchema,
  envelopeSchema,
  folderListingRequestSchema,
  folderListingResultSchema,
  folderNodeSchema,
  folderSelectorRequestSchema,
  idsQuerySchema,
  itemIdQuerySchema,
  itemSchema,
  OperationCode,
  pagedItemsSchema,
  pagedRecycledSchema,
  pagingSchema,
  updateFolderRequestSchema,
} from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { ItemsService } from './service';

const nothing = envelopeSchema(z.null());

/** Query strings carry lists as `a=1,2` or `a=1&a=2`; bodies carry JSON arrays. */
const listingQuerySchema = z.preprocess((raw) => {
  const query = { ...(raw as Record<string, unknown>) };
  const tags = query.tagIdList;
  if (typeof tags === 'string') query.tagIdList = tags.split(',').filter(Boolean);
  return query;
}, folderListingRequestSchema);

/** Folders and files, the recycle bin, favourites, recently viewed and my uploads (SPEC §7). */
export const itemsRoutes: FastifyPluginAsync<{ items: ItemsService; oplog: OperationRecorder }> = async (
  app,
  { items, oplog },
) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/v1_0/file/creat-folder',
    {
      schema: {
        body: createFolderRequestSchema,
        response: { 200: envelopeSchema(createFolderResultSchema) },
      },
    },
    async (request) => {
      const created = await items.createFolder(authOf(request), request.body);
      await oplog.record(request, OperationCode.createFolder, { items: [created.folderId] });
      return ok(created);
    },
  );

  routes.post(
    '/v1_0/file/update-folder',
    { schema: { body: updateFolderRequestSchema, response: { 200: nothing } } },
    async (request) => {
      const subject = { items: [request.body.folderDataId] };
      await oplog.around(request, OperationCode.edit, subject, () =>
        items.updateFolder(authOf(request), request.body),
      );
      return ok(null);
    },
  );

  routes.get(
    '/v1_0/file/selector-v2',
    {
      schema: {
        querystring: folderSelectorRequestSchema,
        response: { 200: envelopeSchema(z.array(folderNodeSchema)) },
      },
    },
    async (request) => ok(await items.folderSelector(authOf(request), request.query.currentFolderId)),
  );

  routes.get(
    '/v1_0/file/all-file-v2',
    {
      schema: {
        querystring: listingQuerySchema,
        response: { 200: envelopeSchema(folderListingResultSchema) },
      },
    },
    async (request) => ok(await items.listFolder(authOf(request), request.query)),
  );

  routes.post(
    '/v1_0/file/folder',
    {
      schema: {
        body: folderListingRequestSchema.partial().default({}),
        querystring: pagingSchema.partial(),
        response: { 200: envelopeSchema(folderListingResultSchema) },
      },
    },
    async (request) => {
      // SPEC §7: "body and params": paging may come in the query string, the filter in the body.
      const merged = folderListingRequestSchema.parse({ ...request.body, ...request.query });
      return ok(await items.listFolder(authOf(request), merged));
    },
  );

  routes.post(
    '/v1_0/file/check-view-folder',
    {
      schema: {
        body: checkViewFolderRequestSchema,
        response: {
          200: envelopeSchema(z.object({ canView: z.literal(true), folder: itemSchema.nullable() })),
        },
      },
    },
    async (request) => ok(await items.openFolder(authOf(request), request.body.folderDataId)),
  );

  routes.post(
    '/v1_0/file/batch-move',
    { schema: { body: batchMoveRequestSchema, response: { 200: nothing } } },
    async (request) => {
      const subject = { items: request.body.folderDataIdList };
      await oplog.around(request, OperationCode.move, subject, () =>
        items.batchMove(authOf(request), request.body),
      );
      return ok(null);
    },
  );

  routes.post(
    '/v1_0/file/batch-del',
    { schema: { body: batchDeleteRequestSchema, response: { 200: nothing } } },
    async (request) => {
      const ids = [...request.body.idList, ...request.body.folderIdList];
      await items.batchDelete(authOf(request), ids);
      await oplog.record(request, OperationCode.delete, { items: ids });
      return ok(null);
    },
  );

  routes.post(
    '/v1_0/file-upload/user-uploaded',
    { schema: { querystring: pagingSchema, response: { 200: envelopeSchema(pagedItemsSchema) } } },
    async (request) => ok(await items.listMyUploads(authOf(request), request.query)),
  );

  routes.post(
    '/v1_0/resent-file/list',
    { schema: { querystring: pagingSchema, response: { 200: envelopeSchema(pagedItemsSchema) } } },
    async (request) => ok(await items.listRecent(authOf(request), request.query)),
  );

  // Favourites
  routes.get(
    '/v1_0/collect/file-collect',
    { schema: { querystring: itemIdQuerySchema, response: { 200: nothing } } },
    async (request) => {
      await items.collect(authOf(request), request.query.folderDataId);
      await oplog.record(request, OperationCode.collect, { items: [request.query.folderDataId] });
      return ok(null);
    },
  );
  routes.get(
    '/v1_0/collect/file-cancel-collect',
    { schema: { querystring: itemIdQuerySchema, response: { 200: nothing } } },
    async (request) => {
      await items.cancelCollect(authOf(request), request.query.folderDataId);
      await oplog.record(request, OperationCode.cancelCollect, { items: [request.query.folderDataId] });
      return ok(null);
    },
  );
  routes.post(
    '/v1_0/collect/file-collect-list',
    { schema: { querystring: pagingSchema, response: { 200: envelopeSchema(pagedItemsSchema) } } },
    async (request) => ok(await items.listCollected(authOf(request), request.query)),
  );

  // Recycle bin
  routes.get(
    '/v1_0/recycle/list',
    { schema: { querystring: pagingSchema, response: { 200: envelopeSchema(pagedRecycledSchema) } } },
    async (request) => ok(await items.listRecycle(authOf(request), request.query)),
  );
  routes.get(
    '/v1_0/recycle/batch-restore',
    { schema: { querystring: idsQuerySchema, response: { 200: nothing } } },
    async (request) => {
      await items.restore(authOf(request), request.query.ids);
      await oplog.record(request, OperationCode.restore, { items: request.query.ids });
      return ok(null);
    },
  );
  routes.get(
    '/v1_0/recycle/batch-del',
    { schema: { querystring: idsQuerySchema, response: { 200: nothing } } },
    async (request) => {
      const subject = { items: request.query.ids };
      await oplog.around(request, OperationCode.purge, subject, () =>
        items.purge(authOf(request), request.query.ids),
      );
      return ok(null);
    },
  );
  routes.post('/v1_0/recycle/clear', { schema: { response: { 200: nothing } } }, async (request) => {
    const subject = { recycleBinOf: authOf(request).userId, details: { emptied: true } };
    await oplog.around(request, OperationCode.purge, subject, () => items.clearRecycle(authOf(request)));
    return ok(null);
  });
};
