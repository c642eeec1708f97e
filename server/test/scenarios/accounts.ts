import {
  type EndpointBody,
  ERROR_HTTP_STATUS,
  type ErrorCode,
  endpoints,
  type FilePermissions,
  type JsonEndpoint,
} from '@dam/contract';
import { expect } from 'vitest';
import { call as callEndpoint } from '../call';
import { givenUser } from '../factories';
import { ADMIN, createTestApp, post, signIn, type TestApp } from '../harness';

/**
 * The app of the accounts administration tests: the administrator, a user manager (code 2), a
 * role manager (code 3) and an outsider (code 5), and calls of the security API that must succeed
 * or be refused changing nothing.
 */

export const ALL_SCOPES = { view: 'all', upload: 'all', download: 'all', share: 'all' } as const;
export const NO_SCOPES = { view: 'none', upload: 'none', download: 'none', share: 'none' } as const;

/**
 * Calls of the security API for accounts tests: `call` (raw), `succeed` (parsed with the
 * contract's schema, must succeed), `snapshot` (everything an accounts call could change) and
 * `refused` (fails with `code` and its HTTP status, changing nothing).
 */
export function accountsCalls(t: TestApp, admin: string) {
  const db = t.database.db;
  const call = (path: string, body?: unknown, token = admin, lang = 'en') =>
    post(t.app, `/security-api/${path}`, body, { token, lang });

  /** Calls `endpoint`, which must succeed: its result, parsed with the contract's schema. */
  const succeed = <E extends JsonEndpoint>(endpoint: E, body?: EndpointBody<E>, token = admin) =>
    callEndpoint(t.app, endpoint, { token, body, lang: 'en' });

  /** Everything an accounts call could change. */
  const snapshot = async () => {
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

  return { call, succeed, snapshot, refused };
}

export type AccountsWorld = Awaited<ReturnType<typeof createAccountsWorld>>;

export async function createAccountsWorld() {
  const t: TestApp = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
  const admin = await signIn(t.app, ADMIN.email, ADMIN.password);
  const db = t.database.db;
  const root = await db
    .selectFrom('departments')
    .selectAll()
    .where('parent_id', 'is', null)
    .executeTakeFirstOrThrow();
  const rootId = root.id;
  const rootPath = root.path;
  const adminId = (
    await db.selectFrom('users').select('id').where('email', '=', ADMIN.email).executeTakeFirstOrThrow()
  ).id;
  const systemRoleId = (
    await db.selectFrom('roles').select('id').where('is_system', '=', true).executeTakeFirstOrThrow()
  ).id;
  const um = await givenUser(t.database, { functionCodes: [2], deptId: rootId });
  /** Function code 2 only, no file permissions. */
  const userManager = {
    id: um.id,
    token: await signIn(t.app, um.email, um.password),
    roleId: um.roleId as number,
  };
  // At the root: departments are read only within one's own subtree (accounts-confinement.test.ts).
  const rm = await givenUser(t.database, { functionCodes: [3], deptId: rootId });
  /** Function code 3 only. */
  const roleManager = await signIn(t.app, rm.email, rm.password);
  const o = await givenUser(t.database, { functionCodes: [5] });
  /** Function code 5 only. */
  const outsider = await signIn(t.app, o.email, o.password);

  const { call, succeed, snapshot, refused } = accountsCalls(t, admin);

  const createDept = async (name: string, parentId = rootId, extra: Record<string, unknown> = {}) =>
    (await succeed(endpoints.createDepartment, { name, parentId, ...extra })).id;
  const detail = (deptId: number) => succeed(endpoints.departmentDetail, { deptId });
  const createRole = async (
    name: string,
    functionCodes: number[] = [],
    scopes: FilePermissions = NO_SCOPES,
  ) => (await succeed(endpoints.createRole, { name, functionCodes, filePermissions: scopes })).id;
  const listRoles = async (token = admin) => (await succeed(endpoints.roleList, undefined, token)).roleList;
  const topLevelNames = async (token: string) =>
    (await callEndpoint(t.app, endpoints.folderListing, { token, query: { folderDataId: 'all' } })).list.map(
      (i) => i.name,
    );
  const makeFolder = async (token: string, folderName: string) =>
    (await callEndpoint(t.app, endpoints.createFolder, { token, body: { folderName } })).folderId;
  const itemDeptPath = async (id: number) =>
    (
      await t.database.db
        .selectFrom('items')
        .select('dept_path')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).dept_path;

  return {
    t,
    admin,
    adminId,
    rootId,
    rootPath,
    systemRoleId,
    userManager,
    roleManager,
    outsider,
    call,
    succeed,
    snapshot,
    refused,
    createDept,
    detail,
    createRole,
    listRoles,
    topLevelNames,
    makeFolder,
    itemDeptPath,
  };
}
