import { z } from 'zod';
import {
  addChannelTagRequestSchema,
  channelTagListQuerySchema,
  channelTagListSchema,
  channelTagSchema,
  deleteChannelTagQuerySchema,
  deleteTagDimensionRequestSchema,
  listSkuTagQuerySchema,
  managedTagDimensionListSchema,
  managedTagDimensionSchema,
  modifyTagRequestSchema,
  modifyTagResultSchema,
  selectorTagsQuerySchema,
  selectorTagsResultSchema,
  setSkuTagRequestSchema,
  skuTagListSchema,
  skuTagSchema,
  sortTagDimensionsRequestSchema,
  tagModelExportRequestSchema,
  tagModelImportQuerySchema,
  tagModelImportResultSchema,
  tagsOfItemsRequestSchema,
  tagsOfItemsResultSchema,
  updateTagRequestSchema,
} from '../tags';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Tags and channel tags (SPEC §7 "Main API, selectors, SKU and tags"). */
export const tagsEndpoints = {
  tagSelector: defineEndpoint({
    ...routes.tagSelector,
    query: selectorTagsQuerySchema,
    reply: 'json',
    result: selectorTagsResultSchema,
  }),
  tagDimensions: defineEndpoint({
    ...routes.tagDimensions,
    reply: 'json',
    result: managedTagDimensionListSchema,
  }),
  saveTagDimension: defineEndpoint({
    ...routes.saveTagDimension,
    body: updateTagRequestSchema,
    reply: 'json',
    result: managedTagDimensionSchema,
  }),
  deleteTagDimension: defineEndpoint({
    ...routes.deleteTagDimension,
    body: deleteTagDimensionRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  sortTagDimensions: defineEndpoint({
    ...routes.sortTagDimensions,
    body: sortTagDimensionsRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  modifyItemTags: defineEndpoint({
    ...routes.modifyItemTags,
    body: modifyTagRequestSchema,
    reply: 'json',
    result: modifyTagResultSchema,
  }),
  tagsOfItems: defineEndpoint({
    ...routes.tagsOfItems,
    body: tagsOfItemsRequestSchema,
    reply: 'json',
    result: tagsOfItemsResultSchema,
  }),
  addChannelTag: defineEndpoint({
    ...routes.addChannelTag,
    body: addChannelTagRequestSchema,
    reply: 'json',
    result: channelTagSchema,
  }),
  channelTags: defineEndpoint({
    ...routes.channelTags,
    query: channelTagListQuerySchema,
    reply: 'json',
    result: channelTagListSchema,
  }),
  deleteChannelTag: defineEndpoint({
    ...routes.deleteChannelTag,
    query: deleteChannelTagQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  skuTags: defineEndpoint({
    ...routes.skuTags,
    query: listSkuTagQuerySchema,
    reply: 'json',
    result: skuTagListSchema,
  }),
  setSkuTags: defineEndpoint({
    ...routes.setSkuTags,
    body: setSkuTagRequestSchema,
    reply: 'json',
    result: skuTagSchema,
  }),
  /** The tag workbook of a date range (Excel). */
  exportTagWorkbook: defineEndpoint({
    ...routes.exportTagWorkbook,
    body: tagModelExportRequestSchema,
    reply: 'binary',
  }),
  /** A multipart/form-data upload of one workbook in the field `file` (no JSON body). */
  importTagWorkbook: defineEndpoint({
    ...routes.importTagWorkbook,
    query: tagModelImportQuerySchema,
    reply: 'json',
    result: tagModelImportResultSchema,
  }),
};
