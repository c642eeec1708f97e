import { z } from 'zod';
import {
  createdIdSchema,
  createdUserSchema,
  departmentIdRequestSchema,
  departmentInputSchema,
  departmentSchema,
  departmentTreeResultSchema,
  editDepartmentRequestSchema,
  editRoleRequestSchema,
  editUserRequestSchema,
  issuedPasswordSchema,
  managedUserSchema,
  roleIdRequestSchema,
  roleInputSchema,
  userIdRequestSchema,
  userInputSchema,
  userListRequestSchema,
  userListResultSchema,
} from '../accounts';
import { SECURITY_API_PREFIX } from '../constants';
import {
  changePasswordRequestSchema,
  loginRequestSchema,
  loginResultSchema,
  rolesResultSchema,
  userInfoSchema,
} from '../security';
import { defineEndpoint } from './define';

/** Sign-in and the caller's own account (SPEC §7 Security API). */
export const securityEndpoints = {
  login: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/login`,
    body: loginRequestSchema,
    reply: 'json',
    result: loginResultSchema,
  }),
  userInfo: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/user-info`,
    reply: 'json',
    result: userInfoSchema,
  }),
  signOut: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/sign-out`,
    reply: 'json',
    result: z.null(),
  }),
  changeOwnPassword: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/self-reset-pwd`,
    body: changePasswordRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  roleList: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/roles`,
    reply: 'json',
    result: rolesResultSchema,
  }),
};

/** Departments, users and roles (SPEC §7 Security API); the service checks function codes 2 and 3. */
export const accountsEndpoints = {
  departmentTree: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/dept-tree`,
    reply: 'json',
    result: departmentTreeResultSchema,
  }),
  departmentDetail: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/dept-detail`,
    body: departmentIdRequestSchema,
    reply: 'json',
    result: departmentSchema,
  }),
  createDepartment: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/create-dept`,
    body: departmentInputSchema,
    reply: 'json',
    result: createdIdSchema,
  }),
  editDepartment: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/edit-dept`,
    body: editDepartmentRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  deleteDepartment: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/delete-dept`,
    body: departmentIdRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  userList: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/user-list`,
    body: userListRequestSchema,
    reply: 'json',
    result: userListResultSchema,
  }),
  userDetail: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/user-detail`,
    body: userIdRequestSchema,
    reply: 'json',
    result: managedUserSchema,
  }),
  createUser: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/create-user`,
    body: userInputSchema,
    reply: 'json',
    result: createdUserSchema,
  }),
  editUser: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/edit-user`,
    body: editUserRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  deleteUser: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/delete-user`,
    body: userIdRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  resetUserPassword: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/reset-pwd`,
    body: userIdRequestSchema,
    reply: 'json',
    result: issuedPasswordSchema,
  }),
  createRole: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/create-role`,
    body: roleInputSchema,
    reply: 'json',
    result: createdIdSchema,
  }),
  editRole: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/edit-role`,
    body: editRoleRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  deleteRole: defineEndpoint({
    method: 'POST',
    path: `${SECURITY_API_PREFIX}/delete-role`,
    body: roleIdRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
};
