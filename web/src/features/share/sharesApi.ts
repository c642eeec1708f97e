import type {
  CreateShareRequest,
  CreateShareResult,
  MyShareList,
  NewShareList,
  ShareDownloadRequest,
  ShareFolderRequest,
  ShareFolderResult,
  ShareVisit,
} from '@dam/contract';
import { SHARE_TOKEN_HEADER } from '@dam/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

const base = '/ske-api/v1_0';
export const sharesKey = ['shares'] as const;
const PAGE_SIZE = 20;

export function useCreateShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateShareRequest) =>
      api.post<CreateShareResult>(`${base}/user/share/produce-random-code`, body, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: sharesKey }),
  });
}

export function useMyShares() {
  return useInfiniteQuery({
    queryKey: [...sharesKey, 'mine'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.get<MyShareList>(`${base}/user/share/list`, { query: { pageNo: pageParam, pageSize: PAGE_SIZE } }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

export function useCancelShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.get<null>(`${base}/user/share/cancel-share`, { query: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: sharesKey }),
  });
}

export function useNewShares() {
  return useInfiniteQuery({
    queryKey: [...sharesKey, 'latest'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.post<NewShareList>(`${base}/file/new-share`, { pageNo: pageParam, pageSize: PAGE_SIZE }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

/** The full link of a share for copying: the server answers it relative to this origin. */
export function absoluteShareUrl(url: string): string {
  return new URL(url, window.location.origin).toString();
}

// ——— The visitor's calls (no sign-in: the link's code, then its visitor token) ———

const tokenKey = (code: string) => `share-token:${code}`;
export const storedVisitorToken = (code: string): string | null => sessionStorage.getItem(tokenKey(code));
export const storeVisitorToken = (code: string, token: string | null): void => {
  if (token) sessionStorage.setItem(tokenKey(code), token);
  else sessionStorage.removeItem(tokenKey(code));
};

const withToken = (code: string): Record<string, string> => {
  const token = storedVisitorToken(code);
  return token ? { [SHARE_TOKEN_HEADER]: token } : {};
};

export const visitorApi = {
  open: (code: string) =>
    api.get<ShareVisit>(`${base}/user/share/random/${encodeURIComponent(code)}`, {
      headers: withToken(code),
      silent: true,
    }),
  verify: (code: string, password: string) =>
    api.post<ShareVisit>(
      `${base}/user/share/random/${encodeURIComponent(code)}`,
      { password },
      { silent: true },
    ),
  folder: (code: string, request: ShareFolderRequest) =>
    api.post<ShareFolderResult>(`${base}/user/share/folder`, request, { headers: withToken(code) }),
  downloadTicket: (code: string, request: ShareDownloadRequest) =>
    api.post<{ url: string }>(`${base}/user/share/download-ticket`, request, { headers: withToken(code) }),
};
