import { DepartmentStatus, type FunctionCode, UserStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database, RoleRow, ScopeColumn, UserRow } from '../../db/schema';
import { likeLiteral } from '../sku/repository';

export interface NewDepartment {
  name: string;
  parentId: number | null;
  headUserId?: number | null;
  now?: Date;
}

export interface NewRole {
  name: string;
  scopes: Record<'view' | 'upload' | 'download' | 'share', ScopeColumn>;
  functionCodes: FunctionCode[];
  isSystem?: boolean;
  now?: Date;
}

export interface NewAccount {
  name: string;
  email: string | null;
  mobile: string | null;
  username: string | null;
  deptId: number | null;
  passwordHash: string;
  mustChangePassword: boolean;
  roleIds: number[];
  /** When the password was set (the database's clock when absent). */
  now?: Date;
}

export interface AccountValues {
  name: string;
  email: string | null;
  mobile: string | null;
  username: string | null;
  deptId: number;
}

/** A department with what the administration screens show of it. */
export interface DepartmentRecord {
  id: number;
  name: string;
  parent_id: number | null;
  path: string;
  type: number;
  status: DepartmentStatus;
  head_user_id: number | null;
  head_user_name: string | null;
  member_count: number;
  role_ids: number[];
}

export type UserRecord = UserRow & { dept_name: string | null; dept_path: string | null };

export interface UserFilter {
  /** Members of the department with this path and of every department below it. */
  deptPathPrefix?: string;
  /** Members of this department only. */
  deptId?: number;
  keyword?: string;
}

/**
 * Transaction-scoped advisory lock key of accounts administration. Every change to departments,
 * users or roles takes it first, so the checks made inside (a department without members before
 * deletion, the last holder of the system role, a move not under its own subtree, identifiers
 * not taken) cannot be invalidated by a concurrent change before commit.
 */
const ACCOUNTS_LOCK = 727003;

/** SQL of departments, roles and users. */
export class AccountsRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

  /**
   * Runs `work` once across every process sharing the database: a transaction-scoped advisory
   * lock keeps two servers starting together from both seeding the first administrator.
   */
  withStartupLock<T>(work: (repo: AccountsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(727001)`.execute(trx);
      return work(new AccountsRepository(trx));
    });
  }

  /** One transaction holding the accounts lock: a change to departments, users or roles. */
  locked<T>(work: (repo: AccountsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${ACCOUNTS_LOCK})`.execute(trx);
      return work(new AccountsRepository(trx));
    });
  }

  async countUsers(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  // ── Departments ──────────────────────────────────────────────────────────────────────────────

  private selectDepartments() {
    return this.db
      .selectFrom('departments as d')
      .leftJoin('users as head', (join) =>
        join.onRef('head.id', '=', 'd.head_user_id').on('head.status', '=', UserStatus.normal),
      )
      .select((eb) => [
        'd.id',
        'd.name',
        'd.parent_id',
        'd.path',
        'd.type',
        'd.status',
        'd.head_user_id',
        'head.name as head_user_name',
        eb
          .selectFrom('users as member')
          .whereRef('member.dept_id', '=', 'd.id')
          .where('member.status', '=', UserStatus.normal)
          .select((sub) => sub.fn.countAll<string>().as('n'))
          .as('member_count'),
        sql<
          number[]
        >`ARRAY(SELECT dr.role_id FROM department_roles dr WHERE dr.dept_id = d.id ORDER BY dr.role_id)`.as(
          'role_ids',
        ),
      ]);
  }

  private static toDepartment(row: Record<string, unknown>): DepartmentRecord {
    const record = row as unknown as DepartmentRecord;
    return {
      ...record,
      member_count: Number(record.member_count ?? 0),
      role_ids: (record.role_ids ?? []).map(Number),
    };
  }

  /** Live departments, only those whose path starts with `pathPrefix` when given. */
  async listLiveDepartments(pathPrefix?: string): Promise<DepartmentRecord[]> {
    let query = this.selectDepartments().where('d.status', '=', DepartmentStatus.normal);
    // Paths hold only digits and slashes, so the prefix needs no LIKE escaping.
    if (pathPrefix !== undefined) query = query.where('d.path', 'like', `${pathPrefix}%`);
    const rows = await query.execute();
    return rows.map(AccountsRepository.toDepartment);
  }

  /** A department whatever its status, or undefined. */
  async findDepartment(id: number): Promise<DepartmentRecord | undefined> {
    const row = await this.selectDepartments().where('d.id', '=', id).executeTakeFirst();
    return row && AccountsRepository.toDepartment(row);
  }

  async createDepartment(dept: NewDepartment): Promise<{ id: number; path: string }> {
    const parent = dept.parentId
      ? await this.db
          .selectFrom('departments')
          .select('path')
          .where('id', '=', dept.parentId)
          .executeTakeFirstOrThrow()
      : null;
    // The path needs the new id, so insert with a placeholder and set it in the same transaction.
    const { id } = await this.db
      .insertInto('departments')
      .values({
        name: dept.name,
        parent_id: dept.parentId,
        head_user_id: dept.headUserId ?? null,
        path: `/pending-${crypto.randomUUID()}/`,
        ...(dept.now ? { created_at: dept.now, updated_at: dept.now } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const path = `${parent?.path ?? '/'}${id}/`;
    await this.db.updateTable('departments').set({ path }).where('id', '=', id).execute();
    return { id, path };
  }

  async updateDepartment(id: number, values: { name: string; headUserId: number | null }, now: Date) {
    await this.db
      .updateTable('departments')
      .set({ name: values.name, head_user_id: values.headUserId, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Puts a department under another parent: its path and the paths of everything below it, then
   * every item whose department path lies in the moved subtree, one statement each.
   */
  async moveDepartment(id: number, parentId: number, oldPath: string, newPath: string, now: Date) {
    await this.db
      .updateTable('departments')
      .set({ parent_id: parentId, updated_at: now })
      .where('id', '=', id)
      .execute();
    // Paths hold only digits and slashes, so the prefix needs no LIKE escaping.
    const rest = oldPath.length + 1;
    await this.db
      .updateTable('departments')
      .set({ path: sql<string>`${newPath} || substr(path, ${rest})` })
      .where('path', 'like', `${oldPath}%`)
      .execute();
    await this.db
      .updateTable('items')
      .set({ dept_path: sql<string>`${newPath} || substr(dept_path, ${rest})` })
      .where('dept_path', 'like', `${oldPath}%`)
      .execute();
  }

  async setDepartmentRoles(deptId: number, roleIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('department_roles').where('dept_id', '=', deptId).execute();
    if (roleIds.length > 0) {
      await this.db
        .insertInto('department_roles')
        .values(roleIds.map((role_id) => ({ dept_id: deptId, role_id })))
        .execute();
    }
  }

  async hasLiveSubDepartments(deptId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('departments')
      .select('id')
      .where('parent_id', '=', deptId)
      .where('status', '=', DepartmentStatus.normal)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Marks a department deleted and drops its roles. The row stays: deleted users and the items of
   * former members still name it (users.dept_id, items.dept_path).
   */
  async softDeleteDepartment(id: number, now: Date): Promise<void> {
    await this.db
      .updateTable('departments')
      .set({ status: DepartmentStatus.deleted, head_user_id: null, updated_at: now })
      .where('id', '=', id)
      .execute();
    await this.db.deleteFrom('department_roles').where('dept_id', '=', id).execute();
  }

  // ── Users ────────────────────────────────────────────────────────────────────────────────────

  private selectUsers() {
    return this.db
      .selectFrom('users')
      .leftJoin('departments', 'departments.id', 'users.dept_id')
      .selectAll('users')
      .select(['departments.name as dept_name', 'departments.path as dept_path']);
  }

  /** A user whatever their status, with their department's name and path. */
  findUser(id: number): Promise<UserRecord | undefined> {
    return this.selectUsers().where('users.id', '=', id).executeTakeFirst();
  }

  private filteredUsers(filter: UserFilter) {
    let query = this.selectUsers().where('users.status', '=', UserStatus.normal);
    if (filter.deptId !== undefined) query = query.where('users.dept_id', '=', filter.deptId);
    if (filter.deptPathPrefix !== undefined)
      query = query.where('departments.path', 'like', `${filter.deptPathPrefix}%`);
    if (filter.keyword) {
      const pattern = `%${likeLiteral(filter.keyword.toLowerCase())}%`;
      query = query.where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['users.name']), 'like', pattern),
          eb(eb.fn('lower', ['users.username']), 'like', pattern),
          eb(eb.fn('lower', ['users.email']), 'like', pattern),
          eb('users.mobile', 'like', pattern),
        ]),
      );
    }
    return query;
  }

  /** One page of live users by name. */
  listUsers(filter: UserFilter, offset: number, limit: number): Promise<UserRecord[]> {
    return this.filteredUsers(filter)
      .orderBy(sql`lower(users.name)`)
      .orderBy('users.id')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  async countListedUsers(filter: UserFilter): Promise<number> {
    const row = await this.filteredUsers(filter)
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The users' own roles (not their departments'), by role id. */
  ownRolesOfUsers(userIds: readonly number[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['user_roles.user_id', 'roles.id', 'roles.name'])
      .where('user_roles.user_id', 'in', userIds)
      .orderBy('roles.id')
      .execute();
  }

  async createAccount(account: NewAccount): Promise<number> {
    const { id } = await this.db
      .insertInto('users')
      .values({
        name: account.name,
        email: account.email?.toLowerCase() ?? null,
        mobile: account.mobile,
        username: account.username,
        dept_id: account.deptId,
        password_hash: account.passwordHash,
        must_change_password: account.mustChangePassword,
        ...(account.now
          ? { password_changed_at: account.now, created_at: account.now, updated_at: account.now }
          : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.setUserRoles(id, account.roleIds);
    return id;
  }

  async updateAccount(id: number, values: AccountValues, now: Date): Promise<void> {
    await this.db
      .updateTable('users')
      .set({
        name: values.name,
        email: values.email?.toLowerCase() ?? null,
        mobile: values.mobile,
        username: values.username,
        dept_id: values.deptId,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async setUserRoles(userId: number, roleIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
    if (roleIds.length > 0) {
      await this.db
        .insertInto('user_roles')
        .values(roleIds.map((role_id) => ({ user_id: userId, role_id })))
        .execute();
    }
  }

  /** Every item of an owner (live or in the recycle bin) takes their new department's path. */
  async moveOwnedItems(ownerId: number, deptPath: string): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ dept_path: deptPath })
      .where('owner_id', '=', ownerId)
      .where('dept_path', '<>', deptPath)
      .execute();
  }

  /** Which of these identifiers a live user other than `exceptUserId` already has. */
  async takenIdentifiers(
    wanted: { email: string | null; mobile: string | null; username: string | null },
    exceptUserId: number | null,
  ): Promise<{ email: boolean; mobile: boolean; username: boolean }> {
    const email = wanted.email?.toLowerCase() ?? null;
    const username = wanted.username?.toLowerCase() ?? null;
    const conditions = [
      ...(email ? [{ column: 'email' as const, value: email }] : []),
      ...(wanted.mobile ? [{ column: 'mobile' as const, value: wanted.mobile }] : []),
      ...(username ? [{ column: 'username' as const, value: username }] : []),
    ];
    const taken = { email: false, mobile: false, username: false };
    if (conditions.length === 0) return taken;
    let query = this.db
      .selectFrom('users')
      .select(['email', 'mobile', 'username'])
      .where('status', '<>', UserStatus.deleted)
      .where((eb) =>
        eb.or(
          conditions.map(({ column, value }) =>
            column === 'mobile' ? eb('mobile', '=', value) : eb(eb.fn('lower', [column]), '=', value),
          ),
        ),
      );
    if (exceptUserId !== null) query = query.where('id', '<>', exceptUserId);
    for (const row of await query.execute()) {
      if (email && row.email?.toLowerCase() === email) taken.email = true;
      if (wanted.mobile && row.mobile === wanted.mobile) taken.mobile = true;
      if (username && row.username?.toLowerCase() === username) taken.username = true;
    }
    return taken;
  }

  /** Deletes an account (status 0): every session of theirs ends, they head no department. */
  async softDeleteUser(id: number, now: Date): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ status: UserStatus.deleted, updated_at: now })
      .where('id', '=', id)
      .execute();
    await this.db.deleteFrom('sessions').where('user_id', '=', id).execute();
    await this.db
      .updateTable('departments')
      .set({ head_user_id: null, updated_at: now })
      .where('head_user_id', '=', id)
      .execute();
  }

  /** A password someone else chose: it must be changed at next sign-in; every session ends. */
  async issuePassword(id: number, passwordHash: string, now: Date): Promise<void> {
    await this.db
      .updateTable('users')
      .set({
        password_hash: passwordHash,
        password_changed_at: now,
        must_change_password: true,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
    await this.db.deleteFrom('sessions').where('user_id', '=', id).execute();
  }

  // ── Roles ────────────────────────────────────────────────────────────────────────────────────

  findRole(id: number): Promise<RoleRow | undefined> {
    return this.db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findRoles(ids: readonly number[]): Promise<RoleRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('roles').selectAll().where('id', 'in', ids).execute();
  }

  /** The roles a department gives its members. */
  rolesOfDepartment(deptId: number | null): Promise<RoleRow[]> {
    if (deptId === null) return Promise.resolve([]);
    return this.db
      .selectFrom('roles')
      .innerJoin('department_roles', 'department_roles.role_id', 'roles.id')
      .where('department_roles.dept_id', '=', deptId)
      .selectAll('roles')
      .execute();
  }

  /** The user's own roles. */
  rolesOfUser(userId: number): Promise<RoleRow[]> {
    return this.db
      .selectFrom('roles')
      .innerJoin('user_roles', 'user_roles.role_id', 'roles.id')
      .where('user_roles.user_id', '=', userId)
      .selectAll('roles')
      .execute();
  }

  async roleNameTaken(name: string, exceptRoleId: number | null): Promise<boolean> {
    let query = this.db
      .selectFrom('roles')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
    if (exceptRoleId !== null) query = query.where('id', '<>', exceptRoleId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async createRole(role: NewRole): Promise<number> {
    const { id } = await this.db
      .insertInto('roles')
      .values({
        name: role.name,
        view_scope: role.scopes.view,
        upload_scope: role.scopes.upload,
        download_scope: role.scopes.download,
        share_scope: role.scopes.share,
        function_codes: role.functionCodes,
        is_system: role.isSystem ?? false,
        ...(role.now ? { created_at: role.now, updated_at: role.now } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async updateRole(id: number, role: NewRole, now: Date): Promise<void> {
    await this.db
      .updateTable('roles')
      .set({
        name: role.name,
        view_scope: role.scopes.view,
        upload_scope: role.scopes.upload,
        download_scope: role.scopes.download,
        share_scope: role.scopes.share,
        function_codes: role.functionCodes,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes a role; its user_roles and department_roles rows go with it (ON DELETE CASCADE). */
  async deleteRole(id: number): Promise<void> {
    await this.db.deleteFrom('roles').where('id', '=', id).execute();
  }

  /** Live users other than `exceptUserId` holding a system role directly. */
  async countSystemRoleHolders(exceptUserId: number): Promise<number> {
    const row = await this.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .innerJoin('users', 'users.id', 'user_roles.user_id')
      .where('roles.is_system', '=', true)
      .where('users.status', '=', UserStatus.normal)
      .where('users.id', '<>', exceptUserId)
      .select((eb) => eb.fn.count<string>('users.id').distinct().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
