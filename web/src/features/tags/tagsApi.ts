import type { EndpointBody, Endpoints } from '@dam/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';

/** Everything under `all` (the listing filter's tag selector included) is stale after a change. */
export const tagsKeys = {
  all: ['tags'] as const,
  manage: ['tags', 'manage'] as const,
};

export function useDimensions() {
  return useQuery({ queryKey: tagsKeys.manage, queryFn: () => call(endpoints.tagDimensions) });
}

export function useSaveDimension() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<Endpoints['saveTagDimension']>) =>
      call(endpoints.saveTagDimension, { body, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: tagsKeys.all }),
  });
}

export function useDeleteDimension() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(endpoints.deleteTagDimension, { body: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: tagsKeys.all }),
  });
}
