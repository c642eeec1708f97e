import {
  type FolderListingResult,
  type FolderNode,
  type Item,
  ItemType,
  type PagedItems,
  type RankStatus,
  type RecycledItem,
} from '@dam/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export const PAGE_SIZE = 60;
const base = '/ske-api/v1_0';

/** The listing's sort toggle (SPEC §2), sent as rankStatus. */
export type SortState = RankStatus;

export interface ListingFilter {
  minCreatedAt?: string;
  maxCreatedAt?: string;
  minExpireTime?: string;
  maxExpireTime?: string;
  /** Items carrying these tags (tags of one dimension are alternatives; every dimension must match). */
  tagIdList?: number[];
}

export const filesKeys = {
  all: ['files'] as const,
  folder: (folderId: string, sort: SortState, filter: ListingFilter) =>
    ['files', 'folder', folderId, sort, filter] as const,
  list: (kind: string) => ['files', 'list', kind] as const,
  tree: (parent: string) => ['files', 'tree', parent] as const,
};

/** One folder, page by page (SPEC §2 infinite scroll). */
export function useFolderListing(folderId: string, sort: SortState, filter: ListingFilter) {
  return useInfiniteQuery({
    queryKey: filesKeys.folder(folderId, sort, filter),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.get<FolderListingResult>(`${base}/file/all-file-v2`, {
        query: {
          folderDataId: folderId,
          pageNo: pageParam,
          pageSize: PAGE_SIZE,
          rankStatus: sort,
          ...filter,
        },
      }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
    // Fresh uploads get their thumbnails from the media queue a moment later: look again until
    // they are there, so they appear without a reload.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.list.some(awaitingThumbnail)) ? 3000 : false,
  });
}

const THUMBNAIL_PATIENCE_MS = 5 * 60 * 1000;
function awaitingThumbnail(item: Item): boolean {
  return (
    item.type !== ItemType.folder &&
    item.compactUrl === null &&
    item.fileFormat !== null &&
    Date.now() - new Date(item.updatedAt).getTime() < THUMBNAIL_PATIENCE_MS &&
    /jpe?g|png|tiff?|psd|pdf|ai|bmp|gif|webp|mp4|mov|avi/.test(item.fileFormat)
  );
}

export type ListKind = 'recent' | 'favourites' | 'uploads';
const LIST_PATHS: Record<ListKind, string> = {
  recent: `${base}/resent-file/list`,
  favourites: `${base}/collect/file-collect-list`,
  uploads: `${base}/file-upload/user-uploaded`,
};

/** Recently viewed, my favourites and my uploads: the same paged shape. */
export function usePagedList(kind: ListKind) {
  return useInfiniteQuery({
    queryKey: filesKeys.list(kind),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.post<PagedItems>(LIST_PATHS[kind], undefined, {
        query: { pageNo: pageParam, pageSize: PAGE_SIZE },
      }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

export function useRecycleList() {
  return useInfiniteQuery({
    queryKey: filesKeys.list('recycle'),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.get<{ list: RecycledItem[]; hasMore: boolean; pageNo: number }>(`${base}/recycle/list`, {
        query: { pageNo: pageParam, pageSize: PAGE_SIZE },
      }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

export const fetchSubfolders = (parentId: number | 'all') =>
  api.get<FolderNode[]>(`${base}/file/selector-v2`, { query: { currentFolderId: parentId } });

export const filesApi = {
  createFolder: (body: { folderName: string; parentId: number | 'all'; visibility?: 'shared' | 'private' }) =>
    api.post<{ folderId: number; fatherFolderId: number | null }>(`${base}/file/creat-folder`, body, {
      silent: true,
    }),
  updateFolder: (body: {
    folderDataId: number;
    folderName?: string;
    parentId?: number | 'all';
    confirmShare?: boolean;
  }) => api.post<null>(`${base}/file/update-folder`, body, { silent: true }),
  move: (body: { folderDataIdList: number[]; targetFolderId: number | 'all'; confirmShare?: boolean }) =>
    api.post<null>(`${base}/file/batch-move`, body, { silent: true }),
  remove: (items: Item[]) =>
    api.post<null>(`${base}/file/batch-del`, {
      idList: items.filter((i) => i.type !== ItemType.folder).map((i) => i.id),
      folderIdList: items.filter((i) => i.type === ItemType.folder).map((i) => i.id),
    }),
  collect: (id: number) => api.get<null>(`${base}/collect/file-collect`, { query: { folderDataId: id } }),
  uncollect: (id: number) =>
    api.get<null>(`${base}/collect/file-cancel-collect`, { query: { folderDataId: id } }),
  openFolder: (id: number | 'all') =>
    api.post<{ canView: true; folder: Item | null }>(`${base}/file/check-view-folder`, { folderDataId: id }),
  restore: (ids: number[]) =>
    api.get<null>(`${base}/recycle/batch-restore`, { query: { ids: ids.join(',') } }),
  purge: (ids: number[]) => api.get<null>(`${base}/recycle/batch-del`, { query: { ids: ids.join(',') } }),
  clearRecycle: () => api.post<null>(`${base}/recycle/clear`),
};

/** After any change to files, every listing may be stale. */
export function useInvalidateFiles() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: filesKeys.all });
}

export function useToggleFavourite() {
  const invalidate = useInvalidateFiles();
  return useMutation({
    mutationFn: (item: Item) => (item.collected ? filesApi.uncollect(item.id) : filesApi.collect(item.id)),
    onSuccess: () => invalidate(),
  });
}
