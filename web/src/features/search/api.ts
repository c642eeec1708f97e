import { isBatchSearch, pickMetadataFilter, type ReviewState, SearchType } from '@dam/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { PAGE_SIZE, type SortState } from '../../api/items';
import type { WebSearch } from './searchUrl';

export const searchKeys = {
  // Under the files key: any change to files refreshes open results too.
  results: (content: WebSearch, sort: SortState, reviewState?: ReviewState) =>
    ['files', 'search', content, sort, reviewState ?? null] as const,
  artNumSuggestions: (artNum: string) => ['art-num-suggest', artNum] as const,
};

/** A global search, page by page (SPEC §7 global/search); only files in `reviewState` when given (issue 43). */
export function useSearch(content: WebSearch, sort: SortState, reviewState?: ReviewState) {
  return useInfiniteQuery({
    queryKey: searchKeys.results(content, sort, reviewState),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(endpoints.search, {
        body: {
          searchType: content.searchType,
          fileType: content.fileType,
          ...(isBatchSearch(content.searchType)
            ? content.searchType === SearchType.batchArtNums
              ? { artNumList: content.artNumList }
              : { nameList: content.nameList }
            : { query: content.query }),
          ...(content.colour
            ? {
                colour: content.colour,
                ...(content.colourTolerance ? { colourTolerance: content.colourTolerance } : {}),
              }
            : {}),
          ...pickMetadataFilter(content),
          ...(reviewState ? { reviewState } : {}),
          rankStatus: sort,
          pageNo: pageParam,
          pageSize: PAGE_SIZE,
        },
      }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

/** Article numbers starting with what is typed (empty: none asked for). */
export function useArtNumSuggestions(artNum: string) {
  return useQuery({
    queryKey: searchKeys.artNumSuggestions(artNum),
    queryFn: () => call(endpoints.artNumSuggestions, { query: { artNum }, silent: true }),
    enabled: artNum !== '',
    staleTime: 30_000,
  });
}
