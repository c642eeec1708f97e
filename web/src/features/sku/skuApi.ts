import { useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';

const PAGE_SIZE = 50;

/**
 * Everything under `all` (the upload dialog's article checks included) is stale after an import
 * (import management invalidates it when an import is applied).
 */
export const skuKeys = {
  all: ['sku'] as const,
  list: (query: string) => ['sku', 'list', query] as const,
  fileTagInfo: (names: string[]) => ['sku', 'file-tag-info', names] as const,
  check: (artNums: string[]) => ['sku', 'check', artNums] as const,
};

/** The stored articles, page by page, optionally filtered. */
export function useSkuList(query: string) {
  return useInfiniteQuery({
    queryKey: skuKeys.list(query),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(endpoints.skuList, {
        body: query ? { query } : {},
        query: { pageNo: pageParam, pageSize: PAGE_SIZE },
      }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}
