import { ResourceType, type UserInfo } from '@dam/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { firstLoadData, queryClient } from '../api/queryClient';
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
 * The signed-in layout's route loader: starts the user's query as soon as the layout's code is in
 * (taking the answer asked for at start-up), so the layout draws with the user, its menus and name,
 * instead of a placeholder first (issue 12 goal 4). Only on the page the app opens with: see firstLoadData.
 */
export function prefetchCurrentUser(): Promise<null> | null {
  if (!getToken()) return null;
  return firstLoadData((options) => queryClient.prefetchQuery({ ...currentUserQuery(), ...options }));
}

export function functionCodesOf(user: UserInfo | undefined): number[] {
  return (user?.resourcesList ?? [])
    .filter((r) => r.resourceType === ResourceType.functionCode)
    .map((r) => r.resourceId);
}
