import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { DepartmentsService } from './departments';
import type { RolesService } from './roles';
import type { UsersService } from './users';

/**
 * Departments, users and roles under the security API prefix (SPEC §7 Security API). Mounted
 * inside a scope whose hook admits only signed-in callers; the service checks the codes.
 */
export const accountsRoutes: FastifyPluginAsync<{
  departments: DepartmentsService;
  users: UsersService;
  roles: RolesService;
  oplog: OperationRecorder;
}> = async (app, { departments, users, roles, oplog }) => {
  route(app, endpoints.departmentTree, async (request) => departments.departmentTree(authOf(request)));
  route(app, endpoints.departmentDetail, async (request) =>
    departments.departmentDetail(authOf(request), request.body.deptId),
  );
  route(app, endpoints.createDepartment, async (request) => {
    const created = await departments.createDepartment(authOf(request), request.body);
    await oplog.record(request, OperationCode.createDepartment, { department: created.id });
    return created;
  });
  route(app, endpoints.editDepartment, async (request) => {
    const subject = { department: request.body.deptId };
    await oplog.around(request, OperationCode.editDepartment, subject, () =>
      departments.editDepartment(authOf(request), request.body),
    );
    return null;
  });
  route(app, endpoints.deleteDepartment, async (request) => {
    const subject = { department: request.body.deptId };
    await oplog.around(request, OperationCode.deleteDepartment, subject, () =>
      departments.deleteDepartment(authOf(request), request.body.deptId),
    );
    return null;
  });

  route(app, endpoints.userList, async (request) => users.listUsers(authOf(request), request.body));
  route(app, endpoints.userDetail, async (request) => users.userDetail(authOf(request), request.body.userId));
  route(app, endpoints.createUser, async (request) => {
    const created = await users.createUser(authOf(request), request.body);
    await oplog.record(request, OperationCode.createUser, { user: created.id });
    return created;
  });
  route(app, endpoints.editUser, async (request) => {
    const subject = { user: request.body.userId };
    await oplog.around(request, OperationCode.editUser, subject, () =>
      users.editUser(authOf(request), request.body),
    );
    return null;
  });
  route(app, endpoints.deleteUser, async (request) => {
    const subject = { user: request.body.userId };
    await oplog.around(request, OperationCode.deleteUser, subject, () =>
      users.deleteUser(authOf(request), request.body.userId),
    );
    return null;
  });
  route(app, endpoints.resetUserPassword, async (request) => {
    const issued = await users.resetPassword(authOf(request), request.body.userId);
    await oplog.record(request, OperationCode.resetPassword, { user: request.body.userId });
    return issued;
  });

  route(app, endpoints.createRole, async (request) => {
    const created = await roles.createRole(authOf(request), request.body);
    await oplog.record(request, OperationCode.createRole, { role: created.id });
    return created;
  });
  route(app, endpoints.editRole, async (request) => {
    const subject = { role: request.body.roleId };
    await oplog.around(request, OperationCode.editRole, subject, () =>
      roles.editRole(authOf(request), request.body),
    );
    return null;
  });
  route(app, endpoints.deleteRole, async (request) => {
    const subject = { role: request.body.roleId };
    await oplog.around(request, OperationCode.deleteRole, subject, () =>
      roles.deleteRole(authOf(request), request.body.roleId),
    );
    return null;
  });
};
