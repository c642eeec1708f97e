import { z } from 'zod';
import { LIMITS } from './constants';
import { itemSchema, pagingSchema, RankStatus, rankStatusSchema } from './items';

/**
 * Global search (SPEC §2 Search bar, §3 Search content, §7 POST /v1_0/global/search).
 * The search bar opens `/?search=<JSON of SearchContent>&global=true`; the page posts it.
 */
export const SearchType = { title: 1, artNum: 2, batchArtNums: 3, batchTitles: 4 } as const;
export type SearchType = (typeof SearchType)[keyof typeof SearchType];
export const SEARCH_TYPES = Object.values(SearchType);
export const isBatchSearch = (type: SearchType): boolean =>
  type === SearchType.batchArtNums || type === SearchType.batchTitles;

/** SPEC §2: the dropdown's fileType scopes (1 folders, 10 files, 2 images, 3 videos, 0 all). */
export const SearchFileType = { all: 0, folders: 1, files: 10, images: 2, videos: 3 } as const;
export type SearchFileType = (typeof SearchFileType)[keyof typeof SearchFileType];
export const SEARCH_FILE_TYPES = [0, 1, 10, 2, 3] as const;

/** At most this many values of one batch search (SPEC §9: the batch boxes allow 10000). */
export const BATCH_SEARCH_MAX_VALUES = 10_000;

/** SPEC §5: the dollar sign is stripped from the single search. */
export function cleanSingleQuery(value: string): string {
  return value.replaceAll('$', '').trim();
}

/** The values without repeats, ignoring case; the first spelling of each is kept. */
export function uniqueIgnoringCase(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** SPEC §5: pasted batch values are split on spaces (and line breaks); repeats are dropped. */
export function splitBatchValues(text: string): string[] {
  return uniqueIgnoringCase(text.split(/\s+/).filter(Boolean));
}

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
  })
  .superRefine((body, ctx) => {
    // SPEC §2: search is disabled when the single value or the batch list is empty.
    if (body.searchType === SearchType.title || body.searchType === SearchType.artNum) {
      if (!body.query) ctx.addIssue({ code: 'custom', path: ['query'], message: 'required' });
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

/** What the search bar puts in the URL (SPEC §2: fileType, query, rankStatus '1', searchType, lists). */
export interface SearchContent {
  fileType: SearchFileType;
  query: string;
  rankStatus: string;
  searchType: SearchType;
  artNumList: string[];
  nameList: string[];
}

/** Reads the `search` parameter of the results URL; null when it is missing or not a search. */
export function parseSearchContent(raw: string | null): SearchContent | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<SearchContent>;
    const searchType = Number(value.searchType) as SearchType;
    if (!(SEARCH_TYPES as number[]).includes(searchType)) return null;
    const fileType = Number(value.fileType ?? SearchFileType.all) as SearchFileType;
    const strings = (list: unknown) =>
      Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
    return {
      searchType,
      fileType: (SEARCH_FILE_TYPES as readonly number[]).includes(fileType) ? fileType : SearchFileType.all,
      query: typeof value.query === 'string' ? value.query : '',
      rankStatus: typeof value.rankStatus === 'string' ? value.rankStatus : RankStatus.up,
      artNumList: strings(value.artNumList),
      nameList: strings(value.nameList),
    };
  } catch {
    return null;
  }
}
