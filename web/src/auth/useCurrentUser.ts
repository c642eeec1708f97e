import { ResourceType, type UserInfo } from '@dam/contract';
import { useQuery } from '@tanstack/react-query';
import { authApi } from './api';
import { getToken } from './token';

export const currentUserKey = ['current-user'] as const;

/** The signed-in user (SPEC §3 user info), shared by every screen through the query cache. */
export function useCurrentUser() {
  return useQuery({
    queryKey: currentUserKey,
    queryFn: authApi.userInfo,
    enabled: Boolean(getToken()),
    staleTime: 60_000,
    retry: false,
  });
}

export function functionCodesOf(user: UserInfo | undefined): number[] {
  return (user?.resourcesList ?? [])
    .filter((r) => r.resourceType === ResourceType.functionCode)
    .map((r) => r.resourceId);
}
