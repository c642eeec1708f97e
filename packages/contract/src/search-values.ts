import { RankStatus } from './items-values';

/**
 * Global search (SPEC §2 Search bar, §3 Search content): its constants and the search bar's
 * parsing, without zod (the request schema is in search.ts, which re-exports these), for the
 * web app's first pages (issue 10 item 7).
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
