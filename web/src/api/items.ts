import { type EndpointRoute, type Endpoints, type Item, ItemType, SortField } from '@dam/contract';
import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getToken } from '../auth/token';
import { call } from './client';
import { endpoints } from './endpoints';
import { folderListingQuery, type ListingFilter, PAGE_SIZE, type SortState } from './listingQuery';
import { lastUsersListingSort } from './listingSort';
import { notifySuccess } from './notify';
import { firstLoadData, queryClient } from './queryClient';

export { type ListingFilter, PAGE_SIZE, type SortState } from './listingQuery';

export const filesKeys = {
  all: ['files'] as const,
  folder: (folderId: string, sort: SortState, filter: ListingFilter, sortBy: SortField = SortField.name) =>
    ['files', 'folder', folderId, sort, filter, sortBy] as const,
  list: (kind: string) => ['files', 'list', kind] as const,
  tree: (parent: string) => ['files', 'tree', parent] as const,
  tagSelector: ['tags', 'selector'] as const,
};

/** How long a folder's listing is taken as current (changes made here invalidate it at once). */
const LISTING_FRESH_MS = 5_000;

const folderListingOptions = (folderId: string, sort: SortState, filter: ListingFilter, sortBy: SortField) =>
  infiniteQueryOptions({
    queryKey: filesKeys.folder(folderId, sort, filter, sortBy),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(endpoints.folderListing, {
        query: folderListingQuery(folderId, pageParam, sort, filter, sortBy),
      }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
    // An answer the route's loader fetched a moment before the page mounted is not asked again.
    staleTime: LISTING_FRESH_MS,
    // Fresh uploads get their thumbnails from the media queue a moment later: look again until
    // they are there, so they appear without a reload.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.list.some(awaitingThumbnail)) ? 3000 : false,
  });

/** One folder, page by page (SPEC §2 infinite scroll). */
export function useFolderListing(
  folderId: string,
  sort: SortState,
  filter: ListingFilter,
  sortBy: SortField = SortField.name,
) {
  return useInfiniteQuery(folderListingOptions(folderId, sort, filter, sortBy));
}

/**
 * The folder route's loader: starts the first page's query (as the page opens it: newest first,
 * nothing filtered) while the router still loads the page, so the page draws its cards in its
 * first pass (issue 12 goal 4). Only on the page the app opens with: see firstLoadData.
 */
export function prefetchFolderListing({ params }: { params: { folderId?: string } }): Promise<null> | null {
  // Signed out (the session ended in another tab): RequireAuth sends the visitor to sign in.
  if (!getToken()) return null;
  // In the order last chosen in this browser (issue 39), so the page's own call takes this answer.
  const sort = lastUsersListingSort();
  const listing = folderListingOptions(params.folderId ?? 'all', sort.rank, {}, sort.by);
  return firstLoadData((options) => queryClient.prefetchInfiniteQuery({ ...listing, ...options }));
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
/** The three lists' calls: one route type for all three, so that `call` types the shared shape. */
const LIST_ENDPOINTS: Record<
  ListKind,
  EndpointRoute<Endpoints['recentFiles' | 'collectedItems' | 'myUploads']>
> = {
  recent: endpoints.recentFiles,
  favourites: endpoints.collectedItems,
  uploads: endpoints.myUploads,
};

/** Recently viewed, my favourites and my uploads: the same paged shape. */
export function usePagedList(kind: ListKind) {
  return useInfiniteQuery({
    queryKey: filesKeys.list(kind),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(LIST_ENDPOINTS[kind], { query: { pageNo: pageParam, pageSize: PAGE_SIZE } }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

export function useRecycleList() {
  return useInfiniteQuery({
    queryKey: filesKeys.list('recycle'),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(endpoints.recycleBin, { query: { pageNo: pageParam, pageSize: PAGE_SIZE } }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

export const fetchSubfolders = (parentId: number | 'all', withCounts = false) =>
  call(endpoints.folderSelector, {
    query: { currentFolderId: parentId, ...(withCounts ? { withCounts: '1' as const } : {}) },
  });

export const filesApi = {
  createFolder: (body: { folderName: string; parentId: number | 'all'; visibility?: 'shared' | 'private' }) =>
    call(endpoints.createFolder, { body, silent: true }),
  updateFolder: (body: {
    folderDataId: number;
    folderName?: string;
    parentId?: number | 'all';
    confirmShare?: boolean;
  }) => call(endpoints.updateFolder, { body, silent: true }),
  move: (body: { folderDataIdList: number[]; targetFolderId: number | 'all'; confirmShare?: boolean }) =>
    call(endpoints.moveItems, { body, silent: true }),
  remove: (items: Item[]) =>
    call(endpoints.deleteItems, {
      body: {
        idList: items.filter((i) => i.type !== ItemType.folder).map((i) => i.id),
        folderIdList: items.filter((i) => i.type === ItemType.folder).map((i) => i.id),
      },
    }),
  collect: (id: number) => call(endpoints.collectItem, { query: { folderDataId: id } }),
  uncollect: (id: number) => call(endpoints.uncollectItem, { query: { folderDataId: id } }),
  openFolder: (id: number | 'all') => call(endpoints.openFolder, { body: { folderDataId: id } }),
  restore: (ids: number[]) => call(endpoints.restoreItems, { query: { ids: ids.join(',') } }),
  purge: (ids: number[]) => call(endpoints.purgeItems, { query: { ids: ids.join(',') } }),
  clearRecycle: () => call(endpoints.emptyRecycleBin),
};

/** The tag dimensions offered by the listing filter. */
export function useTagSelector(enabled: boolean) {
  return useQuery({
    queryKey: filesKeys.tagSelector,
    queryFn: () => call(endpoints.tagSelector),
    enabled,
    staleTime: 60_000,
  });
}

/** After any change to files, every listing may be stale. */
export function useInvalidateFiles() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: filesKeys.all });
}

export function useToggleFavourite() {
  const { t } = useTranslation();
  const invalidate = useInvalidateFiles();
  return useMutation({
    mutationFn: (item: Item) => (item.collected ? filesApi.uncollect(item.id) : filesApi.collect(item.id)),
    onSuccess: (_answer, item) => {
      // The star appears only after the listing reloads: say at once that it worked.
      notifySuccess(t(item.collected ? 'files.unfavouritedOk' : 'files.favouritedOk', { name: item.name }));
      return invalidate();
    },
  });
}
