import { DepartmentStatus, UserStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';

export interface NewDepartment {
  name: string;
  parentId: number | null;
  headUserId?: number | null;
  now?: Date;
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

/** SQL of departments: the tree, a department's head, members and roles, moves and deletion. */
export class DepartmentsRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

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
    return rows.map(DepartmentsRepository.toDepartment);
  }

  /** A department whatever its status, or undefined. */
  async findDepartment(id: number): Promise<DepartmentRecord | undefined> {
    const row = await this.selectDepartments().where('d.id', '=', id).executeTakeFirst();
    return row && DepartmentsRepository.toDepartment(row);
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
}
