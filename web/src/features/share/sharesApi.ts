import { type EndpointBody, type Endpoints, SHARE_TOKEN_HEADER } from '@dam/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, call } from '../../api/client';
import { endpoints } from '../../api/endpoints';

const PAGE_SIZE = 20;
/** A share's folder is browsed like the grid: 60 a page. */
const VISIT_PAGE_SIZE = 60;

export const sharesKeys = {
  all: ['shares'] as const,
  mine: ['shares', 'mine'] as const,
  latest: ['shares', 'latest'] as const,
  /** The visitor's view of a link, and of one folder inside it. */
  visit: (code: string) => ['visit', code] as const,
  visitFolder: (code: string, folder: number | null) => ['visit', code, folder] as const,
};

export function useCreateShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<Endpoints['createShare']>) =>
      call(endpoints.createShare, { body, silent: true }),
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
    call(endpoints.visitShare, { params: { code }, headers: withToken(code), silent: true }),
  verify: (code: string, password: string) =>
    call(endpoints.unlockShare, { params: { code }, body: { password }, silent: true }),
  folder: (code: string, body: EndpointBody<Endpoints['shareFolder']>) =>
    call(endpoints.shareFolder, { body, headers: withToken(code) }),
  downloadTicket: (code: string, body: EndpointBody<Endpoints['shareDownloadTicket']>) =>
    call(endpoints.shareDownloadTicket, { body, headers: withToken(code) }),
};

/** What the link shows its visitor: a password prompt, or the shared files (SPEC §2 /visitfile). */
export function useShareVisit(code: string) {
  return useQuery({
    queryKey: sharesKeys.visit(code),
    queryFn: async () => {
      try {
        const answer = await visitorApi.open(code);
        if (answer.shareToken) storeVisitorToken(code, answer.shareToken);
        return answer;
      } catch (error) {
        // A visitor token that ran out: forget it and ask again (the password, if any).
        if (error instanceof ApiError && error.code === 'SESH_05' && storedVisitorToken(code)) {
          storeVisitorToken(code, null);
          return visitorApi.open(code);
        }
        throw error;
      }
    },
    enabled: code !== '',
    retry: false,
  });
}

/** One folder of a share (null: the shared items themselves), page by page. */
export function useSharedFolder(code: string, folder: number | null) {
  return useInfiniteQuery({
    queryKey: sharesKeys.visitFolder(code, folder),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      visitorApi.folder(code, {
        ...(folder === null ? {} : { folderId: folder }),
        pageNo: pageParam,
        pageSize: VISIT_PAGE_SIZE,
      }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}
