import { z } from 'zod';
import {
  batchDeleteRequestSchema,
  batchMoveRequestSchema,
  checkViewFolderRequestSchema,
  createFolderRequestSchema,
  createFolderResultSchema,
  folderListingRequestSchema,
  folderListingResultSchema,
  folderNodeSchema,
  folderSelectorRequestSchema,
  idsQuerySchema,
  itemIdQuerySchema,
  itemSchema,
  pagedItemsSchema,
  pagedRecycledSchema,
  pagingSchema,
  updateFolderRequestSchema,
} from '../items';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** The listing filter in a query string: lists come as `a=1,2` or `a=1&a=2`, bodies carry JSON arrays. */
export const folderListingQuerySchema = z.preprocess((raw) => {
  const query = { ...(raw as Record<string, unknown>) };
  const tags = query.tagIdList;
  if (typeof tags === 'string') query.tagIdList = tags.split(',').filter(Boolean);
  return query;
}, folderListingRequestSchema);

/** POST file/folder: SPEC §7 "body and params": the filter in the body, paging possibly in the query. */
export const folderListingBodySchema = folderListingRequestSchema.partial().default({});
export const pagingQuerySchema = pagingSchema.partial();

export const openFolderResultSchema = z.object({ canView: z.literal(true), folder: itemSchema.nullable() });

/** Folders and files, the recycle bin, favourites, recently viewed and my uploads (SPEC §7). */
export const itemsEndpoints = {
  createFolder: defineEndpoint({
    ...routes.createFolder,
    body: createFolderRequestSchema,
    reply: 'json',
    result: createFolderResultSchema,
  }),
  updateFolder: defineEndpoint({
    ...routes.updateFolder,
    body: updateFolderRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  folderSelector: defineEndpoint({
    ...routes.folderSelector,
    query: folderSelectorRequestSchema,
    reply: 'json',
    result: z.array(folderNodeSchema),
  }),
  folderListing: defineEndpoint({
    ...routes.folderListing,
    query: folderListingQuerySchema,
    reply: 'json',
    result: folderListingResultSchema,
  }),
  /** The same listing as a POST (SPEC §7 file/folder). */
  folderListingByBody: defineEndpoint({
    ...routes.folderListingByBody,
    body: folderListingBodySchema,
    query: pagingQuerySchema,
    reply: 'json',
    result: folderListingResultSchema,
  }),
  openFolder: defineEndpoint({
    ...routes.openFolder,
    body: checkViewFolderRequestSchema,
    reply: 'json',
    result: openFolderResultSchema,
  }),
  moveItems: defineEndpoint({
    ...routes.moveItems,
    body: batchMoveRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  deleteItems: defineEndpoint({
    ...routes.deleteItems,
    body: batchDeleteRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  myUploads: defineEndpoint({
    ...routes.myUploads,
    query: pagingSchema,
    reply: 'json',
    result: pagedItemsSchema,
  }),
  recentFiles: defineEndpoint({
    ...routes.recentFiles,
    query: pagingSchema,
    reply: 'json',
    result: pagedItemsSchema,
  }),
  collectItem: defineEndpoint({
    ...routes.collectItem,
    query: itemIdQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  uncollectItem: defineEndpoint({
    ...routes.uncollectItem,
    query: itemIdQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  collectedItems: defineEndpoint({
    ...routes.collectedItems,
    query: pagingSchema,
    reply: 'json',
    result: pagedItemsSchema,
  }),
  recycleBin: defineEndpoint({
    ...routes.recycleBin,
    query: pagingSchema,
    reply: 'json',
    result: pagedRecycledSchema,
  }),
  restoreItems: defineEndpoint({
    ...routes.restoreItems,
    query: idsQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  purgeItems: defineEndpoint({
    ...routes.purgeItems,
    query: idsQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  emptyRecycleBin: defineEndpoint({
    ...routes.emptyRecycleBin,
    reply: 'json',
    result: z.null(),
  }),
};
