import {
  type Department,
  type DepartmentInput,
  type DepartmentTreeResult,
  type EditDepartmentRequest,
  FunctionCode,
} from '@dam/contract';
import { AppError, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, administrationReach, requireAnyCode } from '../access/access';
import { distinct, existingRoles, reachableDepartment, reachableUser, requireWithinCaller } from './checks';
import { departmentDto, treeOrder } from './presenter';
import type { AccountsRepository } from './repository';

/**
 * Administration of departments (SPEC §3, §7 security API). Reading them needs function code 2
 * (user) or 3 (role); changing them needs 2. Departments are administered only within the
 * caller's reach (`administrationReach`: their own department subtree unless every file scope of
 * theirs is "all"); a department outside it is answered like an unknown id (SED_06, SED_04 as a
 * parent), so ids outside cannot be enumerated. Roles given to a department must lie within the
 * caller's own permissions (SE_502). Every change runs in one transaction under the accounts
 * lock; a refused change changes nothing.
 */
export class DepartmentsService {
  constructor(
    private readonly repo: AccountsRepository,
    private readonly clock: Clock,
  ) {}

  async departmentTree(auth: AuthContext): Promise<DepartmentTreeResult> {
    requireAnyCode(auth, FunctionCode.user, FunctionCode.role);
    const reach = administrationReach(auth);
    if (reach.kind === 'none') return { departments: [] };
    const rows = await this.repo.departments.listLiveDepartments(
      reach.kind === 'subtree' ? reach.pathPrefix : undefined,
    );
    return { departments: treeOrder(rows.map(departmentDto)) };
  }

  async departmentDetail(auth: AuthContext, deptId: number): Promise<Department> {
    requireAnyCode(auth, FunctionCode.user, FunctionCode.role);
    return departmentDto(await reachableDepartment(this.repo, administrationReach(auth), deptId));
  }

  async createDepartment(auth: AuthContext, body: DepartmentInput): Promise<{ id: number }> {
    requireAnyCode(auth, FunctionCode.user);
    const reach = administrationReach(auth);
    return this.repo.locked(async (repo) => {
      const parent = await reachableDepartment(repo, reach, body.parentId, 'SED_04');
      const headUserId = body.headUserId ?? null;
      if (headUserId !== null) await reachableUser(repo, reach, headUserId);
      const roleIds = distinct(body.roleIdList ?? []);
      requireWithinCaller(auth, await existingRoles(repo, roleIds));
      const now = this.clock.now();
      const { id } = await repo.departments.createDepartment({
        name: body.name,
        parentId: parent.id,
        headUserId,
        now,
      });
      await repo.departments.setDepartmentRoles(id, roleIds);
      return { id };
    });
  }

  /**
   * Renames a department, sets its head and roles, and moves it under another parent (with its
   * whole subtree; the department paths of items in it follow). The body is the whole record: an
   * absent head or role list clears it. The department, a new parent and a new head must lie
   * within the caller's reach; roles added or removed must lie within the caller's permissions.
   */
  async editDepartment(auth: AuthContext, body: EditDepartmentRequest): Promise<void> {
    requireAnyCode(auth, FunctionCode.user);
    const reach = administrationReach(auth);
    await this.repo.locked(async (repo) => {
      const dept = await reachableDepartment(repo, reach, body.deptId);
      let move: { parentId: number; newPath: string } | null = null;
      const parentId = body.parentId ?? null;
      if (dept.parent_id === null) {
        if (parentId !== null) throw new AppError('SEAC_02');
      } else if (parentId === null) {
        throw invalidField('parentId', 'required');
      } else if (parentId !== dept.parent_id) {
        const parent = await reachableDepartment(repo, reach, parentId, 'SED_04');
        if (parent.path.startsWith(dept.path)) throw new AppError('SEAC_03');
        move = { parentId: parent.id, newPath: `${parent.path}${dept.id}/` };
      }
      const headUserId = body.headUserId ?? null;
      if (headUserId !== null && headUserId !== dept.head_user_id) {
        await reachableUser(repo, reach, headUserId);
      }
      const roleIds = distinct(body.roleIdList ?? []);
      const roles = await existingRoles(repo, roleIds);
      const removed = await repo.roles.findRoles(dept.role_ids.filter((id) => !roleIds.includes(id)));
      requireWithinCaller(auth, [...roles.filter((role) => !dept.role_ids.includes(role.id)), ...removed]);

      const now = this.clock.now();
      await repo.departments.updateDepartment(dept.id, { name: body.name, headUserId }, now);
      if (move) await repo.departments.moveDepartment(dept.id, move.parentId, dept.path, move.newPath, now);
      await repo.departments.setDepartmentRoles(dept.id, roleIds);
    });
  }

  /** Soft-deletes an empty department (no live members, no live sub-departments). */
  async deleteDepartment(auth: AuthContext, deptId: number): Promise<void> {
    requireAnyCode(auth, FunctionCode.user);
    const reach = administrationReach(auth);
    await this.repo.locked(async (repo) => {
      const dept = await reachableDepartment(repo, reach, deptId);
      if (dept.parent_id === null) throw new AppError('SEAC_02');
      if (dept.member_count > 0 || (await repo.departments.hasLiveSubDepartments(dept.id))) {
        throw new AppError('SEAC_01');
      }
      await repo.departments.softDeleteDepartment(dept.id, this.clock.now());
    });
  }
}
