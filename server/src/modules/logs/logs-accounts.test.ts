import { type LogEntry, OperationCode } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenUser } from '../../../test/factories';
import { post, signIn } from '../../../test/harness';
import { createLogsWorld, type LogsWorld } from '../../../test/scenarios/logs';

describe('operation log: accounts and sessions recorded by the server', () => {
  let w: LogsWorld;
  beforeAll(async () => {
    w = await createLogsWorld();
  });
  afterAll(() => w.t.close());

  describe('recorded by the server', () => {
    it('records users, departments and roles with what changed', async () => {
      let deptId = 0;
      const deptCreated = await w.added(OperationCode.createDepartment, async () => {
        const answer = await w.ok200(
          post(
            w.t.app,
            '/security-api/create-dept',
            { name: 'Design', parentId: w.rootDeptId },
            { token: w.admin },
          ),
        );
        deptId = (answer.body as { result: { id: number } }).result.id;
      });
      expect(deptCreated).toHaveLength(1);
      expect(deptCreated[0]?.details).toMatchObject({ deptId, deptName: 'Design' });
      const deptEdited = await w.added(OperationCode.editDepartment, () =>
        w.ok200(
          post(
            w.t.app,
            '/security-api/edit-dept',
            { deptId, name: 'Design Studio', parentId: w.rootDeptId },
            { token: w.admin },
          ),
        ),
      );
      expect(deptEdited).toHaveLength(1);
      expect(deptEdited[0]?.details.changes).toEqual({ name: ['Design', 'Design Studio'] });
      expect(deptEdited[0]?.newValue).toBe('Design Studio');

      let roleId = 0;
      const role = {
        name: 'Photographer',
        filePermissions: { view: 'all', upload: 'dept', download: 'all', share: 'none' },
        functionCodes: [],
      };
      const roleCreated = await w.added(OperationCode.createRole, async () => {
        const answer = await w.ok200(post(w.t.app, '/security-api/create-role', role, { token: w.admin }));
        roleId = (answer.body as { result: { id: number } }).result.id;
      });
      expect(roleCreated).toHaveLength(1);
      expect(roleCreated[0]?.details).toMatchObject({ roleId, roleName: 'Photographer' });
      const roleEdited = await w.added(OperationCode.editRole, () =>
        w.ok200(
          post(
            w.t.app,
            '/security-api/edit-role',
            {
              ...role,
              roleId,
              filePermissions: { ...role.filePermissions, share: 'all' },
              functionCodes: [5],
            },
            { token: w.admin },
          ),
        ),
      );
      expect(roleEdited).toHaveLength(1);
      expect(roleEdited[0]?.details.changes).toEqual({ share: ['none', 'all'], functionCodes: [[], ['5']] });
      // Read as the role screen words it: scope words and permission names, not stored codes.
      expect(roleEdited[0]?.content).toBe(
        'role: Photographer, share scope: none → all; function permissions: — → operation log',
      );
      const roleEditedZh = (await w.list({ operatorCodes: [OperationCode.editRole] }, 'zh')).list.find(
        (entry) => entry.id === roleEdited[0]?.id,
      );
      expect(roleEditedZh?.content).toBe('角色：Photographer，分享范围：无 → 全部；功能权限：— → 操作日志');

      let userId = 0;
      const user = { name: 'Li Lei', email: 'li.lei@example.com', deptId, roleIdList: [roleId] };
      const userCreated = await w.added(OperationCode.createUser, async () => {
        const answer = await w.ok200(post(w.t.app, '/security-api/create-user', user, { token: w.admin }));
        userId = (answer.body as { result: { id: number } }).result.id;
      });
      expect(userCreated).toHaveLength(1);
      expect(userCreated[0]).toMatchObject({ operatorId: w.adminId, fileNames: [] });
      expect(userCreated[0]?.details).toMatchObject({
        userId,
        userName: 'Li Lei',
        values: {
          name: 'Li Lei',
          email: 'li.lei@example.com',
          dept: 'Design Studio',
          roles: ['Photographer'],
        },
      });
      // No password ever reaches the log.
      expect(JSON.stringify(userCreated[0])).not.toMatch(/password/i);

      const userEdited = await w.added(OperationCode.editUser, () =>
        w.ok200(
          post(
            w.t.app,
            '/security-api/edit-user',
            { ...user, userId, deptId: w.rootDeptId, roleIdList: [] },
            { token: w.admin },
          ),
        ),
      );
      expect(userEdited).toHaveLength(1);
      const changes = (userEdited[0] as LogEntry).details.changes as Record<string, unknown>;
      expect(changes.roles).toEqual([['Photographer'], []]);
      expect(Object.keys(changes).sort()).toEqual(['dept', 'roles']);

      const reset = await w.added(OperationCode.resetPassword, async () => {
        const answer = await w.ok200(
          post(w.t.app, '/security-api/reset-pwd', { userId }, { token: w.admin }),
        );
        const password = (answer.body as { result: { password: string } }).result.password;
        const entries = await w.entriesOf(OperationCode.resetPassword);
        expect(JSON.stringify(entries)).not.toContain(password);
      });
      expect(reset).toHaveLength(1);
      expect(reset[0]?.details).toMatchObject({ userId, userName: 'Li Lei' });

      const userDeleted = await w.added(OperationCode.deleteUser, () =>
        w.ok200(post(w.t.app, '/security-api/delete-user', { userId }, { token: w.admin })),
      );
      expect(userDeleted).toHaveLength(1);
      expect(userDeleted[0]?.details).toMatchObject({ userId, userName: 'Li Lei' });

      const roleDeleted = await w.added(OperationCode.deleteRole, () =>
        w.ok200(post(w.t.app, '/security-api/delete-role', { roleId }, { token: w.admin })),
      );
      expect(roleDeleted).toHaveLength(1);
      // The role is gone; its entry keeps its name and what it granted.
      expect(roleDeleted[0]?.details).toMatchObject({
        roleId,
        roleName: 'Photographer',
        values: { share: 'all' },
      });

      const deptDeleted = await w.added(OperationCode.deleteDepartment, () =>
        w.ok200(post(w.t.app, '/security-api/delete-dept', { deptId }, { token: w.admin })),
      );
      expect(deptDeleted).toHaveLength(1);
      expect(deptDeleted[0]?.details).toMatchObject({ deptId, deptName: 'Design Studio' });
      expect(deptDeleted[0]?.content).toContain('department: Design Studio');

      // A refused change (no code 2) logs nothing.
      const refused = await w.added(OperationCode.createUser, async () => {
        const answer = await post(
          w.t.app,
          '/security-api/create-user',
          { ...user, email: 'x@example.com' },
          { token: w.staff.token },
        );
        expect(answer.status).toBe(403);
      });
      expect(refused).toHaveLength(0);
    });

    it('records sign-in, password change and sign-out (USER04)', async () => {
      const person = await givenUser(w.t.database, {});
      let token = '';
      const signedIn = await w.added(OperationCode.signIn, async () => {
        token = await signIn(w.t.app, person.email, person.password);
      });
      expect(signedIn).toHaveLength(1);
      expect(signedIn[0]?.operatorId).toBe(person.id);
      const failed = await w.added(OperationCode.signIn, async () => {
        const answer = await post(w.t.app, '/security-api/login', {
          userName: person.email,
          password: 'Wrong#123',
        });
        expect(answer.body.errorCode).toBe('SED_10');
      });
      expect(failed).toHaveLength(0);

      const changed = await w.added(OperationCode.changePassword, () =>
        w.ok200(
          post(
            w.t.app,
            '/security-api/self-reset-pwd',
            { password: person.password, newPassword: 'N3w#pass', reEnterPassword: 'N3w#pass' },
            { token },
          ),
        ),
      );
      expect(changed).toHaveLength(1);
      expect(changed[0]?.operatorId).toBe(person.id);
      expect(JSON.stringify(changed[0])).not.toContain('N3w#pass');

      token = await signIn(w.t.app, person.email, 'N3w#pass');
      const signedOut = await w.added(OperationCode.signOut, () =>
        w.ok200(post(w.t.app, '/security-api/sign-out', undefined, { token })),
      );
      expect(signedOut).toHaveLength(1);
      expect(signedOut[0]).toMatchObject({
        operatorId: person.id,
        operatorCode: 'USER04',
        operationKey: 'signOut',
      });
    });
  });
});
