import {
  ALL_FUNCTION_CODES,
  type Department,
  ERROR_HTTP_STATUS,
  type ErrorCode,
  type ManagedUser,
  PASSWORD_PATTERN,
  type Role,
  type UserListResult,
} from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenUser } from '../../../test/factories';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';
import { AppError } from '../../http/app-error';
import { translateUniqueViolation } from './checks';

const ALL_SCOPES = { view: 'all', upload: 'all', download: 'all', share: 'all' } as const;
const NO_SCOPES = { view: 'none', upload: 'none', download: 'none', share: 'none' } as const;

describe('accounts administration', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  let rootId: number;
  let rootPath: string;
  let systemRoleId: number;
  /** Function code 2 only, no file permissions. */
  let userManager: { id: number; token: string; roleId: number };
  /** Function code 3 only. */
  let roleManager: string;
  /** Function code 5 only. */
  let outsider: string;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
    admin = await signIn(t.app, ADMIN.email, ADMIN.password);
    const db = t.database.db;
    const root = await db
      .selectFrom('departments')
      .selectAll()
      .where('parent_id', 'is', null)
      .executeTakeFirstOrThrow();
    rootId = root.id;
    rootPath = root.path;
    adminId = (
      await db.selectFrom('users').select('id').where('email', '=', ADMIN.email).executeTakeFirstOrThrow()
    ).id;
    systemRoleId = (
      await db.selectFrom('roles').select('id').where('is_system', '=', true).executeTakeFirstOrThrow()
    ).id;
    const um = await givenUser(t.database, { functionCodes: [2], deptId: rootId });
    userManager = {
      id: um.id,
      token: await signIn(t.app, um.email, um.password),
      roleId: um.roleId as number,
    };
    // At the root: departments are read only within one's own subtree (accounts-confinement.test.ts).
    const rm = await givenUser(t.database, { functionCodes: [3], deptId: rootId });
    roleManager = await signIn(t.app, rm.email, rm.password);
    const o = await givenUser(t.database, { functionCodes: [5] });
    outsider = await signIn(t.app, o.email, o.password);
  });
  afterAll(() => t.close());

  const call = (path: string, body?: unknown, token = admin, lang = 'en') =>
    post(t.app, `/security-api/${path}`, body, { token, lang });

  async function succeed<T>(path: string, body?: unknown, token = admin): Promise<T> {
    const { status, body: envelope } = await call(path, body, token);
    expect(status, `${path} ${JSON.stringify(envelope)}`).toBe(200);
    expect(envelope.success).toBe(true);
    return envelope.result as T;
  }

  /** Everything an accounts call could change. */
  const snapshot = async () => {
    const db = t.database.db;
    return JSON.stringify(
      await Promise.all([
        db.selectFrom('departments').selectAll().orderBy('id').execute(),
        db.selectFrom('users').selectAll().orderBy('id').execute(),
        db.selectFrom('roles').selectAll().orderBy('id').execute(),
        db.selectFrom('user_roles').selectAll().orderBy('user_id').orderBy('role_id').execute(),
        db.selectFrom('department_roles').selectAll().orderBy('dept_id').orderBy('role_id').execute(),
        db.selectFrom('items').select(['id', 'dept_path', 'owner_id', 'state']).orderBy('id').execute(),
        db.selectFrom('sessions').select(['id', 'user_id']).orderBy('id').execute(),
      ]),
    );
  };

  /** The call fails with `code` (and its HTTP status) and changes nothing. */
  async function refused(path: string, body: unknown, code: ErrorCode, token = admin) {
    const before = await snapshot();
    const response = await call(path, body, token);
    expect(
      response.body.errorCode,
      `${path} ${JSON.stringify(body)} → ${JSON.stringify(response.body)}`,
    ).toBe(code);
    expect(response.status).toBe(ERROR_HTTP_STATUS[code]);
    expect(response.body.success).toBe(false);
    expect(await snapshot()).toBe(before);
    return response;
  }

  const createDept = async (name: string, parentId = rootId, extra: Record<string, unknown> = {}) =>
    (await succeed<{ id: number }>('create-dept', { name, parentId, ...extra })).id;
  const detail = (deptId: number) => succeed<Department>('dept-detail', { deptId });
  const createRole = async (name: string, functionCodes: number[] = [], scopes: object = NO_SCOPES) =>
    (await succeed<{ id: number }>('create-role', { name, functionCodes, filePermissions: scopes })).id;
  const listRoles = async (token = admin) =>
    (await succeed<{ roleList: Role[] }>('roles', undefined, token)).roleList;
  const topLevelNames = async (token: string) => {
    const { status, body } = await get(t.app, '/ske-api/v1_0/file/all-file-v2?folderDataId=all', { token });
    expect(status).toBe(200);
    return (body.result as { list: Array<{ name: string }> }).list.map((i) => i.name);
  };
  const makeFolder = async (token: string, folderName: string) => {
    const { status, body } = await post(t.app, '/ske-api/v1_0/file/creat-folder', { folderName }, { token });
    expect(status, JSON.stringify(body)).toBe(200);
    return (body.result as { folderId: number }).folderId;
  };
  const itemDeptPath = async (id: number) =>
    (
      await t.database.db
        .selectFrom('items')
        .select('dept_path')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).dept_path;

  describe('departments', () => {
    it('creates departments and lists them parents first, siblings by name, with head, members and roles', async () => {
      const roleId = await createRole('Tree viewers', [4], { ...NO_SCOPES, view: 'dept' });
      const top = await createDept('Tree test', rootId, {
        headUserId: adminId,
        roleIdList: [roleId, roleId],
      });
      const beta = await createDept('beta', top);
      const gamma10 = await createDept('gamma 10', top);
      const alpha = await createDept('Alpha', top);
      const gamma9 = await createDept('gamma 9', top);
      const zeta = await createDept('Zeta', alpha);
      await givenUser(t.database, { deptId: alpha });
      const gone = await givenUser(t.database, { deptId: alpha });
      await succeed('delete-user', { userId: gone.id });

      const { departments } = await succeed<{ departments: Department[] }>('dept-tree');
      expect(departments[0]?.id).toBe(rootId);
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
        parentId: rootId,
        path: `${rootPath}${top}/`,
        type: 1,
        status: 1,
        headUserId: adminId,
        headUserName: '管理员',
        memberCount: 0,
        roleIdList: [roleId],
      });
      expect(await detail(alpha)).toMatchObject({
        parentId: top,
        path: `${rootPath}${top}/${alpha}/`,
        memberCount: 1,
        headUserId: null,
        headUserName: null,
        roleIdList: [],
      });
      expect(await detail(zeta)).toMatchObject({ path: `${rootPath}${top}/${alpha}/${zeta}/` });
    });

    it('refuses an unknown parent, role or head and a blank name, changing nothing', async () => {
      const dropped = await createDept('Dropped');
      await succeed('delete-dept', { deptId: dropped });
      const leaver = await givenUser(t.database);
      await succeed('delete-user', { userId: leaver.id });

      await refused('create-dept', { name: 'X', parentId: 999_999 }, 'SED_04');
      await refused('create-dept', { name: 'X', parentId: dropped }, 'SED_04');
      await refused('create-dept', { name: 'X', parentId: rootId, roleIdList: [999_999] }, 'SED_05');
      await refused('create-dept', { name: 'X', parentId: rootId, headUserId: 999_999 }, 'SED_02');
      await refused('create-dept', { name: 'X', parentId: rootId, headUserId: leaver.id }, 'SED_02');
      const blank = await refused('create-dept', { name: '   ', parentId: rootId }, 'SE_400');
      expect(blank.body.errorDesc).toContain('name:');
      await refused('dept-detail', { deptId: 999_999 }, 'SED_06');
      await refused('dept-detail', { deptId: dropped }, 'SED_06');
    });

    it('edits name, head and roles; the root may be renamed but never moved', async () => {
      const roleId = await createRole('Edit dept role', [4]);
      const dept = await createDept('Before', rootId, { headUserId: adminId });
      await succeed('edit-dept', { deptId: dept, parentId: rootId, name: ' After ', roleIdList: [roleId] });
      expect(await detail(dept)).toMatchObject({
        name: 'After',
        parentId: rootId,
        headUserId: null,
        roleIdList: [roleId],
      });
      const root = await detail(rootId);
      await succeed('edit-dept', {
        deptId: rootId,
        parentId: null,
        name: 'HQ',
        headUserId: adminId,
        roleIdList: root.roleIdList,
      });
      expect(await detail(rootId)).toMatchObject({
        name: 'HQ',
        parentId: null,
        path: rootPath,
        headUserId: adminId,
      });
      // The root's parent may also be left out.
      await succeed('edit-dept', { deptId: rootId, name: 'HQ', headUserId: adminId });
      const orphanToo = await refused('edit-dept', { deptId: dept, name: 'After' }, 'SE_400');
      expect(orphanToo.body.errorDesc).toContain('parentId:');

      await refused('edit-dept', { deptId: rootId, parentId: dept, name: 'HQ' }, 'SEAC_02');
      const orphan = await refused('edit-dept', { deptId: dept, parentId: null, name: 'After' }, 'SE_400');
      expect(orphan.body.errorDesc).toContain('parentId:');
      await refused('edit-dept', { deptId: 999_999, parentId: rootId, name: 'X' }, 'SED_06');
      await refused('edit-dept', { deptId: dept, parentId: 999_999, name: 'X' }, 'SED_04');
      await refused(
        'edit-dept',
        { deptId: dept, parentId: rootId, name: 'X', headUserId: 999_999 },
        'SED_02',
      );
      await refused(
        'edit-dept',
        { deptId: dept, parentId: rootId, name: 'X', roleIdList: [999_999] },
        'SED_05',
      );
    });

    it('moves a department with its subtree: paths and the items of its members follow, and sight follows paths', async () => {
      const a = await createDept('Move A');
      const b = await createDept('Move B', a);
      const c = await createDept('Move C', b);
      const d = await createDept('Move D');
      const owner = await givenUser(t.database, { deptId: c, scopes: { view: 'dept', upload: 'dept' } });
      const viewerA = await givenUser(t.database, { deptId: a, scopes: { view: 'dept' } });
      const viewerD = await givenUser(t.database, { deptId: d, scopes: { view: 'dept' } });
      const ownerToken = await signIn(t.app, owner.email, owner.password);
      const viewerAToken = await signIn(t.app, viewerA.email, viewerA.password);
      const viewerDToken = await signIn(t.app, viewerD.email, viewerD.password);
      const folder = await makeFolder(ownerToken, 'Lasts of C');
      expect(await itemDeptPath(folder)).toBe(`${rootPath}${a}/${b}/${c}/`);
      expect(await topLevelNames(viewerAToken)).toContain('Lasts of C');
      expect(await topLevelNames(viewerDToken)).not.toContain('Lasts of C');

      await refused('edit-dept', { deptId: b, parentId: b, name: 'Move B' }, 'SEAC_03');
      await refused('edit-dept', { deptId: a, parentId: c, name: 'Move A' }, 'SEAC_03');

      await succeed('edit-dept', { deptId: b, parentId: d, name: 'Move B' });
      expect(await detail(b)).toMatchObject({ parentId: d, path: `${rootPath}${d}/${b}/` });
      expect(await detail(c)).toMatchObject({ parentId: b, path: `${rootPath}${d}/${b}/${c}/` });
      expect(await detail(a)).toMatchObject({ path: `${rootPath}${a}/` });
      expect(await itemDeptPath(folder)).toBe(`${rootPath}${d}/${b}/${c}/`);
      // The viewer of A no longer sees into the moved subtree; the viewer of D now does.
      expect(await topLevelNames(viewerAToken)).not.toContain('Lasts of C');
      expect(await topLevelNames(viewerDToken)).toContain('Lasts of C');
      expect(await topLevelNames(ownerToken)).toContain('Lasts of C');
    });

    it('deletes only an empty department that is not the root', async () => {
      const parent = await createDept('Delete parent');
      const child = await createDept('Delete child', parent);
      const member = await givenUser(t.database, { deptId: child });
      await refused('delete-dept', { deptId: rootId }, 'SEAC_02');
      await refused('delete-dept', { deptId: parent }, 'SEAC_01');
      await refused('delete-dept', { deptId: child }, 'SEAC_01');
      await refused('delete-dept', { deptId: 999_999 }, 'SED_06');

      // A deleted member does not keep the department alive.
      await succeed('delete-user', { userId: member.id });
      await succeed('delete-dept', { deptId: child });
      await succeed('delete-dept', { deptId: parent });
      const { departments } = await succeed<{ departments: Department[] }>('dept-tree');
      expect(departments.map((x) => x.id)).not.toContain(parent);
      const rows = await t.database.db
        .selectFrom('departments')
        .select(['id', 'status'])
        .where('id', 'in', [parent, child])
        .execute();
      expect(rows.map((r) => r.status)).toEqual([0, 0]);
      await refused('delete-dept', { deptId: parent }, 'SED_06');
      await refused('edit-dept', { deptId: child, parentId: rootId, name: 'Again' }, 'SED_06');
      await refused('create-user', { name: 'Late', email: 'late@example.com', deptId: child }, 'SED_06');
    });

    it('reads departments with code 2 or 3 and changes them with code 2 only', async () => {
      const dept = await createDept('Permissions dept');
      expect((await call('dept-tree', undefined, roleManager)).status).toBe(200);
      expect((await call('dept-detail', { deptId: dept }, roleManager)).status).toBe(200);
      for (const token of [roleManager, outsider]) {
        await refused('create-dept', { name: 'No', parentId: rootId }, 'SE_502', token);
        await refused('edit-dept', { deptId: dept, parentId: rootId, name: 'No' }, 'SE_502', token);
        await refused('delete-dept', { deptId: dept }, 'SE_502', token);
      }
      await refused('dept-tree', undefined, 'SE_502', outsider);
      await refused('dept-detail', { deptId: dept }, 'SE_502', outsider);

      const { id: made } = await succeed<{ id: number }>(
        'create-dept',
        { name: 'By the user manager', parentId: dept },
        userManager.token,
      );
      await succeed('edit-dept', { deptId: made, parentId: dept, name: 'Renamed' }, userManager.token);
      // Giving a department's members a role beyond one's own is refused.
      await refused(
        'create-dept',
        { name: 'Admins', parentId: dept, roleIdList: [systemRoleId] },
        'SE_502',
        userManager.token,
      );
      await refused(
        'edit-dept',
        { deptId: made, parentId: dept, name: 'Renamed', roleIdList: [systemRoleId] },
        'SE_502',
        userManager.token,
      );
    });
  });

  describe('users', () => {
    let deptId: number;
    beforeAll(async () => {
      deptId = await createDept('People');
    });

    it('creates a user with a generated password that must be changed at first sign-in', async () => {
      const roleId = await createRole('New starters', [4]);
      const created = await succeed<{ id: number; password: string }>('create-user', {
        name: ' New Person ',
        email: ' New.Person@Example.com ',
        mobile: '13900000001',
        username: 'new.person',
        deptId,
        roleIdList: [roleId],
      });
      expect(created.password).toMatch(PASSWORD_PATTERN);
      expect(created.password).toHaveLength(16);
      const row = await t.database.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ email: 'new.person@example.com', must_change_password: true, status: 1 });
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.password_changed_at.toISOString()).toBe(t.clock.now().toISOString());

      const login = await post(t.app, '/security-api/login', {
        userName: 'NEW.PERSON@example.com',
        password: created.password,
      });
      expect(login.status).toBe(200);
      expect(login.body.result).toMatchObject({ passwordExpireFlag: true });

      expect(await succeed<ManagedUser>('user-detail', { userId: created.id })).toEqual({
        id: created.id,
        username: 'new.person',
        email: 'new.person@example.com',
        mobile: '13900000001',
        name: 'New Person',
        portrait: null,
        deptId,
        deptName: 'People',
        roleList: [{ id: roleId, name: 'New starters' }],
        roleIdList: [roleId],
        status: 1,
        loginNum: 1,
        lastLoginAt: t.clock.now().toISOString(),
        createdAt: t.clock.now().toISOString(),
      });
    });

    it('refuses taken identifiers, unknown departments and roles, changing nothing', async () => {
      await succeed('create-user', {
        name: 'Taken',
        email: 'taken@example.com',
        mobile: '13900000002',
        username: 'Taken.One',
        deptId,
      });
      const base = { name: 'Other', deptId };
      await refused('create-user', { ...base, email: 'TAKEN@example.com' }, 'SED_07');
      await refused('create-user', { ...base, email: ADMIN.email.toUpperCase() }, 'SED_07');
      await refused('create-user', { ...base, mobile: '13900000002' }, 'SED_08');
      await refused('create-user', { ...base, mobile: '13900000003', username: 'taken.ONE' }, 'SEAC_07');
      await refused('create-user', { ...base, email: 'free@example.com', deptId: 999_999 }, 'SED_06');
      await refused('create-user', { ...base, email: 'free@example.com', roleIdList: [999_999] }, 'SED_05');
    });

    it('answers a unique violation that slips past the checks with its code, not SE_500', async () => {
      const db = t.database.db;
      const insert = (values: { email?: string; mobile?: string; username?: string }) => () =>
        db
          .insertInto('users')
          .values({ name: 'Racer', ...values })
          .execute();
      await insert({ email: 'racer@example.com', mobile: '13900000077', username: 'racer' })();
      for (const [values, code] of [
        [{ email: 'RACER@example.com' }, 'SED_07'],
        [{ mobile: '13900000077' }, 'SED_08'],
        [{ username: 'Racer' }, 'SEAC_07'],
      ] as const) {
        const error = await translateUniqueViolation(insert(values)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe(code);
      }
      const role = await translateUniqueViolation(() =>
        db
          .insertInto('roles')
          .values({
            name: 'NEW STARTERS',
            view_scope: 'none',
            upload_scope: 'none',
            download_scope: 'none',
            share_scope: 'none',
            function_codes: [],
          })
          .execute(),
      ).catch((e: unknown) => e);
      expect((role as AppError).code).toBe('SEAC_06');
    });

    it('names the invalid field in the language asked for', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ email: 'not-an-address' }, 'email: is not a valid e-mail address'],
        [{ email: '', mobile: '' }, 'email: fill in an e-mail address or a phone number'],
        [{ email: 'ok@example.com', username: 'Editor' }, 'username: cannot be admin or editor'],
        [{ email: 'ok@example.com', username: 'two words' }, 'username: may contain only'],
        [{ mobile: '123' }, 'mobile:'],
        [{ email: 'ok@example.com', name: '' }, 'name:'],
      ];
      for (const [fields, text] of cases) {
        const response = await refused('create-user', { name: 'Someone', deptId, ...fields }, 'SE_400');
        expect(response.body.errorDesc).toContain(text);
      }
      const zh = await call('create-user', { name: 'Someone', deptId, email: 'bad' }, admin, 'zh');
      expect(zh.body.errorDesc).toBe('参数错误：email: 邮箱格式不正确');
    });

    it('lists live users of a department subtree by name, with a keyword and pages', async () => {
      const list = await createDept('List dept');
      const below = await createDept('List below', list);
      const make = async (name: string, dept: number, extra: Record<string, unknown> = {}) =>
        (
          await succeed<{ id: number }>('create-user', {
            name,
            email: `${name.toLowerCase()}.list@example.com`,
            deptId: dept,
            ...extra,
          })
        ).id;
      const roleId = await createRole('Listed role', [1]);
      await make('Lena', list, { roleIdList: [roleId] });
      await make('karl', list, { mobile: '13912345678' });
      const otto = await make('Otto', list);
      await make('Anna', below);
      await make('Bert', below);
      await succeed('delete-user', { userId: otto });

      const page = (body: Record<string, unknown>) => succeed<UserListResult>('user-list', body);
      const names = (result: UserListResult) => result.list.map((u) => u.name);
      const all = await page({ deptId: list });
      expect(names(all)).toEqual(['Anna', 'Bert', 'karl', 'Lena']);
      expect(all).toMatchObject({ total: 4, pageNo: 1, pageSize: 20 });
      expect(all.list.find((u) => u.name === 'Lena')).toMatchObject({
        deptName: 'List dept',
        roleList: [{ id: roleId, name: 'Listed role' }],
      });
      expect(names(await page({ deptId: list, includeSubDepts: false }))).toEqual(['karl', 'Lena']);
      expect(names(await page({ deptId: list, keyword: 'ANN' }))).toEqual(['Anna']);
      expect(names(await page({ deptId: list, keyword: '912345' }))).toEqual(['karl']);
      expect(names(await page({ deptId: list, keyword: 'bert.list@' }))).toEqual(['Bert']);
      expect(names(await page({ deptId: list, keyword: '%' }))).toEqual([]);
      const second = await page({ deptId: list, pageNo: 2, pageSize: 3 });
      expect(names(second)).toEqual(['Lena']);
      expect(second.total).toBe(4);
      const everyone = await page({ pageSize: 100 });
      expect(everyone.total).toBeGreaterThan(4);
      expect(names(everyone)).not.toContain('Otto');
      await refused('user-list', { deptId: 999_999 }, 'SED_06');
      await refused('user-list', { pageSize: 101 }, 'SE_400');
    });

    it('edits a user: the department move takes their items along, and a removed code is refused at once', async () => {
      const from = await createDept('Edit from');
      const to = await createDept('Edit to');
      const account = await givenUser(t.database, {
        deptId: from,
        functionCodes: [2],
        scopes: { upload: 'dept', view: 'dept' },
      });
      const token = await signIn(t.app, account.email, account.password);
      const folder = await makeFolder(token, 'Edited user folder');
      expect((await call('dept-tree', undefined, token)).status).toBe(200);

      await succeed('edit-user', {
        userId: account.id,
        name: 'Edited',
        email: 'Edited.User@Example.com',
        mobile: '13900000009',
        username: 'edited',
        deptId: to,
        roleIdList: [],
      });
      expect(await succeed<ManagedUser>('user-detail', { userId: account.id })).toMatchObject({
        name: 'Edited',
        email: 'edited.user@example.com',
        mobile: '13900000009',
        username: 'edited',
        deptId: to,
        roleIdList: [],
      });
      expect(await itemDeptPath(folder)).toBe(`${rootPath}${to}/`);
      // The session survives, but its permissions are those of now.
      expect((await post(t.app, '/security-api/user-info', undefined, { token })).status).toBe(200);
      await refused('dept-tree', undefined, 'SE_502', token);

      // An absent username, e-mail or phone is cleared: the body is the whole record.
      await succeed('edit-user', { userId: account.id, name: 'Edited', mobile: '13900000009', deptId: to });
      expect(await succeed<ManagedUser>('user-detail', { userId: account.id })).toMatchObject({
        email: null,
        username: null,
      });
    });

    it('refuses edit-user mistakes, changing nothing', async () => {
      const other = await succeed<{ id: number }>('create-user', {
        name: 'Other',
        email: 'other.edit@example.com',
        mobile: '13900000011',
        username: 'other.edit',
        deptId,
      });
      const target = await succeed<{ id: number }>('create-user', {
        name: 'Target',
        email: 'target.edit@example.com',
        deptId,
      });
      const gone = await givenUser(t.database);
      await succeed('delete-user', { userId: gone.id });
      const base = { userId: target.id, name: 'Target', email: 'target.edit@example.com', deptId };
      await refused('edit-user', { ...base, userId: 999_999 }, 'SED_02');
      await refused('edit-user', { ...base, userId: gone.id }, 'SED_02');
      await refused('edit-user', { ...base, email: 'OTHER.edit@example.com' }, 'SED_07');
      await refused('edit-user', { ...base, mobile: '13900000011' }, 'SED_08');
      await refused('edit-user', { ...base, username: 'Other.Edit' }, 'SEAC_07');
      await refused('edit-user', { ...base, deptId: 999_999 }, 'SED_06');
      await refused('edit-user', { ...base, roleIdList: [999_999] }, 'SED_05');
      // Keeping one's own identifiers is no clash.
      await succeed('edit-user', { ...base, email: 'TARGET.edit@example.com' });
      expect(other.id).toBeGreaterThan(0);
    });

    it('keeps at least one live holder of the system role', async () => {
      const me = await succeed<ManagedUser>('user-detail', { userId: adminId });
      const adminBody = {
        userId: adminId,
        name: me.name,
        email: me.email,
        deptId: me.deptId,
        roleIdList: [],
      };
      await refused('edit-user', adminBody, 'SEAC_05');

      // An all-powerful user without the system role cannot delete its last holder either.
      const superUser = await givenUser(t.database, {
        functionCodes: [...ALL_FUNCTION_CODES],
        scopes: ALL_SCOPES,
        deptId: rootId,
      });
      const superToken = await signIn(t.app, superUser.email, superUser.password);
      await refused('delete-user', { userId: adminId }, 'SEAC_05', superToken);

      // With a second holder, one of them may lose it.
      const second = await succeed<{ id: number }>('create-user', {
        name: 'Second admin',
        email: 'second.admin@example.com',
        deptId: rootId,
        roleIdList: [systemRoleId],
      });
      expect((await listRoles()).find((r) => r.id === systemRoleId)?.userCount).toBe(2);
      await succeed(
        'edit-user',
        { userId: second.id, name: 'Second admin', email: 'second.admin@example.com', deptId: rootId },
        superToken,
      );
      await succeed('edit-user', { ...adminBody, roleIdList: [systemRoleId] }, superToken);
      await succeed('delete-user', { userId: second.id }, superToken);
      expect((await listRoles()).find((r) => r.id === systemRoleId)?.userCount).toBe(1);
    });

    it('deletes a user: their sessions end at once, their files stay, their identifiers come free', async () => {
      const account = await givenUser(t.database, { deptId, scopes: { upload: 'all', view: 'all' } });
      const first = await signIn(t.app, account.email, account.password);
      const second = await signIn(t.app, account.email, account.password, true);
      const folder = await makeFolder(first, 'Left behind');
      const headed = await createDept('Headed by leaver', rootId, { headUserId: account.id });

      await refused('delete-user', { userId: adminId }, 'SEAC_04');
      await refused('delete-user', { userId: 999_999 }, 'SED_02');
      await succeed('delete-user', { userId: account.id });

      for (const token of [first, second]) {
        const info = await post(t.app, '/security-api/user-info', undefined, { token });
        expect(info.status).toBe(401);
        expect(info.body.errorCode).toBe('SE_501');
      }
      const login = await post(t.app, '/security-api/login', {
        userName: account.email,
        password: account.password,
      });
      expect(login.body.errorCode).toBe('SED_10');
      const item = await t.database.db
        .selectFrom('items')
        .select(['owner_id', 'state'])
        .where('id', '=', folder)
        .executeTakeFirstOrThrow();
      expect(item).toEqual({ owner_id: account.id, state: 1 });
      expect(await topLevelNames(admin)).toContain('Left behind');
      expect(await detail(headed)).toMatchObject({ headUserId: null, headUserName: null });
      await refused('user-detail', { userId: account.id }, 'SED_02');
      await refused('delete-user', { userId: account.id }, 'SED_02');
      await refused('reset-pwd', { userId: account.id }, 'SED_02');

      const reused = await call('create-user', { name: 'Successor', email: account.email, deptId });
      expect(reused.status).toBe(200);
    });

    it('resets a password: every old session ends and the new one must be changed', async () => {
      const account = await givenUser(t.database, { deptId });
      const token = await signIn(t.app, account.email, account.password);
      const { password } = await succeed<{ password: string }>('reset-pwd', { userId: account.id });
      expect(password).toMatch(PASSWORD_PATTERN);
      const old = await post(t.app, '/security-api/user-info', undefined, { token });
      expect(old.status).toBe(401);
      expect(old.body.errorCode).toBe('SE_501');
      const oldLogin = await post(t.app, '/security-api/login', {
        userName: account.email,
        password: account.password,
      });
      expect(oldLogin.body.errorCode).toBe('SED_10');
      const login = await post(t.app, '/security-api/login', { userName: account.email, password });
      expect(login.body.result).toMatchObject({ passwordExpireFlag: true });
      await refused('reset-pwd', { userId: 999_999 }, 'SED_02');
    });

    it('needs code 2 for users, and the caller never hands out more than they hold', async () => {
      const staff = await succeed<{ id: number }>('create-user', {
        name: 'Staff',
        email: 'staff.perm@example.com',
        deptId,
      });
      const staffBody = { userId: staff.id, name: 'Staff', email: 'staff.perm@example.com', deptId };
      for (const token of [roleManager, outsider]) {
        await refused('user-list', {}, 'SE_502', token);
        await refused('user-detail', { userId: staff.id }, 'SE_502', token);
        await refused('create-user', { name: 'No', email: 'no@example.com', deptId }, 'SE_502', token);
        await refused('edit-user', staffBody, 'SE_502', token);
        await refused('delete-user', { userId: staff.id }, 'SE_502', token);
        await refused('reset-pwd', { userId: staff.id }, 'SE_502', token);
      }

      const um = userManager.token;
      expect((await call('user-list', {}, um)).status).toBe(200);
      await succeed(
        'edit-user',
        { ...staffBody, name: 'Staff member', roleIdList: [userManager.roleId] },
        um,
      );
      await succeed('reset-pwd', { userId: staff.id }, um);
      // Roles beyond the caller's own, directly or through the department.
      await refused(
        'create-user',
        { name: 'Sneaky', email: 'sneaky@example.com', deptId, roleIdList: [systemRoleId] },
        'SE_502',
        um,
      );
      const adminRoom = await createDept('Admin room', rootId, { roleIdList: [systemRoleId] });
      await refused(
        'create-user',
        { name: 'Sneaky', email: 'sneaky@example.com', deptId: adminRoom },
        'SE_502',
        um,
      );
      await refused('edit-user', { ...staffBody, deptId: adminRoom }, 'SE_502', um);
      const self = await succeed<ManagedUser>('user-detail', { userId: userManager.id }, um);
      await refused(
        'edit-user',
        {
          userId: userManager.id,
          name: self.name,
          email: self.email,
          deptId: self.deptId,
          roleIdList: [userManager.roleId, systemRoleId],
        },
        'SE_502',
        um,
      );
      // Nor may they change, delete or reset an account more powerful than themselves.
      const me = await succeed<ManagedUser>('user-detail', { userId: adminId }, um);
      await refused(
        'edit-user',
        { userId: adminId, name: 'Hacked', email: me.email, deptId: me.deptId, roleIdList: me.roleIdList },
        'SE_502',
        um,
      );
      await refused('delete-user', { userId: adminId }, 'SE_502', um);
      await refused('reset-pwd', { userId: adminId }, 'SE_502', um);
    });
  });

  describe('roles', () => {
    it('lists roles with isSystem and the number of live users holding each', async () => {
      const roleId = await createRole('Counted');
      const holder = await succeed<{ id: number }>('create-user', {
        name: 'Holder',
        email: 'holder@example.com',
        deptId: rootId,
        roleIdList: [roleId],
      });
      await succeed('create-user', {
        name: 'Holder 2',
        email: 'holder2@example.com',
        deptId: rootId,
        roleIdList: [roleId],
      });
      await succeed('delete-user', { userId: holder.id });
      const roles = await listRoles();
      expect(roles.find((r) => r.id === systemRoleId)).toMatchObject({
        name: '系统管理员',
        isSystem: true,
        functionCodes: [...ALL_FUNCTION_CODES],
        filePermissions: ALL_SCOPES,
      });
      expect(roles.find((r) => r.id === roleId)).toMatchObject({ isSystem: false, userCount: 1 });
      await refused('roles', undefined, 'SE_502', outsider);
      expect((await call('roles', undefined, userManager.token)).status).toBe(200);
      expect((await call('roles', undefined, roleManager)).status).toBe(200);
    });

    it('creates, edits and deletes a role; its user and department links go with it', async () => {
      const roleId = await createRole(' Reviewers ', [5, 4, 5], { ...NO_SCOPES, view: 'dept' });
      expect((await listRoles()).find((r) => r.id === roleId)).toMatchObject({
        name: 'Reviewers',
        functionCodes: [4, 5],
        filePermissions: { ...NO_SCOPES, view: 'dept' },
      });
      await succeed('edit-role', {
        roleId,
        name: 'Senior reviewers',
        functionCodes: [6],
        filePermissions: { ...NO_SCOPES, download: 'all' },
      });
      expect((await listRoles()).find((r) => r.id === roleId)).toMatchObject({
        name: 'Senior reviewers',
        functionCodes: [6],
        filePermissions: { ...NO_SCOPES, download: 'all' },
      });
      const dept = await createDept('Reviewing', rootId, { roleIdList: [roleId] });
      const user = await succeed<{ id: number }>('create-user', {
        name: 'Reviewer',
        email: 'reviewer@example.com',
        deptId: dept,
        roleIdList: [roleId],
      });
      await succeed('delete-role', { roleId });
      expect((await listRoles()).map((r) => r.id)).not.toContain(roleId);
      expect(await detail(dept)).toMatchObject({ roleIdList: [] });
      expect(await succeed<ManagedUser>('user-detail', { userId: user.id })).toMatchObject({
        roleIdList: [],
      });
      await refused('delete-role', { roleId }, 'SED_05');
    });

    it('refuses duplicate names, unknown roles and weakening the system role, changing nothing', async () => {
      const editors = await createRole('Editors', [4]);
      const body = { name: 'x', functionCodes: [], filePermissions: NO_SCOPES };
      await refused('create-role', { ...body, name: ' EDITORS ' }, 'SEAC_06');
      const writers = await createRole('Writers');
      await refused('edit-role', { ...body, roleId: writers, name: 'editors' }, 'SEAC_06');
      await succeed('edit-role', { ...body, roleId: editors, name: 'EDITORS', functionCodes: [4] });
      await refused('edit-role', { ...body, roleId: 999_999 }, 'SED_05');
      await refused('delete-role', { roleId: 999_999 }, 'SED_05');
      await refused('delete-role', { roleId: systemRoleId }, 'SEAC_05');
      const system = { roleId: systemRoleId, name: '系统管理员', functionCodes: [...ALL_FUNCTION_CODES] };
      await refused(
        'edit-role',
        { ...system, functionCodes: ALL_FUNCTION_CODES.filter((c) => c !== 8), filePermissions: ALL_SCOPES },
        'SEAC_05',
      );
      await refused('edit-role', { ...system, filePermissions: { ...ALL_SCOPES, share: 'dept' } }, 'SEAC_05');
      await succeed('edit-role', { ...system, name: 'Administrators', filePermissions: ALL_SCOPES });
      await succeed('edit-role', { ...system, filePermissions: ALL_SCOPES });
      const bad = await refused('create-role', { ...body, name: 'Bad', functionCodes: [9] }, 'SE_400');
      expect(bad.body.errorDesc).toContain('functionCodes.0:');
      await refused(
        'create-role',
        { ...body, name: 'Bad', filePermissions: { ...NO_SCOPES, view: 'some' } },
        'SE_400',
      );
    });

    it('changes roles with code 3 only, granting nothing beyond the caller', async () => {
      const target = await createRole('Code two role', [2]);
      const body = { roleId: target, name: 'Code two role', functionCodes: [2], filePermissions: NO_SCOPES };
      for (const token of [userManager.token, outsider]) {
        await refused('create-role', { ...body, name: 'No' }, 'SE_502', token);
        await refused('edit-role', body, 'SE_502', token);
        await refused('delete-role', { roleId: target }, 'SE_502', token);
      }
      const own = await succeed<{ id: number }>(
        'create-role',
        { name: 'Role admins', functionCodes: [3], filePermissions: NO_SCOPES },
        roleManager,
      );
      await refused('create-role', { ...body, name: 'Escalate' }, 'SE_502', roleManager);
      await refused(
        'edit-role',
        {
          roleId: own.id,
          name: 'Role admins',
          functionCodes: [3],
          filePermissions: { ...NO_SCOPES, view: 'all' },
        },
        'SE_502',
        roleManager,
      );
      // A role holding more than the caller is not theirs to change or delete (issue 9).
      await refused('edit-role', { ...body, name: 'Renamed code two role' }, 'SE_502', roleManager);
      await refused('edit-role', { ...body, functionCodes: [] }, 'SE_502', roleManager);
      await refused('delete-role', { roleId: target }, 'SE_502', roleManager);
      await succeed(
        'edit-role',
        { ...body, roleId: own.id, name: 'Role admins', functionCodes: [] },
        roleManager,
      );
      await succeed('delete-role', { roleId: own.id }, roleManager);
    });
  });
});
