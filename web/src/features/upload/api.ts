import { type EndpointBody, type Endpoints, PAGE_SIZE_MAX, type UploadRecord } from '@dam/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { skuKeys } from '../sku';

/** Under `all`: the upload manager refreshes these when a task finishes or its list is checked. */
export const uploadKeys = {
  all: ['upload-records'] as const,
  interrupted: ['upload-records', 'interrupted'] as const,
  history: ['upload-records', 'history'] as const,
};

/** The article numbers found in the file names, in the order of the names. */
export function useArtNumsInNames(names: string[]) {
  return useQuery({
    queryKey: skuKeys.fileTagInfo(names),
    queryFn: () => call(endpoints.fileTagInfo, { body: { nameList: names }, silent: true }),
    enabled: names.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Which of the typed article numbers the SKU data does not know. */
export function useSkuCheck(artNums: string[]) {
  return useQuery({
    queryKey: skuKeys.check(artNums),
    queryFn: () => call(endpoints.checkSkus, { body: { artNumList: artNums }, silent: true }),
    enabled: artNums.length > 0,
    staleTime: 30_000,
  });
}

/** Creates the upload records of a batch (SPEC §4 step 1); the caller shows a refusal. */
export const createUploads = (body: EndpointBody<Endpoints['createUploads']>) =>
  call(endpoints.createUploads, { body, silent: true });

/** Every unfinished upload of the user: a whole folder of thousands may have been cut off at once. */
export function useUnfinishedUploads() {
  return useQuery({
    queryKey: uploadKeys.interrupted,
    queryFn: async () => {
      const all: UploadRecord[] = [];
      for (let pageNo = 1; ; pageNo++) {
        const page = await call(endpoints.unfinishedUploads, {
          query: { pageNo, pageSize: PAGE_SIZE_MAX },
          silent: true,
        });
        all.push(...page.list);
        if (!page.hasMore) return all;
      }
    },
  });
}

export function useUploadHistory() {
  return useInfiniteQuery({
    queryKey: uploadKeys.history,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(endpoints.finishedUploads, { query: { pageNo: pageParam, pageSize: 50 } }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
    // A mail notice on its way, or due within two minutes, is followed until it has gone.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.list.some((r) => noticeUnderWay(r.mailNotice)))
        ? 5_000
        : false,
  });
}

/** The mail groups the user may send a notice to (SPEC §7 user/mail-group-list). */
export function useUsableMailGroups(enabled: boolean) {
  return useQuery({
    queryKey: ['mail-notice', 'groups'],
    queryFn: () => call(endpoints.mailGroupList, { query: {}, silent: true }),
    enabled,
    staleTime: 60_000,
  });
}

/** The colleagues the user may notify, by name or address. */
export function useNotifiableUsers(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: ['mail-notice', 'users', keyword],
    queryFn: () => call(endpoints.mailNoticeRecipients, { query: keyword ? { keyword } : {}, silent: true }),
    enabled,
    staleTime: 30_000,
    placeholderData: (previous) => previous,
  });
}

/** SPEC §4 step 3: the batch's mail notice; the caller shows a refusal (the upload goes on). */
export const scheduleMailNotice = (body: EndpointBody<Endpoints['mailNotice']>) =>
  call(endpoints.mailNotice, { body, silent: true });

function noticeUnderWay(notice: UploadRecord['mailNotice']): boolean {
  if (notice?.state === 'sending') return true;
  return (
    notice?.state === 'scheduled' && notice.dueAt !== null && Date.parse(notice.dueAt) - Date.now() < 120_000
  );
}
