import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenUser } from '../../../test/factories';
import { signIn } from '../../../test/harness';
import { type AccountsWorld, createAccountsWorld, NO_SCOPES } from '../../../test/scenarios/accounts';

describe('accounts administration', () => {
  let w: AccountsWorld;
  beforeAll(async () => {
    w = await createAccountsWorld();
  });
  afterAll(() => w.t.close());

  describe('departments', () => {
    it('creates departments and lists them parents first, siblings by name, with head, members and roles', async () => {
      const roleId = await w.createRole('Tree viewers', [4], { ...NO_SCOPES, view: 'dept' });
      const top = await w.createDept('Tree test', w.rootId, {
        headUserId: w.adminId,
        roleIdList: [roleId, roleId],
      });
      const beta = await w.createDept('beta', top);
      const gamma10 = await w.createDept('gamma 10', top);
      const alpha = await w.createDept('Alpha', top);
      const gamma9 = await w.createDept('gamma 9', top);
      const zeta = await w.createDept('Zeta', alpha);
      await givenUser(w.t.database, { deptId: alpha });
      const gone = await givenUser(w.t.database, { deptId: alpha });
      await w.succeed(endpoints.deleteUser, { userId: gone.id });

      const { departments } = await w.succeed(endpoints.departmentTree);
      expect(departments[0]?.id).toBe(w.rootId);
      const seen = new Set<number>();
      for (const dept of departments) {
        if (dept.parentId !== null) expect(seen.has(dept.parentId), dept.name).toBe(true);
        seen.add(dept.id);
      }
      const mine = departments.filter((d) => [top, alpha, beta, gamma9, gamma10, zeta].includes(d.id));
      expect(mine.map((d) => d.name)).toEqual(['Tree test', 'Alpha', 'Zeta', 'beta', 'gamma 9', 'gamma 10']);
      expect(mine[0]).toEqual({
        id: top,
        name: 'Tree test',
        parentId: w.rootId,
        path: `${w.rootPath}${top}/`,
        type: 1,
        status: 1,
        headUserId: w.adminId,
        headUserName: '管理员',
        memberCount: 0,
        roleIdList: [roleId],
      });
      expect(await w.detail(alpha)).toMatchObject({
        parentId: top,
        path: `${w.rootPath}${top}/${alpha}/`,
        memberCount: 1,
        headUserId: null,
        headUserName: null,
        roleIdList: [],
      });
      expect(await w.detail(zeta)).toMatchObject({ path: `${w.rootPath}${top}/${alpha}/${zeta}/` });
    });

    it('refuses an unknown parent, role or head and a blank name, changing nothing', async () => {
      const dropped = await w.createDept('Dropped');
      await w.succeed(endpoints.deleteDepartment, { deptId: dropped });
      const leaver = await givenUser(w.t.database);
      await w.succeed(endpoints.deleteUser, { userId: leaver.id });

      await w.refused('create-dept', { name: 'X', parentId: 999_999 }, 'SED_04');
      await w.refused('create-dept', { name: 'X', parentId: dropped }, 'SED_04');
      await w.refused('create-dept', { name: 'X', parentId: w.rootId, roleIdList: [999_999] }, 'SED_05');
      await w.refused('create-dept', { name: 'X', parentId: w.rootId, headUserId: 999_999 }, 'SED_02');
      await w.refused('create-dept', { name: 'X', parentId: w.rootId, headUserId: leaver.id }, 'SED_02');
      const blank = await w.refused('create-dept', { name: '   ', parentId: w.rootId }, 'SE_400');
      expect(blank.body.errorDesc).toContain('name:');
      await w.refused('dept-detail', { deptId: 999_999 }, 'SED_06');
      await w.refused('dept-detail', { deptId: dropped }, 'SED_06');
    });

    it('edits name, head and roles; the root may be renamed but never moved', async () => {
      const roleId = await w.createRole('Edit dept role', [4]);
      const dept = await w.createDept('Before', w.rootId, { headUserId: w.adminId });
      await w.succeed(endpoints.editDepartment, {
        deptId: dept,
        parentId: w.rootId,
        name: ' After ',
        roleIdList: [roleId],
      });
      expect(await w.detail(dept)).toMatchObject({
        name: 'After',
        parentId: w.rootId,
        headUserId: null,
        roleIdList: [roleId],
      });
      const root = await w.detail(w.rootId);
      await w.succeed(endpoints.editDepartment, {
        deptId: w.rootId,
        parentId: null,
        name: 'HQ',
        headUserId: w.adminId,
        roleIdList: root.roleIdList,
      });
      expect(await w.detail(w.rootId)).toMatchObject({
        name: 'HQ',
        parentId: null,
        path: w.rootPath,
        headUserId: w.adminId,
      });
      // The root's parent may also be left out.
      await w.succeed(endpoints.editDepartment, { deptId: w.rootId, name: 'HQ', headUserId: w.adminId });
      const orphanToo = await w.refused('edit-dept', { deptId: dept, name: 'After' }, 'SE_400');
      expect(orphanToo.body.errorDesc).toContain('parentId:');

      await w.refused('edit-dept', { deptId: w.rootId, parentId: dept, name: 'HQ' }, 'SEAC_02');
      const orphan = await w.refused('edit-dept', { deptId: dept, parentId: null, name: 'After' }, 'SE_400');
      expect(orphan.body.errorDesc).toContain('parentId:');
      await w.refused('edit-dept', { deptId: 999_999, parentId: w.rootId, name: 'X' }, 'SED_06');
      await w.refused('edit-dept', { deptId: dept, parentId: 999_999, name: 'X' }, 'SED_04');
      await w.refused(
        'edit-dept',
        { deptId: dept, parentId: w.rootId, name: 'X', headUserId: 999_999 },
        'SED_02',
      );
      await w.refused(
        'edit-dept',
        { deptId: dept, parentId: w.rootId, name: 'X', roleIdList: [999_999] },
        'SED_05',
      );
    });

    it('moves a department with its subtree: paths and the items of its members follow, and sight follows paths', async () => {
      const a = await w.createDept('Move A');
      const b = await w.createDept('Move B', a);
      const c = await w.createDept('Move C', b);
      const d = await w.createDept('Move D');
      const owner = await givenUser(w.t.database, { deptId: c, scopes: { view: 'dept', upload: 'dept' } });
      const viewerA = await givenUser(w.t.database, { deptId: a, scopes: { view: 'dept' } });
      const viewerD = await givenUser(w.t.database, { deptId: d, scopes: { view: 'dept' } });
      const ownerToken = await signIn(w.t.app, owner.email, owner.password);
      const viewerAToken = await signIn(w.t.app, viewerA.email, viewerA.password);
      const viewerDToken = await signIn(w.t.app, viewerD.email, viewerD.password);
      const folder = await w.makeFolder(ownerToken, 'Lasts of C');
      expect(await w.itemDeptPath(folder)).toBe(`${w.rootPath}${a}/${b}/${c}/`);
      expect(await w.topLevelNames(viewerAToken)).toContain('Lasts of C');
      expect(await w.topLevelNames(viewerDToken)).not.toContain('Lasts of C');

      await w.refused('edit-dept', { deptId: b, parentId: b, name: 'Move B' }, 'SEAC_03');
      await w.refused('edit-dept', { deptId: a, parentId: c, name: 'Move A' }, 'SEAC_03');

      await w.succeed(endpoints.editDepartment, { deptId: b, parentId: d, name: 'Move B' });
      expect(await w.detail(b)).toMatchObject({ parentId: d, path: `${w.rootPath}${d}/${b}/` });
      expect(await w.detail(c)).toMatchObject({ parentId: b, path: `${w.rootPath}${d}/${b}/${c}/` });
      expect(await w.detail(a)).toMatchObject({ path: `${w.rootPath}${a}/` });
      expect(await w.itemDeptPath(folder)).toBe(`${w.rootPath}${d}/${b}/${c}/`);
      // The viewer of A no longer sees into the moved subtree; the viewer of D now does.
      expect(await w.topLevelNames(viewerAToken)).not.toContain('Lasts of C');
      expect(await w.topLevelNames(viewerDToken)).toContain('Lasts of C');
      expect(await w.topLevelNames(ownerToken)).toContain('Lasts of C');
    });

    it('deletes only an empty department that is not the root', async () => {
      const parent = await w.createDept('Delete parent');
      const child = await w.createDept('Delete child', parent);
      const member = await givenUser(w.t.database, { deptId: child });
      await w.refused('delete-dept', { deptId: w.rootId }, 'SEAC_02');
      await w.refused('delete-dept', { deptId: parent }, 'SEAC_01');
      await w.refused('delete-dept', { deptId: child }, 'SEAC_01');
      await w.refused('delete-dept', { deptId: 999_999 }, 'SED_06');

      // A deleted member does not keep the department alive.
      await w.succeed(endpoints.deleteUser, { userId: member.id });
      await w.succeed(endpoints.deleteDepartment, { deptId: child });
      await w.succeed(endpoints.deleteDepartment, { deptId: parent });
      const { departments } = await w.succeed(endpoints.departmentTree);
      expect(departments.map((x) => x.id)).not.toContain(parent);
      const rows = await w.t.database.db
        .selectFrom('departments')
        .select(['id', 'status'])
        .where('id', 'in', [parent, child])
        .execute();
      expect(rows.map((r) => r.status)).toEqual([0, 0]);
      await w.refused('delete-dept', { deptId: parent }, 'SED_06');
      await w.refused('edit-dept', { deptId: child, parentId: w.rootId, name: 'Again' }, 'SED_06');
      await w.refused('create-user', { name: 'Late', email: 'late@example.com', deptId: child }, 'SED_06');
    });

    it('reads departments with code 2 or 3 and changes them with code 2 only', async () => {
      const dept = await w.createDept('Permissions dept');
      expect((await w.call('dept-tree', undefined, w.roleManager)).status).toBe(200);
      expect((await w.call('dept-detail', { deptId: dept }, w.roleManager)).status).toBe(200);
      for (const token of [w.roleManager, w.outsider]) {
        await w.refused('create-dept', { name: 'No', parentId: w.rootId }, 'SE_502', token);
        await w.refused('edit-dept', { deptId: dept, parentId: w.rootId, name: 'No' }, 'SE_502', token);
        await w.refused('delete-dept', { deptId: dept }, 'SE_502', token);
      }
      await w.refused('dept-tree', undefined, 'SE_502', w.outsider);
      await w.refused('dept-detail', { deptId: dept }, 'SE_502', w.outsider);

      const { id: made } = await w.succeed(
        endpoints.createDepartment,
        { name: 'By the user manager', parentId: dept },
        w.userManager.token,
      );
      await w.succeed(
        endpoints.editDepartment,
        { deptId: made, parentId: dept, name: 'Renamed' },
        w.userManager.token,
      );
      // Giving a department's members a role beyond one's own is refused.
      await w.refused(
        'create-dept',
        { name: 'Admins', parentId: dept, roleIdList: [w.systemRoleId] },
        'SE_502',
        w.userManager.token,
      );
      await w.refused(
        'edit-dept',
        { deptId: made, parentId: dept, name: 'Renamed', roleIdList: [w.systemRoleId] },
        'SE_502',
        w.userManager.token,
      );
    });
  });
});
