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
import type { AccountsService } from './service';

const nothing = { 200: envelopeSchema(z.null()) };

/**
 * Departments, users and roles under the security API prefix (SPEC §7 Security API). Mounted
 * inside a scope whose hook admits only signed-in callers; the service checks the codes.
 */
export const accountsRoutes: FastifyPluginAsync<{ accounts: AccountsService }> = async (
  app,
  { accounts },
) => {
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
    async (request) => ok(await accounts.createDepartment(authOf(request), request.body)),
  );
  routes.post(
    '/edit-dept',
    { schema: { body: editDepartmentRequestSchema, response: nothing } },
    async (request) => {
      await accounts.editDepartment(authOf(request), request.body);
      return ok(null);
    },
  );
  routes.post(
    '/delete-dept',
    { schema: { body: departmentIdRequestSchema, response: nothing } },
    async (request) => {
      await accounts.deleteDepartment(authOf(request), request.body.deptId);
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
    async (request) => ok(await accounts.createUser(authOf(request), request.body)),
  );
  routes.post(
    '/edit-user',
    { schema: { body: editUserRequestSchema, response: nothing } },
    async (request) => {
      await accounts.editUser(authOf(request), request.body);
      return ok(null);
    },
  );
  routes.post(
    '/delete-user',
    { schema: { body: userIdRequestSchema, response: nothing } },
    async (request) => {
      await accounts.deleteUser(authOf(request), request.body.userId);
      return ok(null);
    },
  );
  routes.post(
    '/reset-pwd',
    { schema: { body: userIdRequestSchema, response: { 200: envelopeSchema(issuedPasswordSchema) } } },
    async (request) => ok(await accounts.resetPassword(authOf(request), request.body.userId)),
  );

  routes.post(
    '/create-role',
    { schema: { body: roleInputSchema, response: { 200: envelopeSchema(createdIdSchema) } } },
    async (request) => ok(await accounts.createRole(authOf(request), request.body)),
  );
  routes.post(
    '/edit-role',
    { schema: { body: editRoleRequestSchema, response: nothing } },
    async (request) => {
      await accounts.editRole(authOf(request), request.body);
      return ok(null);
    },
  );
  routes.post(
    '/delete-role',
    { schema: { body: roleIdRequestSchema, response: nothing } },
    async (request) => {
      await accounts.deleteRole(authOf(request), request.body.roleId);
      return ok(null);
    },
  );
};
