import { ALL_FUNCTION_CODES, endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsWorld,
  ALL_SCOPES,
  createAccountsWorld,
  NO_SCOPES,
} from '../../../test/scenarios/accounts';

describe('accounts administration', () => {
  let w: AccountsWorld;
  beforeAll(async () => {
    w = await createAccountsWorld();
  });
  afterAll(() => w.t.close());

  describe('roles', () => {
    it('lists roles with isSystem and the number of live users holding each', async () => {
      const roleId = await w.createRole('Counted');
      const holder = await w.succeed(endpoints.createUser, {
        name: 'Holder',
        email: 'holder@example.com',
        deptId: w.rootId,
        roleIdList: [roleId],
      });
      await w.succeed(endpoints.createUser, {
        name: 'Holder 2',
        email: 'holder2@example.com',
        deptId: w.rootId,
        roleIdList: [roleId],
      });
      await w.succeed(endpoints.deleteUser, { userId: holder.id });
      const roles = await w.listRoles();
      expect(roles.find((r) => r.id === w.systemRoleId)).toMatchObject({
        name: '系统管理员',
        isSystem: true,
        functionCodes: [...ALL_FUNCTION_CODES],
        filePermissions: ALL_SCOPES,
      });
      expect(roles.find((r) => r.id === roleId)).toMatchObject({ isSystem: false, userCount: 1 });
      await w.refused('roles', undefined, 'SE_502', w.outsider);
      expect((await w.call('roles', undefined, w.userManager.token)).status).toBe(200);
      expect((await w.call('roles', undefined, w.roleManager)).status).toBe(200);
    });

    it('creates, edits and deletes a role; its user and department links go with it', async () => {
      const roleId = await w.createRole(' Reviewers ', [5, 4, 5], { ...NO_SCOPES, view: 'dept' });
      expect((await w.listRoles()).find((r) => r.id === roleId)).toMatchObject({
        name: 'Reviewers',
        functionCodes: [4, 5],
        filePermissions: { ...NO_SCOPES, view: 'dept' },
      });
      await w.succeed(endpoints.editRole, {
        roleId,
        name: 'Senior reviewers',
        functionCodes: [6],
        filePermissions: { ...NO_SCOPES, download: 'all' },
      });
      expect((await w.listRoles()).find((r) => r.id === roleId)).toMatchObject({
        name: 'Senior reviewers',
        functionCodes: [6],
        filePermissions: { ...NO_SCOPES, download: 'all' },
      });
      const dept = await w.createDept('Reviewing', w.rootId, { roleIdList: [roleId] });
      const user = await w.succeed(endpoints.createUser, {
        name: 'Reviewer',
        email: 'reviewer@example.com',
        deptId: dept,
        roleIdList: [roleId],
      });
      await w.succeed(endpoints.deleteRole, { roleId });
      expect((await w.listRoles()).map((r) => r.id)).not.toContain(roleId);
      expect(await w.detail(dept)).toMatchObject({ roleIdList: [] });
      expect(await w.succeed(endpoints.userDetail, { userId: user.id })).toMatchObject({
        roleIdList: [],
      });
      await w.refused('delete-role', { roleId }, 'SED_05');
    });

    it('refuses duplicate names, unknown roles and weakening the system role, changing nothing', async () => {
      const editors = await w.createRole('Editors', [4]);
      const body = { name: 'x', functionCodes: [], filePermissions: NO_SCOPES };
      await w.refused('create-role', { ...body, name: ' EDITORS ' }, 'SEAC_06');
      const writers = await w.createRole('Writers');
      await w.refused('edit-role', { ...body, roleId: writers, name: 'editors' }, 'SEAC_06');
      await w.succeed(endpoints.editRole, { ...body, roleId: editors, name: 'EDITORS', functionCodes: [4] });
      await w.refused('edit-role', { ...body, roleId: 999_999 }, 'SED_05');
      await w.refused('delete-role', { roleId: 999_999 }, 'SED_05');
      await w.refused('delete-role', { roleId: w.systemRoleId }, 'SEAC_05');
      const system = { roleId: w.systemRoleId, name: '系统管理员', functionCodes: [...ALL_FUNCTION_CODES] };
      await w.refused(
        'edit-role',
        { ...system, functionCodes: ALL_FUNCTION_CODES.filter((c) => c !== 8), filePermissions: ALL_SCOPES },
        'SEAC_05',
      );
      await w.refused(
        'edit-role',
        { ...system, filePermissions: { ...ALL_SCOPES, share: 'dept' } },
        'SEAC_05',
      );
      await w.succeed(endpoints.editRole, { ...system, name: 'Administrators', filePermissions: ALL_SCOPES });
      await w.succeed(endpoints.editRole, { ...system, filePermissions: ALL_SCOPES });
      const bad = await w.refused('create-role', { ...body, name: 'Bad', functionCodes: [12] }, 'SE_400');
      expect(bad.body.errorDesc).toContain('functionCodes.0:');
      await w.refused(
        'create-role',
        { ...body, name: 'Bad', filePermissions: { ...NO_SCOPES, view: 'some' } },
        'SE_400',
      );
    });

    it('changes roles with code 3 only, granting nothing beyond the caller', async () => {
      const target = await w.createRole('Code two role', [2]);
      const body = { roleId: target, name: 'Code two role', functionCodes: [2], filePermissions: NO_SCOPES };
      for (const token of [w.userManager.token, w.outsider]) {
        await w.refused('create-role', { ...body, name: 'No' }, 'SE_502', token);
        await w.refused('edit-role', body, 'SE_502', token);
        await w.refused('delete-role', { roleId: target }, 'SE_502', token);
      }
      const own = await w.succeed(
        endpoints.createRole,
        { name: 'Role admins', functionCodes: [3], filePermissions: NO_SCOPES },
        w.roleManager,
      );
      await w.refused('create-role', { ...body, name: 'Escalate' }, 'SE_502', w.roleManager);
      await w.refused(
        'edit-role',
        {
          roleId: own.id,
          name: 'Role admins',
          functionCodes: [3],
          filePermissions: { ...NO_SCOPES, view: 'all' },
        },
        'SE_502',
        w.roleManager,
      );
      // A role holding more than the caller is not theirs to change or delete (issue 9).
      await w.refused('edit-role', { ...body, name: 'Renamed code two role' }, 'SE_502', w.roleManager);
      await w.refused('edit-role', { ...body, functionCodes: [] }, 'SE_502', w.roleManager);
      await w.refused('delete-role', { roleId: target }, 'SE_502', w.roleManager);
      await w.succeed(
        endpoints.editRole,
        { ...body, roleId: own.id, name: 'Role admins', functionCodes: [] },
        w.roleManager,
      );
      await w.succeed(endpoints.deleteRole, { roleId: own.id }, w.roleManager);
    });
  });
});
