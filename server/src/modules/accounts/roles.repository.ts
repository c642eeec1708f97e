import { type FunctionCode, UserStatus } from '@dam/contract';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database';
import type { Database, RoleRow, ScopeColumn } from '../../db/schema';

export interface NewRole {
  name: string;
  scopes: Record<'view' | 'upload' | 'download' | 'share', ScopeColumn>;
  functionCodes: FunctionCode[];
  isSystem?: boolean;
  now?: Date;
}

/** SQL of roles: what they grant, who holds them (directly or through a department). */
export class RolesRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

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
