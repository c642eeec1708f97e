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
  envelopeSchema,
  issuedPasswordSchema,
  managedUserSchema,
  OperationCode,
  roleIdRequestSchema,
  roleInputSchema,
  userIdRequestSchema,
  userInputSchema,
  userListRequestSchema,
  userListResultSchema,
} from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { AccountsService } from './service';

const nothing = { 200: envelopeSchema(z.null()) };

/**
 * Departments, users and roles under the security API prefix (SPEC §7 Security API). Mounted
 * inside a scope whose hook admits only signed-in callers; the service checks the codes.
 */
export const accountsRoutes: FastifyPluginAsync<{
  accounts: AccountsService;
  oplog: OperationRecorder;
}> = async (app, { accounts, oplog }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/dept-tree',
    { schema: { response: { 200: envelopeSchema(departmentTreeResultSchema) } } },
    async (request) => ok(await accounts.departmentTree(authOf(request))),
  );
  routes.post(
    '/dept-detail',
    { schema: { body: departmentIdRequestSchema, response: { 200: envelopeSchema(departmentSchema) } } },
    async (request) => ok(await accounts.departmentDetail(authOf(request), request.body.deptId)),
  );
  routes.post(
    '/create-dept',
    { schema: { body: departmentInputSchema, response: { 200: envelopeSchema(createdIdSchema) } } },
    async (request) => {
      const created = await accounts.createDepartment(authOf(request), request.body);
      await oplog.record(request, OperationCode.createDepartment, { department: created.id });
      return ok(created);
    },
  );
  routes.post(
    '/edit-dept',
    { schema: { body: editDepartmentRequestSchema, response: nothing } },
    async (request) => {
      const subject = { department: request.body.deptId };
      await oplog.around(request, OperationCode.editDepartment, subject, () =>
        accounts.editDepartment(authOf(request), request.body),
      );
      return ok(null);
    },
  );
  routes.post(
    '/delete-dept',
    { schema: { body: departmentIdRequestSchema, response: nothing } },
    async (request) => {
      const subject = { department: request.body.deptId };
      await oplog.around(request, OperationCode.deleteDepartment, subject, () =>
        accounts.deleteDepartment(authOf(request), request.body.deptId),
      );
      return ok(null);
    },
  );

  routes.post(
    '/user-list',
    { schema: { body: userListRequestSchema, response: { 200: envelopeSchema(userListResultSchema) } } },
    async (request) => ok(await accounts.listUsers(authOf(request), request.body)),
  );
  routes.post(
    '/user-detail',
    { schema: { body: userIdRequestSchema, response: { 200: envelopeSchema(managedUserSchema) } } },
    async (request) => ok(await accounts.userDetail(authOf(request), request.body.userId)),
  );
  routes.post(
    '/create-user',
    { schema: { body: userInputSchema, response: { 200: envelopeSchema(createdUserSchema) } } },
    async (request) => {
      const created = await accounts.createUser(authOf(request), request.body);
      await oplog.record(request, OperationCode.createUser, { user: created.id });
      return ok(created);
    },
  );
  routes.post(
    '/edit-user',
    { schema: { body: editUserRequestSchema, response: nothing } },
    async (request) => {
      const subject = { user: request.body.userId };
      await oplog.around(request, OperationCode.editUser, subject, () =>
        accounts.editUser(authOf(request), request.body),
      );
      return ok(null);
    },
  );
  routes.post(
    '/delete-user',
    { schema: { body: userIdRequestSchema, response: nothing } },
    async (request) => {
      const subject = { user: request.body.userId };
      await oplog.around(request, OperationCode.deleteUser, subject, () =>
        accounts.deleteUser(authOf(request), request.body.userId),
      );
      return ok(null);
    },
  );
  routes.post(
    '/reset-pwd',
    { schema: { body: userIdRequestSchema, response: { 200: envelopeSchema(issuedPasswordSchema) } } },
    async (request) => {
      const issued = await accounts.resetPassword(authOf(request), request.body.userId);
      await oplog.record(request, OperationCode.resetPassword, { user: request.body.userId });
      return ok(issued);
    },
  );

  routes.post(
    '/create-role',
    { schema: { body: roleInputSchema, response: { 200: envelopeSchema(createdIdSchema) } } },
    async (request) => {
      const created = await accounts.createRole(authOf(request), request.body);
      await oplog.record(request, OperationCode.createRole, { role: created.id });
      return ok(created);
    },
  );
  routes.post(
    '/edit-role',
    { schema: { body: editRoleRequestSchema, response: nothing } },
    async (request) => {
      const subject = { role: request.body.roleId };
      await oplog.around(request, OperationCode.editRole, subject, () =>
        accounts.editRole(authOf(request), request.body),
      );
      return ok(null);
    },
  );
  routes.post(
    '/delete-role',
    { schema: { body: roleIdRequestSchema, response: nothing } },
    async (request) => {
      const subject = { role: request.body.roleId };
      await oplog.around(request, OperationCode.deleteRole, subject, () =>
        accounts.deleteRole(authOf(request), request.body.roleId),
      );
      return ok(null);
    },
  );
};
