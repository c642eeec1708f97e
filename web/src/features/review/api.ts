import type { ReviewAction, ReviewDetail, ReviewState } from '@dam/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { filesKeys } from '../../api/items';

const TODO_PAGE_SIZE = 40;

export const reviewKeys = {
  // Under the files key: a new version (an upload) or a change of the file refreshes it too.
  state: (itemId: number) => [...filesKeys.all, 'review', itemId] as const,
  candidates: (itemId: number, keyword: string) => ['review', 'candidates', itemId, keyword] as const,
  // Under the files key: a file renamed or deleted refreshes the list too.
  todo: [...filesKeys.all, 'review-todo'] as const,
};

/** A file's review: state, reviewers, history, and what the caller may do. */
export function useReviewState(itemId: number) {
  return useQuery({
    queryKey: reviewKeys.state(itemId),
    queryFn: () => call(endpoints.reviewState, { query: { itemId }, silent: true }),
  });
}

/** The approvers who may be named as reviewers of the file, by name. */
export function useReviewerCandidates(itemId: number, keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: reviewKeys.candidates(itemId, keyword),
    queryFn: () => call(endpoints.reviewerCandidates, { query: keyword ? { itemId, keyword } : { itemId } }),
    enabled,
    staleTime: 30_000,
  });
}

/** The caller's "to review" list, a page at a time, as item pages (the browser's shape) with its total. */
export function useReviewTodo() {
  return useInfiniteQuery({
    queryKey: reviewKeys.todo,
    initialPageParam: 1,
    queryFn: async ({ pageParam }) => {
      const page = await call(endpoints.reviewTodo, {
        query: { pageNo: pageParam, pageSize: TODO_PAGE_SIZE },
      });
      return {
        list: page.list.map((entry) => entry.item),
        total: page.total,
        pageNo: page.pageNo,
        pageSize: page.pageSize,
        hasMore: page.pageNo * page.pageSize < page.total,
      };
    },
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

export interface ReviewChange {
  itemId: number;
  action: ReviewAction;
  expectedState: ReviewState;
  note?: string;
  reviewerIds?: number[];
}

/**
 * One review action. The server's refusal (someone changed it meanwhile, SERV_01) is shown in the
 * user's language; either way the file's review and the listings are read again.
 */
export function useChangeReview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewChange) => call(endpoints.changeReview, { body }),
    onSuccess: (detail: ReviewDetail) => client.setQueryData(reviewKeys.state(detail.itemId), detail),
    onSettled: async (_data, _error, body) => {
      await client.invalidateQueries({ queryKey: reviewKeys.state(body.itemId) });
      await client.invalidateQueries({ queryKey: filesKeys.all });
    },
  });
}
