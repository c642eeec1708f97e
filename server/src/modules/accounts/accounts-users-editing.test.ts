import { ALL_FUNCTION_CODES, endpoints, PASSWORD_PATTERN } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenUser } from '../../../test/factories';
import { post, signIn } from '../../../test/harness';
import { type AccountsWorld, ALL_SCOPES, createAccountsWorld } from '../../../test/scenarios/accounts';

describe('accounts administration', () => {
  let w: AccountsWorld;
  beforeAll(async () => {
    w = await createAccountsWorld();
  });
  afterAll(() => w.t.close());

  describe('users', () => {
    let deptId: number;
    beforeAll(async () => {
      deptId = await w.createDept('People');
    });

    it('edits a user: the department move takes their items along, and a removed code is refused at once', async () => {
      const from = await w.createDept('Edit from');
      const to = await w.createDept('Edit to');
      const account = await givenUser(w.t.database, {
        deptId: from,
        functionCodes: [2],
        scopes: { upload: 'dept', view: 'dept' },
      });
      const token = await signIn(w.t.app, account.email, account.password);
      const folder = await w.makeFolder(token, 'Edited user folder');
      expect((await w.call('dept-tree', undefined, token)).status).toBe(200);

      await w.succeed(endpoints.editUser, {
        userId: account.id,
        name: 'Edited',
        email: 'Edited.User@Example.com',
        mobile: '13900000009',
        username: 'edited',
        deptId: to,
        roleIdList: [],
      });
      expect(await w.succeed(endpoints.userDetail, { userId: account.id })).toMatchObject({
        name: 'Edited',
        email: 'edited.user@example.com',
        mobile: '13900000009',
        username: 'edited',
        deptId: to,
        roleIdList: [],
      });
      expect(await w.itemDeptPath(folder)).toBe(`${w.rootPath}${to}/`);
      // The session survives, but its permissions are those of now.
      expect((await post(w.t.app, '/security-api/user-info', undefined, { token })).status).toBe(200);
      await w.refused('dept-tree', undefined, 'SE_502', token);

      // An absent username, e-mail or phone is cleared: the body is the whole record.
      await w.succeed(endpoints.editUser, {
        userId: account.id,
        name: 'Edited',
        mobile: '13900000009',
        deptId: to,
      });
      expect(await w.succeed(endpoints.userDetail, { userId: account.id })).toMatchObject({
        email: null,
        username: null,
      });
    });

    it('refuses edit-user mistakes, changing nothing', async () => {
      const other = await w.succeed(endpoints.createUser, {
        name: 'Other',
        email: 'other.edit@example.com',
        mobile: '13900000011',
        username: 'other.edit',
        deptId,
      });
      const target = await w.succeed(endpoints.createUser, {
        name: 'Target',
        email: 'target.edit@example.com',
        deptId,
      });
      const gone = await givenUser(w.t.database);
      await w.succeed(endpoints.deleteUser, { userId: gone.id });
      const base = { userId: target.id, name: 'Target', email: 'target.edit@example.com', deptId };
      await w.refused('edit-user', { ...base, userId: 999_999 }, 'SED_02');
      await w.refused('edit-user', { ...base, userId: gone.id }, 'SED_02');
      await w.refused('edit-user', { ...base, email: 'OTHER.edit@example.com' }, 'SED_07');
      await w.refused('edit-user', { ...base, mobile: '13900000011' }, 'SED_08');
      await w.refused('edit-user', { ...base, username: 'Other.Edit' }, 'SEAC_07');
      await w.refused('edit-user', { ...base, deptId: 999_999 }, 'SED_06');
      await w.refused('edit-user', { ...base, roleIdList: [999_999] }, 'SED_05');
      // Keeping one's own identifiers is no clash.
      await w.succeed(endpoints.editUser, { ...base, email: 'TARGET.edit@example.com' });
      expect(other.id).toBeGreaterThan(0);
    });

    it('keeps at least one live holder of the system role', async () => {
      const me = await w.succeed(endpoints.userDetail, { userId: w.adminId });
      const adminBody = {
        userId: w.adminId,
        name: me.name,
        email: me.email,
        deptId: me.deptId ?? w.rootId,
        roleIdList: [],
      };
      await w.refused('edit-user', adminBody, 'SEAC_05');

      // An all-powerful user without the system role cannot delete its last holder either.
      const superUser = await givenUser(w.t.database, {
        functionCodes: [...ALL_FUNCTION_CODES],
        scopes: ALL_SCOPES,
        deptId: w.rootId,
      });
      const superToken = await signIn(w.t.app, superUser.email, superUser.password);
      await w.refused('delete-user', { userId: w.adminId }, 'SEAC_05', superToken);

      // With a second holder, one of them may lose it.
      const second = await w.succeed(endpoints.createUser, {
        name: 'Second admin',
        email: 'second.admin@example.com',
        deptId: w.rootId,
        roleIdList: [w.systemRoleId],
      });
      expect((await w.listRoles()).find((r) => r.id === w.systemRoleId)?.userCount).toBe(2);
      await w.succeed(
        endpoints.editUser,
        { userId: second.id, name: 'Second admin', email: 'second.admin@example.com', deptId: w.rootId },
        superToken,
      );
      await w.succeed(endpoints.editUser, { ...adminBody, roleIdList: [w.systemRoleId] }, superToken);
      await w.succeed(endpoints.deleteUser, { userId: second.id }, superToken);
      expect((await w.listRoles()).find((r) => r.id === w.systemRoleId)?.userCount).toBe(1);
    });

    it('deletes a user: their sessions end at once, their files stay, their identifiers come free', async () => {
      const account = await givenUser(w.t.database, { deptId, scopes: { upload: 'all', view: 'all' } });
      const first = await signIn(w.t.app, account.email, account.password);
      const second = await signIn(w.t.app, account.email, account.password, true);
      const folder = await w.makeFolder(first, 'Left behind');
      const headed = await w.createDept('Headed by leaver', w.rootId, { headUserId: account.id });

      await w.refused('delete-user', { userId: w.adminId }, 'SEAC_04');
      await w.refused('delete-user', { userId: 999_999 }, 'SED_02');
      await w.succeed(endpoints.deleteUser, { userId: account.id });

      for (const token of [first, second]) {
        const info = await post(w.t.app, '/security-api/user-info', undefined, { token });
        expect(info.status).toBe(401);
        expect(info.body.errorCode).toBe('SE_501');
      }
      const login = await post(w.t.app, '/security-api/login', {
        userName: account.email,
        password: account.password,
      });
      expect(login.body.errorCode).toBe('SED_10');
      const item = await w.t.database.db
        .selectFrom('items')
        .select(['owner_id', 'state'])
        .where('id', '=', folder)
        .executeTakeFirstOrThrow();
      expect(item).toEqual({ owner_id: account.id, state: 1 });
      expect(await w.topLevelNames(w.admin)).toContain('Left behind');
      expect(await w.detail(headed)).toMatchObject({ headUserId: null, headUserName: null });
      await w.refused('user-detail', { userId: account.id }, 'SED_02');
      await w.refused('delete-user', { userId: account.id }, 'SED_02');
      await w.refused('reset-pwd', { userId: account.id }, 'SED_02');

      const reused = await w.call('create-user', { name: 'Successor', email: account.email, deptId });
      expect(reused.status).toBe(200);
    });

    it('resets a password: every old session ends and the new one must be changed', async () => {
      const account = await givenUser(w.t.database, { deptId });
      const token = await signIn(w.t.app, account.email, account.password);
      const { password } = await w.succeed(endpoints.resetUserPassword, { userId: account.id });
      expect(password).toMatch(PASSWORD_PATTERN);
      const old = await post(w.t.app, '/security-api/user-info', undefined, { token });
      expect(old.status).toBe(401);
      expect(old.body.errorCode).toBe('SE_501');
      const oldLogin = await post(w.t.app, '/security-api/login', {
        userName: account.email,
        password: account.password,
      });
      expect(oldLogin.body.errorCode).toBe('SED_10');
      const login = await post(w.t.app, '/security-api/login', { userName: account.email, password });
      expect(login.body.result).toMatchObject({ passwordExpireFlag: true });
      await w.refused('reset-pwd', { userId: 999_999 }, 'SED_02');
    });

    it('needs code 2 for users, and the caller never hands out more than they hold', async () => {
      const staff = await w.succeed(endpoints.createUser, {
        name: 'Staff',
        email: 'staff.perm@example.com',
        deptId,
      });
      const staffBody = { userId: staff.id, name: 'Staff', email: 'staff.perm@example.com', deptId };
      for (const token of [w.roleManager, w.outsider]) {
        await w.refused('user-list', {}, 'SE_502', token);
        await w.refused('user-detail', { userId: staff.id }, 'SE_502', token);
        await w.refused('create-user', { name: 'No', email: 'no@example.com', deptId }, 'SE_502', token);
        await w.refused('edit-user', staffBody, 'SE_502', token);
        await w.refused('delete-user', { userId: staff.id }, 'SE_502', token);
        await w.refused('reset-pwd', { userId: staff.id }, 'SE_502', token);
      }

      const um = w.userManager.token;
      expect((await w.call('user-list', {}, um)).status).toBe(200);
      await w.succeed(
        endpoints.editUser,
        { ...staffBody, name: 'Staff member', roleIdList: [w.userManager.roleId] },
        um,
      );
      await w.succeed(endpoints.resetUserPassword, { userId: staff.id }, um);
      // Roles beyond the caller's own, directly or through the department.
      await w.refused(
        'create-user',
        { name: 'Sneaky', email: 'sneaky@example.com', deptId, roleIdList: [w.systemRoleId] },
        'SE_502',
        um,
      );
      const adminRoom = await w.createDept('Admin room', w.rootId, { roleIdList: [w.systemRoleId] });
      await w.refused(
        'create-user',
        { name: 'Sneaky', email: 'sneaky@example.com', deptId: adminRoom },
        'SE_502',
        um,
      );
      await w.refused('edit-user', { ...staffBody, deptId: adminRoom }, 'SE_502', um);
      const self = await w.succeed(endpoints.userDetail, { userId: w.userManager.id }, um);
      await w.refused(
        'edit-user',
        {
          userId: w.userManager.id,
          name: self.name,
          email: self.email,
          deptId: self.deptId,
          roleIdList: [w.userManager.roleId, w.systemRoleId],
        },
        'SE_502',
        um,
      );
      // Nor may they change, delete or reset an account more powerful than themselves.
      const me = await w.succeed(endpoints.userDetail, { userId: w.adminId }, um);
      await w.refused(
        'edit-user',
        { userId: w.adminId, name: 'Hacked', email: me.email, deptId: me.deptId, roleIdList: me.roleIdList },
        'SE_502',
        um,
      );
      await w.refused('delete-user', { userId: w.adminId }, 'SE_502', um);
      await w.refused('reset-pwd', { userId: w.adminId }, 'SE_502', um);
    });
  });
});
