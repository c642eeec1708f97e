import type { CollectionItemsPage, CollectionMemberRole } from '@dam/contract';
import {
  type InfiniteData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { filesKeys } from '../../api/items';
import { reordered } from './reorder';

const COLLECTION_PAGE_SIZE = 60;

export const collectionKeys = {
  all: ['collections'] as const,
  list: ['collections', 'list'] as const,
  members: (id: number) => ['collections', 'members', id] as const,
  // Under the files key: a file renamed, deleted or retagged refreshes the collection's page too.
  items: (id: number) => [...filesKeys.all, 'collection', id] as const,
};

/** The caller's collections and those they are a member of. */
export function useCollections() {
  return useQuery({ queryKey: collectionKeys.list, queryFn: () => call(endpoints.collections) });
}

/** A collection's items the caller may see, a page at a time, with its summary and hidden count. */
export function useCollectionItems(id: number) {
  return useInfiniteQuery({
    queryKey: collectionKeys.items(id),
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      call(endpoints.collectionItems, {
        query: { id, pageNo: pageParam, pageSize: COLLECTION_PAGE_SIZE },
        silent: true,
      }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

export function useCollectionMembers(id: number) {
  return useQuery({
    queryKey: collectionKeys.members(id),
    queryFn: () => call(endpoints.collectionMembers, { query: { id } }),
  });
}

/** Every change refreshes the list (counts, order by latest change) and the collection's page. */
function useCollectionChange<Args, Result>(run: (args: Args) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: collectionKeys.all });
      await client.invalidateQueries({ queryKey: [...filesKeys.all, 'collection'] });
    },
  });
}

export const useSaveCollection = () =>
  useCollectionChange((body: { id?: number; name: string; description?: string; itemIds?: number[] }) =>
    body.id === undefined
      ? call(endpoints.createCollection, { body, silent: true })
      : call(endpoints.editCollection, { body: { ...body, id: body.id }, silent: true }),
  );

export const useDeleteCollection = () =>
  useCollectionChange((id: number) => call(endpoints.deleteCollection, { body: { id } }));

export const useSaveMembers = () =>
  useCollectionChange(
    (body: { id: number; members: Array<{ userId: number; role: CollectionMemberRole }> }) =>
      call(endpoints.saveCollectionMembers, { body, silent: true }),
  );

export const useAddToCollection = () =>
  useCollectionChange((body: { id: number; itemIds: number[] }) =>
    call(endpoints.addToCollection, { body, silent: true }),
  );

export const useRemoveFromCollection = () =>
  useCollectionChange((body: { id: number; itemIds: number[] }) =>
    call(endpoints.removeFromCollection, { body }),
  );

export const useMoveInCollection = () =>
  useCollectionChange((body: { id: number; itemId: number; beforeItemId: number | null }) =>
    call(endpoints.moveInCollection, { body }),
  );

/**
 * A card dragged to a new place: the page shows the new order at once, then the server's (a refusal
 * puts the card back).
 */
export function useDragInCollection(id: number) {
  const client = useQueryClient();
  const key = collectionKeys.items(id);
  return useMutation({
    mutationFn: (body: { itemId: number; beforeItemId: number | null }) =>
      call(endpoints.moveInCollection, { body: { id, ...body } }),
    onMutate: async ({ itemId, beforeItemId }) => {
      await client.cancelQueries({ queryKey: key });
      client.setQueryData<InfiniteData<CollectionItemsPage>>(key, (data) =>
        data ? reordered(data, itemId, beforeItemId) : data,
      );
    },
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: collectionKeys.all });
      await client.invalidateQueries({ queryKey: key });
    },
  });
}

/** Colleagues to let in, by name or address (the mail notice's directory: accounts with an address). */
export function useColleagues(keyword: string) {
  return useQuery({
    queryKey: ['collections', 'colleagues', keyword] as const,
    queryFn: () => call(endpoints.mailNoticeRecipients, { query: keyword ? { keyword } : {} }),
    staleTime: 30_000,
  });
}
