import {
  type EndpointBody,
  type ErrorCode,
  endpoints,
  type FilePermissions,
  type JsonEndpoint,
  type ManagedUser,
} from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call as callEndpoint } from '../../../test/call';
import { givenUser } from '../../../test/factories';
import { ADMIN, createTestApp, post, signIn, type TestApp } from '../../../test/harness';
import { accountsCalls } from '../../../test/scenarios/accounts';

const NO_SCOPES = { view: 'none', upload: 'none', download: 'none', share: 'none' } as const;
const DEPT_SCOPES = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;

/**
 * Issue 9 item 2: department, user and password-reset calls act only inside the caller's
 * department subtree (everywhere only for a caller whose every file scope is "all"), and a role
 * manager changes only roles within their own codes and scopes. Targets outside the caller's
 * reach are answered exactly like unknown ids.
 */
describe('accounts administration is confined to the caller subtree', () => {
  let t: TestApp;
  let admin: string;
  let rootId: number;
  let rootPath: string;
  /** Root → A → A1, root → B → B1. */
  let a: number;
  let a1: number;
  let b: number;
  let b1: number;
  /** Code 2 with file scopes "self and below", a member of A. */
  let alice: { id: number; token: string; roleId: number };
  /** A member of A1 without roles, and one of B. */
  let carol: number;
  let bob: number;
  let bobEmail: string;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
    admin = await signIn(t.app, ADMIN.email, ADMIN.password);
    calls = accountsCalls(t, admin);
    const root = await t.database.db
      .selectFrom('departments')
      .selectAll()
      .where('parent_id', 'is', null)
      .executeTakeFirstOrThrow();
    rootId = root.id;
    rootPath = root.path;
    a = await createDept('Confined A', rootId);
    a1 = await createDept('Confined A1', a);
    b = await createDept('Confined B', rootId);
    b1 = await createDept('Confined B1', b);
    const al = await givenUser(t.database, { deptId: a, functionCodes: [2], scopes: DEPT_SCOPES });
    alice = { id: al.id, token: await signIn(t.app, al.email, al.password), roleId: al.roleId as number };
    carol = (await givenUser(t.database, { deptId: a1 })).id;
    const bo = await givenUser(t.database, { deptId: b });
    bob = bo.id;
    bobEmail = bo.email;
    await signIn(t.app, bo.email, bo.password);
  });
  afterAll(() => t.close());

  // Made in beforeAll with the app; the calls below go through it.
  let calls: ReturnType<typeof accountsCalls>;
  const call = (path: string, body?: unknown, token = admin, lang = 'en') =>
    calls.call(path, body, token, lang);
  const succeed = <E extends JsonEndpoint>(endpoint: E, body?: EndpointBody<E>, token = admin) =>
    calls.succeed(endpoint, body, token);
  const refused = (path: string, body: unknown, code: ErrorCode, token: string) =>
    calls.refused(path, body, code, token);

  async function createDept(name: string, parentId: number, token = admin): Promise<number> {
    return (await succeed(endpoints.createDepartment, { name, parentId }, token)).id;
  }

  /** Out of reach answers exactly what an unknown id answers: nothing to enumerate. */
  async function likeUnknown(path: string, body: Record<string, unknown>, unknown: Record<string, unknown>) {
    const real = await call(path, body, alice.token);
    const missing = await call(path, { ...body, ...unknown }, alice.token);
    expect({ status: real.status, body: real.body }).toEqual({ status: missing.status, body: missing.body });
  }

  const topLevelNames = async (token: string) =>
    (await callEndpoint(t.app, endpoints.folderListing, { token, query: { folderDataId: 'all' } })).list.map(
      (i) => i.name,
    );
  const userBody = (user: ManagedUser) => ({
    userId: user.id,
    name: user.name,
    email: user.email,
    deptId: user.deptId,
    roleIdList: user.roleIdList,
  });

  it('cannot re-parent a department from outside the subtree under its own, nor move one out of it', async () => {
    // B's files, which alice must not reach by moving B under A.
    const owner = await givenUser(t.database, { deptId: b1, scopes: { view: 'dept', upload: 'dept' } });
    const ownerToken = await signIn(t.app, owner.email, owner.password);
    const { status } = await post(
      t.app,
      '/ske-api/v1_0/file/creat-folder',
      { folderName: 'Secrets of B1' },
      { token: ownerToken },
    );
    expect(status).toBe(200);
    expect(await topLevelNames(alice.token)).not.toContain('Secrets of B1');

    await refused('edit-dept', { deptId: b, parentId: a, name: 'Confined B' }, 'SED_06', alice.token);
    await refused('edit-dept', { deptId: b1, parentId: a1, name: 'Confined B1' }, 'SED_06', alice.token);
    // Out of the subtree: the new parent is outside the caller's reach.
    await refused('edit-dept', { deptId: a1, parentId: b, name: 'Confined A1' }, 'SED_04', alice.token);
    await refused('edit-dept', { deptId: a1, parentId: rootId, name: 'Confined A1' }, 'SED_04', alice.token);
    // Their own department cannot go anywhere: inside it is its own subtree, outside is out of reach.
    await refused('edit-dept', { deptId: a, parentId: a1, name: 'Confined A' }, 'SEAC_03', alice.token);
    await refused('edit-dept', { deptId: a, parentId: b, name: 'Confined A' }, 'SED_04', alice.token);
    expect(await topLevelNames(alice.token)).not.toContain('Secrets of B1');

    // Inside the subtree they administer freely.
    const a2 = await createDept('Confined A2', a, alice.token);
    await succeed(
      endpoints.editDepartment,
      { deptId: a2, parentId: a1, name: 'Confined A2 moved' },
      alice.token,
    );
    const moved = await succeed(endpoints.departmentDetail, { deptId: a2 }, alice.token);
    expect(moved).toMatchObject({ parentId: a1, path: `${rootPath}${a}/${a1}/${a2}/` });
    await refused('edit-dept', { deptId: a1, parentId: a2, name: 'Confined A1' }, 'SEAC_03', alice.token);
    await succeed(
      endpoints.editDepartment,
      { deptId: a, parentId: rootId, name: 'Confined A renamed' },
      alice.token,
    );
    await succeed(endpoints.editDepartment, { deptId: a, parentId: rootId, name: 'Confined A' }, alice.token);
    await succeed(endpoints.deleteDepartment, { deptId: a2 }, alice.token);
  });

  it('cannot reset the password of, read, edit or delete a user outside the subtree', async () => {
    await refused('reset-pwd', { userId: bob }, 'SED_02', alice.token);
    await likeUnknown('reset-pwd', { userId: bob }, { userId: 999_999 });
    await refused('user-detail', { userId: bob }, 'SED_02', alice.token);
    await likeUnknown('user-detail', { userId: bob }, { userId: 999_999 });
    const bobRecord = await succeed(endpoints.userDetail, { userId: bob });
    await refused('edit-user', { ...userBody(bobRecord), name: 'Hijacked' }, 'SED_02', alice.token);
    await refused('edit-user', { ...userBody(bobRecord), deptId: a }, 'SED_02', alice.token);
    await refused('delete-user', { userId: bob }, 'SED_02', alice.token);
    // Nor move a user of the subtree out of it, nor create one outside.
    const carolRecord = await succeed(endpoints.userDetail, { userId: carol }, alice.token);
    await refused('edit-user', { ...userBody(carolRecord), deptId: b }, 'SED_06', alice.token);
    await refused(
      'create-user',
      { name: 'Planted', email: 'planted@example.com', deptId: b1 },
      'SED_06',
      alice.token,
    );
    // The first administrator sits at the root, above alice: out of reach as well.
    const adminId = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', ADMIN.email)
        .executeTakeFirstOrThrow()
    ).id;
    await refused('reset-pwd', { userId: adminId }, 'SED_02', alice.token);

    // Bob still signs in with his password.
    const login = await post(t.app, '/security-api/login', { userName: bobEmail, password: 'Passw0rd!' });
    expect(login.status).toBe(200);

    // Inside the subtree it works.
    await succeed(endpoints.resetUserPassword, { userId: carol }, alice.token);
    await succeed(endpoints.editUser, { ...userBody(carolRecord), name: 'Carol', deptId: a }, alice.token);
    const made = await succeed(
      endpoints.createUser,
      { name: 'Newcomer', email: 'newcomer.confined@example.com', deptId: a1, roleIdList: [alice.roleId] },
      alice.token,
    );
    await succeed(endpoints.deleteUser, { userId: made.id }, alice.token);
  });

  it('sees only the departments and users of the subtree', async () => {
    const { departments } = await succeed(endpoints.departmentTree, undefined, alice.token);
    expect(departments.map((d) => d.id).sort()).toEqual([a, a1].sort());
    expect(departments[0]?.id).toBe(a);
    await refused('dept-detail', { deptId: b }, 'SED_06', alice.token);
    await refused('dept-detail', { deptId: rootId }, 'SED_06', alice.token);
    await likeUnknown('dept-detail', { deptId: b }, { deptId: 999_999 });
    await refused('create-dept', { name: 'Inside B', parentId: b }, 'SED_04', alice.token);
    await refused('delete-dept', { deptId: b1 }, 'SED_06', alice.token);
    await refused('create-dept', { name: 'Headed', parentId: a, headUserId: bob }, 'SED_02', alice.token);
    const aRecord = await succeed(endpoints.departmentDetail, { deptId: a1 }, alice.token);
    await refused(
      'edit-dept',
      { deptId: a1, parentId: aRecord.parentId, name: aRecord.name, headUserId: bob },
      'SED_02',
      alice.token,
    );

    const everyone = await succeed(endpoints.userList, { pageSize: 100 }, alice.token);
    const ids = everyone.list.map((u) => u.id);
    expect(ids).toContain(alice.id);
    expect(ids).toContain(carol);
    expect(ids).not.toContain(bob);
    expect(everyone.total).toBe(everyone.list.length);
    expect(everyone.list.every((u) => u.deptId === a || u.deptId === a1)).toBe(true);
    await refused('user-list', { deptId: b }, 'SED_06', alice.token);
    await refused('user-list', { deptId: rootId, includeSubDepts: false }, 'SED_06', alice.token);
  });

  it('confines a caller whose scopes are mixed, and one without a department reaches nothing', async () => {
    // Seeing everything but downloading only "self and below": moving B under A would widen the
    // download reach, so administration stays inside A.
    const mixed = await givenUser(t.database, {
      deptId: a,
      functionCodes: [2],
      scopes: { view: 'all', download: 'dept' },
    });
    const mixedToken = await signIn(t.app, mixed.email, mixed.password);
    await refused('edit-dept', { deptId: b, parentId: a, name: 'Confined B' }, 'SED_06', mixedToken);
    await refused('reset-pwd', { userId: bob }, 'SED_02', mixedToken);

    const homeless = await givenUser(t.database, { functionCodes: [2], scopes: { view: 'dept' } });
    const homelessToken = await signIn(t.app, homeless.email, homeless.password);
    const tree = await succeed(endpoints.departmentTree, undefined, homelessToken);
    expect(tree.departments).toEqual([]);
    const users = await succeed(endpoints.userList, {}, homelessToken);
    expect(users).toMatchObject({ list: [], total: 0 });
    await refused('reset-pwd', { userId: carol }, 'SED_02', homelessToken);
    await refused('create-dept', { name: 'Anywhere', parentId: rootId }, 'SED_04', homelessToken);

    // Whoever holds every file scope over everything administers everything.
    const everywhere = await givenUser(t.database, {
      deptId: b1,
      functionCodes: [2],
      scopes: { view: 'all', upload: 'all', download: 'all', share: 'all' },
    });
    const everywhereToken = await signIn(t.app, everywhere.email, everywhere.password);
    await succeed(endpoints.resetUserPassword, { userId: carol }, everywhereToken);
    const all = await succeed(endpoints.departmentTree, undefined, everywhereToken);
    expect(all.departments.map((d) => d.id)).toEqual(expect.arrayContaining([rootId, a, a1, b, b1]));
  });

  it('cannot reset its own password through administration, nor edit itself beyond its roles', async () => {
    await refused('reset-pwd', { userId: alice.id }, 'SEAC_08', alice.token);
    const zh = await call('reset-pwd', { userId: alice.id }, alice.token, 'zh');
    expect(zh.body.errorDesc).toMatch(/自己/);
    await refused('delete-user', { userId: alice.id }, 'SEAC_04', alice.token);
    const self = await succeed(endpoints.userDetail, { userId: alice.id }, alice.token);
    // Out of the subtree is out of reach even for oneself.
    await refused('edit-user', { ...userBody(self), deptId: rootId }, 'SED_06', alice.token);
    const systemRoleId = (
      await t.database.db
        .selectFrom('roles')
        .select('id')
        .where('is_system', '=', true)
        .executeTakeFirstOrThrow()
    ).id;
    await refused(
      'edit-user',
      { ...userBody(self), roleIdList: [alice.roleId, systemRoleId] },
      'SE_502',
      alice.token,
    );
  });

  it('does not strip a department of a role beyond the caller', async () => {
    const strong = (
      await succeed(endpoints.createRole, {
        name: 'Confined strong',
        functionCodes: [2, 7],
        filePermissions: DEPT_SCOPES,
      })
    ).id;
    const dept = (
      await succeed(endpoints.createDepartment, { name: 'Strong dept', parentId: a, roleIdList: [strong] })
    ).id;
    await refused(
      'edit-dept',
      { deptId: dept, parentId: a, name: 'Strong dept', roleIdList: [] },
      'SE_502',
      alice.token,
    );
    // What it already had may stay while the rest changes.
    await succeed(
      endpoints.editDepartment,
      { deptId: dept, parentId: a, name: 'Renamed strong dept', roleIdList: [strong] },
      alice.token,
    );
  });

  describe('role managers', () => {
    let manager: string;
    beforeAll(async () => {
      const rm = await givenUser(t.database, {
        deptId: a,
        functionCodes: [3],
        scopes: { view: 'dept' },
      });
      manager = await signIn(t.app, rm.email, rm.password);
    });
    const createRole = async (
      name: string,
      functionCodes: number[],
      filePermissions: FilePermissions = NO_SCOPES,
    ) => (await succeed(endpoints.createRole, { name, functionCodes, filePermissions })).id;

    it('cannot edit or delete a role holding codes or scopes beyond their own', async () => {
      const userRole = await createRole('Confined user admins', [2]);
      const body = {
        roleId: userRole,
        name: 'Confined user admins',
        functionCodes: [2],
        filePermissions: NO_SCOPES,
      };
      await refused('edit-role', { ...body, name: 'Renamed' }, 'SE_502', manager);
      await refused('edit-role', { ...body, functionCodes: [] }, 'SE_502', manager);
      await refused('delete-role', { roleId: userRole }, 'SE_502', manager);

      const wideRole = await createRole('Confined wide viewers', [3], { ...NO_SCOPES, view: 'all' });
      const wide = {
        roleId: wideRole,
        name: 'Confined wide viewers',
        functionCodes: [3],
        filePermissions: { ...NO_SCOPES, view: 'all' },
      };
      await refused('edit-role', { ...wide, filePermissions: NO_SCOPES }, 'SE_502', manager);
      await refused('delete-role', { roleId: wideRole }, 'SE_502', manager);

      // Roles within their own permissions stay theirs to change.
      const small = await createRole('Confined small', [3], { ...NO_SCOPES, view: 'dept' });
      await succeed(
        endpoints.editRole,
        { roleId: small, name: 'Confined smaller', functionCodes: [], filePermissions: NO_SCOPES },
        manager,
      );
      await succeed(endpoints.deleteRole, { roleId: small }, manager);
    });
  });
});
