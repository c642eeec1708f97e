import { ResourceType, type UserInfo } from '@dam/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { authApi } from './api';
import { getToken } from './token';

export const currentUserKey = ['current-user'] as const;

/** The query of the signed-in user: the hook's, and the router's for the first page (firstQueries.ts). */
export const currentUserQuery = queryOptions({
  queryKey: currentUserKey,
  queryFn: authApi.userInfo,
  staleTime: 60_000,
  retry: false,
});

/** The signed-in user (SPEC §3 user info), shared by every screen through the query cache. */
export function useCurrentUser() {
  return useQuery({ ...currentUserQuery, enabled: Boolean(getToken()) });
}

export function functionCodesOf(user: UserInfo | undefined): number[] {
  return (user?.resourcesList ?? [])
    .filter((r) => r.resourceType === ResourceType.functionCode)
    .map((r) => r.resourceId);
}
