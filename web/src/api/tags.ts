import type { EndpointBody, Endpoints } from '@dam/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './client';
import { endpoints } from './endpoints';
import { filesKeys } from './items';

/** Every dimension with its tags, in selector order (the add-tag dialog; the listing filter shares it). */
export function useTagDimensions(enabled = true) {
  return useQuery({
    queryKey: filesKeys.tagSelector,
    queryFn: () => call(endpoints.tagSelector),
    enabled,
    staleTime: 60_000,
  });
}

/** The tags the SKU data gives these article numbers (suggestions in the add-tag dialog). */
export function useSkuTagSuggestions(artNums: string[]) {
  const wanted = [...new Set(artNums.map((a) => a.trim()).filter(Boolean))].slice(0, 50);
  return useQuery({
    queryKey: ['tags', 'sku', wanted],
    queryFn: () => call(endpoints.skuTags, { query: { artNumList: wanted } }),
    enabled: wanted.length > 0,
    staleTime: 60_000,
  });
}

/** Sets or adds tags on files and folders; the listings and open details are read again. */
export function useModifyTags() {
  const queryClient = useQueryClient();
  return async (body: EndpointBody<Endpoints['modifyItemTags']>) => {
    const result = await call(endpoints.modifyItemTags, { body, silent: true });
    await queryClient.invalidateQueries({ queryKey: filesKeys.all });
    return result;
  };
}
