import type { Db } from '../../db/database';
import type { RoleRow } from '../../db/schema';

export class AccessRepository {
  constructor(private readonly db: Db) {}

  /** The roles that apply to a user: their own and those of their department, in one query. */
  rolesOfUser(userId: number, deptId: number | null): Promise<RoleRow[]> {
    const own = this.db
      .selectFrom('roles')
      .innerJoin('user_roles', 'user_roles.role_id', 'roles.id')
      .where('user_roles.user_id', '=', userId)
      .selectAll('roles');
    if (deptId === null) return own.execute();
    const viaDepartment = this.db
      .selectFrom('roles')
      .innerJoin('department_roles', 'department_roles.role_id', 'roles.id')
      .where('department_roles.dept_id', '=', deptId)
      .selectAll('roles');
    return own.union(viaDepartment).execute();
  }
}
