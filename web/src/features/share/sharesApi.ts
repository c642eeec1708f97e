import type { EndpointBody, Endpoints } from '@dam/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';

const PAGE_SIZE = 20;

export const sharesKeys = {
  all: ['shares'] as const,
  mine: ['shares', 'mine'] as const,
  latest: ['shares', 'latest'] as const,
};

export function useCreateShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<Endpoints['createShare']>) =>
      call(endpoints.createShare, { body, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: sharesKeys.all }),
  });
}

/** A live link of a collection (issue 43): it shows the collection's items of each visit. */
export function useShareCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<Endpoints['shareCollection']>) =>
      call(endpoints.shareCollection, { body, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: sharesKeys.all }),
  });
}

export function useMyShares() {
  return useInfiniteQuery({
    queryKey: sharesKeys.mine,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(endpoints.myShares, { query: { pageNo: pageParam, pageSize: PAGE_SIZE } }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

export function useCancelShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(endpoints.cancelShare, { query: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: sharesKeys.all }),
  });
}

export function useNewShares() {
  return useInfiniteQuery({
    queryKey: sharesKeys.latest,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(endpoints.latestShares, { body: { pageNo: pageParam, pageSize: PAGE_SIZE } }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

/** The full link of a share for copying: the server answers it relative to this origin. */
export function absoluteShareUrl(url: string): string {
  return new URL(url, window.location.origin).toString();
}
