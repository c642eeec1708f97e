import { z } from 'zod';
import { LIMITS } from './constants';
import { itemSchema, pagingSchema, rankStatusSchema } from './items';
import { hasMetadataFilter, metadataFilterFields, refineMetadataFilter } from './metadata-search';
import { reviewStateSchema } from './review-schemas';
import {
  BATCH_SEARCH_MAX_VALUES,
  cleanSingleQuery,
  SEARCH_FILE_TYPES,
  SEARCH_TYPES,
  SearchFileType,
  SearchType,
} from './search-values';
import { colourFilterFields } from './similar-values';

export * from './search-values';

/**
 * Global search (SPEC §2 Search bar, §3 Search content, §7 POST /v1_0/global/search).
 * The search bar opens `/?search=<JSON of SearchContent>&global=true`; the page posts it.
 */

const batchList = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(LIMITS.searchChars * 4, { error: 'tooLong' }),
  )
  .max(BATCH_SEARCH_MAX_VALUES, { error: 'tooBig' });

/** SPEC §3 Search content, plus paging. */
export const searchRequestSchema = pagingSchema
  .extend({
    searchType: z.coerce
      .number()
      .int()
      .refine((v) => (SEARCH_TYPES as number[]).includes(v), { error: 'invalidValue' })
      .transform((v) => v as SearchType),
    fileType: z.coerce
      .number()
      .int()
      .refine((v) => (SEARCH_FILE_TYPES as readonly number[]).includes(v), { error: 'invalidValue' })
      .default(SearchFileType.all)
      .transform((v) => v as SearchFileType),
    query: z.string().max(LIMITS.searchChars, { error: 'tooLong' }).transform(cleanSingleQuery).optional(),
    artNumList: batchList.optional(),
    nameList: batchList.optional(),
    rankStatus: rankStatusSchema,
    /** Files whose dominant colours are near this one (issue 17); a colour alone is a search. */
    ...colourFilterFields,
    /** Fields of the files' embedded metadata (issue 42); a metadata filter alone is a search too. */
    ...metadataFilterFields,
    /** Only files in this review state (issue 43 item 2). */
    reviewState: reviewStateSchema.optional(),
  })
  .superRefine((body, ctx) => {
    refineMetadataFilter(body, ctx);
    // SPEC §2: search is disabled when the single value or the batch list is empty.
    if (body.searchType === SearchType.title || body.searchType === SearchType.artNum) {
      if (!body.query && !body.colour && !hasMetadataFilter(body) && !body.reviewState)
        ctx.addIssue({ code: 'custom', path: ['query'], message: 'required' });
    } else if (body.searchType === SearchType.batchArtNums) {
      if (!body.artNumList?.length)
        ctx.addIssue({ code: 'custom', path: ['artNumList'], message: 'required' });
    } else if (!body.nameList?.length) {
      ctx.addIssue({ code: 'custom', path: ['nameList'], message: 'required' });
    }
  });
export type SearchRequest = z.input<typeof searchRequestSchema>;

export const searchResultSchema = z.object({
  list: z.array(itemSchema),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
  /** Batch searches: the values that matched nothing the caller can see (first page only). */
  unmatched: z.array(z.string()),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
