import { z } from 'zod';
import { MAIN_API_PREFIX } from '../constants';
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
  tagModelImportResultSchema,
  updateTagRequestSchema,
} from '../tags';
import { defineEndpoint } from './define';

/** Tags and channel tags (SPEC §7 "Main API, selectors, SKU and tags"). */
export const tagsEndpoints = {
  tagSelector: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/selector/tags`,
    query: selectorTagsQuerySchema,
    reply: 'json',
    result: selectorTagsResultSchema,
  }),
  tagDimensions: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/manage/tag-dimension/list`,
    reply: 'json',
    result: managedTagDimensionListSchema,
  }),
  saveTagDimension: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/manage/update-tag`,
    body: updateTagRequestSchema,
    reply: 'json',
    result: managedTagDimensionSchema,
  }),
  deleteTagDimension: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/manage/tag-dimension/delete`,
    body: deleteTagDimensionRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  sortTagDimensions: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/manage/tag-dimension/sort`,
    body: sortTagDimensionsRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  modifyItemTags: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/modify-tag`,
    body: modifyTagRequestSchema,
    reply: 'json',
    result: modifyTagResultSchema,
  }),
  addChannelTag: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/add-channel-tag`,
    body: addChannelTagRequestSchema,
    reply: 'json',
    result: channelTagSchema,
  }),
  channelTags: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file/channel-tag`,
    query: channelTagListQuerySchema,
    reply: 'json',
    result: channelTagListSchema,
  }),
  deleteChannelTag: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file/delete-channel-tag`,
    query: deleteChannelTagQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  skuTags: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file-upload/list-sku-tag`,
    query: listSkuTagQuerySchema,
    reply: 'json',
    result: skuTagListSchema,
  }),
  setSkuTags: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/manage/sku-tag`,
    body: setSkuTagRequestSchema,
    reply: 'json',
    result: skuTagSchema,
  }),
  /** The tag workbook of a date range (Excel). */
  exportTagWorkbook: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/manage/tag-model-export`,
    body: tagModelExportRequestSchema,
    reply: 'binary',
  }),
  /** A multipart/form-data upload of one workbook in the field `file` (no JSON body). */
  importTagWorkbook: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/manage/tag-model-import`,
    reply: 'json',
    result: tagModelImportResultSchema,
  }),
};
