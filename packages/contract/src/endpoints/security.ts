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
import {
  changeOwnEmailRequestSchema,
  changeOwnMobileRequestSchema,
  changePasswordRequestSchema,
  codeSentSchema,
  confirmEmailRequestSchema,
  emailResetPasswordRequestSchema,
  loginRequestSchema,
  loginResetPasswordRequestSchema,
  loginResultSchema,
  rolesResultSchema,
  sendMobileChangeCodeRequestSchema,
  sendSignInCodeRequestSchema,
  userInfoSchema,
} from '../security';
import { signOutResultSchema } from '../sso';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Sign-in and the caller's own account (SPEC §7 Security API). */
export const securityEndpoints = {
  login: defineEndpoint({
    ...routes.login,
    body: loginRequestSchema,
    reply: 'json',
    result: loginResultSchema,
  }),
  userInfo: defineEndpoint({
    ...routes.userInfo,
    reply: 'json',
    result: userInfoSchema,
  }),
  signOut: defineEndpoint({
    ...routes.signOut,
    reply: 'json',
    result: signOutResultSchema,
  }),
  changeOwnPassword: defineEndpoint({
    ...routes.changeOwnPassword,
    body: changePasswordRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  roleList: defineEndpoint({
    ...routes.roleList,
    reply: 'json',
    result: rolesResultSchema,
  }),
  sendSignInCode: defineEndpoint({
    ...routes.sendSignInCode,
    body: sendSignInCodeRequestSchema,
    reply: 'json',
    result: codeSentSchema,
  }),
  sendMobileChangeCode: defineEndpoint({
    ...routes.sendMobileChangeCode,
    body: sendMobileChangeCodeRequestSchema,
    reply: 'json',
    result: codeSentSchema,
  }),
  emailResetPassword: defineEndpoint({
    ...routes.emailResetPassword,
    body: emailResetPasswordRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  loginResetPassword: defineEndpoint({
    ...routes.loginResetPassword,
    body: loginResetPasswordRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  changeOwnMobile: defineEndpoint({
    ...routes.changeOwnMobile,
    body: changeOwnMobileRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  /** Answers the confirmation mail's outbox id, whose delivery the caller can follow (mailStatus). */
  changeOwnEmail: defineEndpoint({
    ...routes.changeOwnEmail,
    body: changeOwnEmailRequestSchema,
    reply: 'json',
    result: z.object({ mailId: z.number().int() }),
  }),
  confirmEmail: defineEndpoint({
    ...routes.confirmEmail,
    body: confirmEmailRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
};

/** Departments, users and roles (SPEC §7 Security API); the service checks function codes 2 and 3. */
export const accountsEndpoints = {
  departmentTree: defineEndpoint({
    ...routes.departmentTree,
    reply: 'json',
    result: departmentTreeResultSchema,
  }),
  departmentDetail: defineEndpoint({
    ...routes.departmentDetail,
    body: departmentIdRequestSchema,
    reply: 'json',
    result: departmentSchema,
  }),
  createDepartment: defineEndpoint({
    ...routes.createDepartment,
    body: departmentInputSchema,
    reply: 'json',
    result: createdIdSchema,
  }),
  editDepartment: defineEndpoint({
    ...routes.editDepartment,
    body: editDepartmentRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  deleteDepartment: defineEndpoint({
    ...routes.deleteDepartment,
    body: departmentIdRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  userList: defineEndpoint({
    ...routes.userList,
    body: userListRequestSchema,
    reply: 'json',
    result: userListResultSchema,
  }),
  userDetail: defineEndpoint({
    ...routes.userDetail,
    body: userIdRequestSchema,
    reply: 'json',
    result: managedUserSchema,
  }),
  createUser: defineEndpoint({
    ...routes.createUser,
    body: userInputSchema,
    reply: 'json',
    result: createdUserSchema,
  }),
  editUser: defineEndpoint({
    ...routes.editUser,
    body: editUserRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  deleteUser: defineEndpoint({
    ...routes.deleteUser,
    body: userIdRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  resetUserPassword: defineEndpoint({
    ...routes.resetUserPassword,
    body: userIdRequestSchema,
    reply: 'json',
    result: issuedPasswordSchema,
  }),
  createRole: defineEndpoint({
    ...routes.createRole,
    body: roleInputSchema,
    reply: 'json',
    result: createdIdSchema,
  }),
  editRole: defineEndpoint({
    ...routes.editRole,
    body: editRoleRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  deleteRole: defineEndpoint({
    ...routes.deleteRole,
    body: roleIdRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
};
