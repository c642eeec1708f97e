import { ResourceType, type UserInfo } from '@dam/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryClient } from '../api/queryClient';
import { authApi } from './api';
import { getToken } from './token';

export const currentUserKey = ['current-user'] as const;

const currentUserQuery = () =>
  queryOptions({
    queryKey: currentUserKey,
    queryFn: authApi.userInfo,
    enabled: Boolean(getToken()),
    staleTime: 60_000,
    retry: false,
  });

/** The signed-in user (SPEC §3 user info), shared by every screen through the query cache. */
export function useCurrentUser() {
  return useQuery(currentUserQuery());
}

/**
 * The signed-in layout's route loader: starts the user's query before the layout renders, so the
 * layout draws with the user (its menus, its name) in one pass instead of drawing a placeholder
 * first (issue 12 goal 4). Not awaited: a slow answer never holds the page back.
 */
export function prefetchCurrentUser(): null {
  if (getToken()) void queryClient.prefetchQuery(currentUserQuery());
  return null;
}

export function functionCodesOf(user: UserInfo | undefined): number[] {
  return (user?.resourcesList ?? [])
    .filter((r) => r.resourceType === ResourceType.functionCode)
    .map((r) => r.resourceId);
}
