import { z } from 'zod';
import { MAIN_API_PREFIX } from '../constants';
import {
  artNumSuggestionSchema,
  artNumSuggestQuerySchema,
  fileTagInfoRequestSchema,
  fileTagInfoResultSchema,
  pagedSkusSchema,
  skuCheckRequestSchema,
  skuCheckResultSchema,
  skuImportResultSchema,
  skuListQuerySchema,
  skuListRequestSchema,
  skuOptionSchema,
  skuSelectorQuerySchema,
} from '../sku';
import { defineEndpoint } from './define';

/** SKU master calls of SPEC §7 (selectors, SKU) and the article-number check of file names. */
export const skuEndpoints = {
  skuList: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/sku/data/list`,
    query: skuListQuerySchema,
    body: skuListRequestSchema,
    reply: 'json',
    result: pagedSkusSchema,
  }),
  skuOptions: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/selector/sku-info`,
    query: skuSelectorQuerySchema,
    reply: 'json',
    result: z.array(skuOptionSchema),
  }),
  artNumSuggestions: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file/art-num`,
    query: artNumSuggestQuerySchema,
    reply: 'json',
    result: z.array(artNumSuggestionSchema),
  }),
  fileTagInfo: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/sku/file-tag-info`,
    body: fileTagInfoRequestSchema,
    reply: 'json',
    result: fileTagInfoResultSchema,
  }),
  checkSkus: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/sku/check`,
    body: skuCheckRequestSchema,
    reply: 'json',
    result: skuCheckResultSchema,
  }),
  /** The Excel template to fill in. */
  skuImportTemplate: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/sku/import-template`,
    reply: 'binary',
  }),
  /** A multipart/form-data upload of one workbook in the field `file` (no JSON body). */
  importSkus: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/sku/import`,
    reply: 'json',
    result: skuImportResultSchema,
  }),
};
