import type { EndpointBody, EndpointRoute, Endpoints, JsonEndpoint } from '@dam/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type CallInput, call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { currentUserKey } from '../../auth/useCurrentUser';

/** Everything under `all` is refetched after any change to departments, users or roles. */
export const accountsKeys = {
  all: ['accounts'] as const,
  departments: ['accounts', 'departments'] as const,
  users: (request: EndpointBody<Endpoints['userList']>) => ['accounts', 'users', request] as const,
  roles: ['accounts', 'roles'] as const,
};

export function useDepartments(enabled = true) {
  return useQuery({
    queryKey: accountsKeys.departments,
    queryFn: async () => (await call(endpoints.departmentTree)).departments,
    enabled,
  });
}

export function useUsers(request: EndpointBody<Endpoints['userList']>, enabled = true) {
  return useQuery({
    queryKey: accountsKeys.users(request),
    queryFn: () => call(endpoints.userList, { body: request }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useRoles() {
  return useQuery({
    queryKey: accountsKeys.roles,
    queryFn: async () => (await call(endpoints.roleList)).roleList,
  });
}

/**
 * A change to an account: errors are shown by the caller (forms put them next to the fields),
 * and afterwards every account list and the signed-in user's own permissions are reloaded.
 */
function useAccountsMutation<E extends JsonEndpoint & { body: unknown }>(endpoint: EndpointRoute<E>) {
  const client = useQueryClient();
  return useMutation({
    // A generic E leaves call's conditional input type unresolved; the body is EndpointBody<E>.
    mutationFn: (body: EndpointBody<E>) => call(endpoint, { body, silent: true } as unknown as CallInput<E>),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: accountsKeys.all }),
        client.invalidateQueries({ queryKey: currentUserKey }),
      ]);
    },
  });
}

export const useCreateDepartment = () => useAccountsMutation(endpoints.createDepartment);
export const useEditDepartment = () => useAccountsMutation(endpoints.editDepartment);
export const useDeleteDepartment = () => useAccountsMutation(endpoints.deleteDepartment);
export const useCreateUser = () => useAccountsMutation(endpoints.createUser);
export const useEditUser = () => useAccountsMutation(endpoints.editUser);
export const useDeleteUser = () => useAccountsMutation(endpoints.deleteUser);
export const useResetPassword = () => useAccountsMutation(endpoints.resetUserPassword);
export const useCreateRole = () => useAccountsMutation(endpoints.createRole);
export const useEditRole = () => useAccountsMutation(endpoints.editRole);
export const useDeleteRole = () => useAccountsMutation(endpoints.deleteRole);

export type { ManagedUser } from '@dam/contract';
