import { z } from 'zod';
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
import { routes } from './routes';

/** SKU master calls of SPEC §7 (selectors, SKU) and the article-number check of file names. */
export const skuEndpoints = {
  skuList: defineEndpoint({
    ...routes.skuList,
    query: skuListQuerySchema,
    body: skuListRequestSchema,
    reply: 'json',
    result: pagedSkusSchema,
  }),
  skuOptions: defineEndpoint({
    ...routes.skuOptions,
    query: skuSelectorQuerySchema,
    reply: 'json',
    result: z.array(skuOptionSchema),
  }),
  artNumSuggestions: defineEndpoint({
    ...routes.artNumSuggestions,
    query: artNumSuggestQuerySchema,
    reply: 'json',
    result: z.array(artNumSuggestionSchema),
  }),
  fileTagInfo: defineEndpoint({
    ...routes.fileTagInfo,
    body: fileTagInfoRequestSchema,
    reply: 'json',
    result: fileTagInfoResultSchema,
  }),
  checkSkus: defineEndpoint({
    ...routes.checkSkus,
    body: skuCheckRequestSchema,
    reply: 'json',
    result: skuCheckResultSchema,
  }),
  /** The Excel template to fill in. */
  skuImportTemplate: defineEndpoint({
    ...routes.skuImportTemplate,
    reply: 'binary',
  }),
  /** A multipart/form-data upload of one workbook in the field `file` (no JSON body). */
  importSkus: defineEndpoint({
    ...routes.importSkus,
    reply: 'json',
    result: skuImportResultSchema,
  }),
};
