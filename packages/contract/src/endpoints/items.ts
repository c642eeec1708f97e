import { z } from 'zod';
import { MAIN_API_PREFIX } from '../constants';
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
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/creat-folder`,
    body: createFolderRequestSchema,
    reply: 'json',
    result: createFolderResultSchema,
  }),
  updateFolder: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/update-folder`,
    body: updateFolderRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  folderSelector: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file/selector-v2`,
    query: folderSelectorRequestSchema,
    reply: 'json',
    result: z.array(folderNodeSchema),
  }),
  folderListing: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file/all-file-v2`,
    query: folderListingQuerySchema,
    reply: 'json',
    result: folderListingResultSchema,
  }),
  /** The same listing as a POST (SPEC §7 file/folder). */
  folderListingByBody: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/folder`,
    body: folderListingBodySchema,
    query: pagingQuerySchema,
    reply: 'json',
    result: folderListingResultSchema,
  }),
  openFolder: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/check-view-folder`,
    body: checkViewFolderRequestSchema,
    reply: 'json',
    result: openFolderResultSchema,
  }),
  moveItems: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/batch-move`,
    body: batchMoveRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  deleteItems: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/batch-del`,
    body: batchDeleteRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  myUploads: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file-upload/user-uploaded`,
    query: pagingSchema,
    reply: 'json',
    result: pagedItemsSchema,
  }),
  recentFiles: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/resent-file/list`,
    query: pagingSchema,
    reply: 'json',
    result: pagedItemsSchema,
  }),
  collectItem: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/collect/file-collect`,
    query: itemIdQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  uncollectItem: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/collect/file-cancel-collect`,
    query: itemIdQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  collectedItems: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/collect/file-collect-list`,
    query: pagingSchema,
    reply: 'json',
    result: pagedItemsSchema,
  }),
  recycleBin: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/recycle/list`,
    query: pagingSchema,
    reply: 'json',
    result: pagedRecycledSchema,
  }),
  restoreItems: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/recycle/batch-restore`,
    query: idsQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  purgeItems: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/recycle/batch-del`,
    query: idsQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  emptyRecycleBin: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/recycle/clear`,
    reply: 'json',
    result: z.null(),
  }),
};
