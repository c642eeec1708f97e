import { UserStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database, UserRow } from '../../db/schema';
import { likeLiteral } from '../../db/sql-helpers';

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

export type UserRecord = UserRow & { dept_name: string | null; dept_path: string | null };

export interface UserFilter {
  /** Members of the department with this path and of every department below it. */
  deptPathPrefix?: string;
  /** Members of this department only. */
  deptId?: number;
  keyword?: string;
}

/** SQL of user accounts: listing, identifiers, their own roles, passwords and deletion. */
export class UsersRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

  async countUsers(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

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
}
