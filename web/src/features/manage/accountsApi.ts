import type {
  CreatedUser,
  DepartmentInput,
  DepartmentTreeResult,
  EditDepartmentRequest,
  EditRoleRequest,
  EditUserRequest,
  ManagedUser,
  Role,
  RoleInput,
  UserInput,
  UserListRequest,
  UserListResult,
} from '@dam/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { currentUserKey } from '../../auth/useCurrentUser';

const base = '/security-api';
/** Everything under this key is refetched after any change to departments, users or roles. */
export const accountsKey = ['accounts'] as const;

export function useDepartments(enabled = true) {
  return useQuery({
    queryKey: [...accountsKey, 'departments'],
    queryFn: async () => (await api.post<DepartmentTreeResult>(`${base}/dept-tree`)).departments,
    enabled,
  });
}

export function useUsers(request: UserListRequest, enabled = true) {
  return useQuery({
    queryKey: [...accountsKey, 'users', request],
    queryFn: () => api.post<UserListResult>(`${base}/user-list`, request),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useRoles() {
  return useQuery({
    queryKey: [...accountsKey, 'roles'],
    queryFn: async () => (await api.post<{ roleList: Role[] }>(`${base}/roles`)).roleList,
  });
}

/**
 * A change to an account: errors are shown by the caller (forms put them next to the fields),
 * and afterwards every account list and the signed-in user's own permissions are reloaded.
 */
function useAccountsMutation<Body, Result>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => api.post<Result>(`${base}/${path}`, body, { silent: true }),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: accountsKey }),
        client.invalidateQueries({ queryKey: currentUserKey }),
      ]);
    },
  });
}

export const useCreateDepartment = () => useAccountsMutation<DepartmentInput, { id: number }>('create-dept');
export const useEditDepartment = () => useAccountsMutation<EditDepartmentRequest, null>('edit-dept');
export const useDeleteDepartment = () => useAccountsMutation<{ deptId: number }, null>('delete-dept');
export const useCreateUser = () => useAccountsMutation<UserInput, CreatedUser>('create-user');
export const useEditUser = () => useAccountsMutation<EditUserRequest, null>('edit-user');
export const useDeleteUser = () => useAccountsMutation<{ userId: number }, null>('delete-user');
export const useResetPassword = () =>
  useAccountsMutation<{ userId: number }, { password: string }>('reset-pwd');
export const useCreateRole = () => useAccountsMutation<RoleInput, { id: number }>('create-role');
export const useEditRole = () => useAccountsMutation<EditRoleRequest, null>('edit-role');
export const useDeleteRole = () => useAccountsMutation<{ roleId: number }, null>('delete-role');

export type { ManagedUser };
