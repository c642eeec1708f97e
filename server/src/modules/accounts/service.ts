import {
  type CreatedUser,
  type Department,
  type DepartmentInput,
  DepartmentStatus,
  type DepartmentTreeResult,
  type EditDepartmentRequest,
  type EditRoleRequest,
  type editUserRequestSchema,
  FILE_PERMISSIONS,
  FunctionCode,
  type ManagedUser,
  type PermissionScope,
  type RoleInput,
  type UserListResult,
  UserStatus,
  type userInputSchema,
  type userListRequestSchema,
} from '@dam/contract';
import type { z } from 'zod';
import type { RoleRow } from '../../db/schema';
import { AppError, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { generatePassword, hashPassword } from '../../lib/password';
import {
  type AuthContext,
  administrationReach,
  type FileScopeFilter,
  requireAnyCode,
  withinReach,
} from '../access/access';
import { isUniqueViolation } from '../items/repository';
import type { DepartmentRecord } from './departments.repository';
import { departmentDto, knownCodes, managedUserDto, treeOrder } from './presenter';
import type { AccountsRepository } from './repository';
import type { UserFilter, UserRecord } from './users.repository';

type UserInput = z.output<typeof userInputSchema>;
type EditUserInput = z.output<typeof editUserRequestSchema>;
type UserListQuery = z.output<typeof userListRequestSchema>;

const SCOPE_RANK: Record<PermissionScope, number> = { none: 0, dept: 1, all: 2 };
const SCOPE_COLUMN = {
  view: 'view_scope',
  upload: 'upload_scope',
  download: 'download_scope',
  share: 'share_scope',
} as const;

/** What a unique index of users or roles guards, as the code the caller sees. */
const UNIQUE_INDEX_CODES = {
  users_email_live: 'SED_07',
  users_mobile_live: 'SED_08',
  users_username_live: 'SEAC_07',
  roles_name_lower: 'SEAC_06',
} as const;

/**
 * Administration of departments, users and roles (SPEC §3, §6, §7 security API). Reading
 * departments needs function code 2 (user) or 3 (role); changing departments and users needs 2;
 * changing roles needs 3. Nobody hands out more than they hold: roles given to a user or a
 * department, and codes or scopes added to a role, must lie within the caller's own permissions,
 * and accounts more powerful than the caller cannot be changed, deleted or reset by them (SE_502);
 * a role manager changes or deletes only roles within their own permissions (SE_502).
 * Departments and users are administered only within the caller's reach (`administrationReach`:
 * their own department subtree unless every file scope of theirs is "all"); a department or user
 * outside it is answered like an unknown id (SED_06, SED_04 as a parent, SED_02), so ids outside
 * cannot be enumerated. Every change runs in one transaction under the accounts lock; a refused change changes nothing.
 */
export class AccountsService {
  constructor(
    private readonly repo: AccountsRepository,
    private readonly clock: Clock,
  ) {}

  // ── Departments ──────────────────────────────────────────────────────────────────────────────

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

  // ── Users ────────────────────────────────────────────────────────────────────────────────────

  async listUsers(auth: AuthContext, query: UserListQuery): Promise<UserListResult> {
    requireAnyCode(auth, FunctionCode.user);
    const reach = administrationReach(auth);
    if (reach.kind === 'none') return { list: [], total: 0, pageNo: query.pageNo, pageSize: query.pageSize };
    const filter: UserFilter = {};
    if (query.deptId !== undefined) {
      const dept = await reachableDepartment(this.repo, reach, query.deptId);
      if (query.includeSubDepts === false) filter.deptId = dept.id;
      else filter.deptPathPrefix = dept.path;
    } else if (reach.kind === 'subtree') {
      filter.deptPathPrefix = reach.pathPrefix;
    }
    if (query.keyword) filter.keyword = query.keyword;
    const offset = (query.pageNo - 1) * query.pageSize;
    const [total, rows] = await Promise.all([
      this.repo.users.countListedUsers(filter),
      this.repo.users.listUsers(filter, offset, query.pageSize),
    ]);
    return {
      list: await this.withRoles(rows),
      total,
      pageNo: query.pageNo,
      pageSize: query.pageSize,
    };
  }

  async userDetail(auth: AuthContext, userId: number): Promise<ManagedUser> {
    requireAnyCode(auth, FunctionCode.user);
    const [user] = await this.withRoles([await reachableUser(this.repo, administrationReach(auth), userId)]);
    return user as ManagedUser;
  }

  private async withRoles(rows: UserRecord[]): Promise<ManagedUser[]> {
    const roles = await this.repo.users.ownRolesOfUsers(rows.map((r) => r.id));
    return rows.map((row) =>
      managedUserDto(
        row,
        roles.filter((r) => r.user_id === row.id),
      ),
    );
  }

  /** A new account with a generated password, to be changed at first sign-in. */
  async createUser(auth: AuthContext, body: UserInput): Promise<CreatedUser> {
    requireAnyCode(auth, FunctionCode.user);
    const reach = administrationReach(auth);
    // Hash before taking the lock: argon2 takes ~100 ms.
    const password = generatePassword();
    const passwordHash = await hashPassword(password);
    const id = await translateUniqueViolation(() =>
      this.repo.locked(async (repo) => {
        const dept = await reachableDepartment(repo, reach, body.deptId);
        const roleIds = distinct(body.roleIdList);
        const roles = await existingRoles(repo, roleIds);
        requireWithinCaller(auth, [...roles, ...(await repo.roles.rolesOfDepartment(dept.id))]);
        const identity = identityOf(body);
        await requireFreeIdentifiers(repo, identity, null);
        return repo.users.createAccount({
          ...identity,
          name: body.name,
          deptId: dept.id,
          passwordHash,
          mustChangePassword: true,
          roleIds,
          now: this.clock.now(),
        });
      }),
    );
    return { id, password };
  }

  /**
   * Changes an account (the body is the whole record: absent username, e-mail or phone are
   * cleared, roleIdList replaces the user's own roles). Their sessions stay; the permissions of
   * each request are read afresh. When the department changes, the user's items follow them.
   */
  async editUser(auth: AuthContext, body: EditUserInput): Promise<void> {
    requireAnyCode(auth, FunctionCode.user);
    const reach = administrationReach(auth);
    await translateUniqueViolation(() =>
      this.repo.locked(async (repo) => {
        const user = await reachableUser(repo, reach, body.userId);
        const ownRoles = await repo.roles.rolesOfUser(user.id);
        requireWithinCaller(auth, [...ownRoles, ...(await repo.roles.rolesOfDepartment(user.dept_id))]);
        const dept = await reachableDepartment(repo, reach, body.deptId);
        const roleIds = distinct(body.roleIdList);
        const roles = await existingRoles(repo, roleIds);
        requireWithinCaller(auth, [...roles, ...(await repo.roles.rolesOfDepartment(dept.id))]);
        const losesSystemRole =
          ownRoles.some((role) => role.is_system) && !roles.some((role) => role.is_system);
        if (losesSystemRole && (await repo.roles.countSystemRoleHolders(user.id)) === 0) {
          throw new AppError('SEAC_05');
        }
        const identity = identityOf(body);
        await requireFreeIdentifiers(repo, identity, user.id);

        const now = this.clock.now();
        await repo.users.updateAccount(user.id, { ...identity, name: body.name, deptId: dept.id }, now);
        await repo.users.setUserRoles(user.id, roleIds);
        if (dept.id !== user.dept_id) await repo.users.moveOwnedItems(user.id, dept.path);
      }),
    );
  }

  /** Deletes an account (status 0); their sessions end at once, their files stay. */
  async deleteUser(auth: AuthContext, userId: number): Promise<void> {
    requireAnyCode(auth, FunctionCode.user);
    if (userId === auth.userId) throw new AppError('SEAC_04');
    const reach = administrationReach(auth);
    await this.repo.locked(async (repo) => {
      const user = await reachableUser(repo, reach, userId);
      const ownRoles = await repo.roles.rolesOfUser(user.id);
      requireWithinCaller(auth, [...ownRoles, ...(await repo.roles.rolesOfDepartment(user.dept_id))]);
      if (
        ownRoles.some((role) => role.is_system) &&
        (await repo.roles.countSystemRoleHolders(user.id)) === 0
      ) {
        throw new AppError('SEAC_05');
      }
      await repo.users.softDeleteUser(user.id, this.clock.now());
    });
  }

  /**
   * A new generated password, to be changed at next sign-in; every session of the user ends. Not
   * for oneself (SEAC_08): that would change one's password without the current one, which the
   * password change asks for.
   */
  async resetPassword(auth: AuthContext, userId: number): Promise<{ password: string }> {
    requireAnyCode(auth, FunctionCode.user);
    if (userId === auth.userId) throw new AppError('SEAC_08');
    const reach = administrationReach(auth);
    const password = generatePassword();
    const passwordHash = await hashPassword(password);
    await this.repo.locked(async (repo) => {
      const user = await reachableUser(repo, reach, userId);
      requireWithinCaller(auth, [
        ...(await repo.roles.rolesOfUser(user.id)),
        ...(await repo.roles.rolesOfDepartment(user.dept_id)),
      ]);
      await repo.users.issuePassword(user.id, passwordHash, this.clock.now());
    });
    return { password };
  }

  // ── Roles ────────────────────────────────────────────────────────────────────────────────────

  async createRole(auth: AuthContext, body: RoleInput): Promise<{ id: number }> {
    requireAnyCode(auth, FunctionCode.role);
    const role = {
      name: body.name,
      scopes: body.filePermissions,
      functionCodes: knownCodes(body.functionCodes),
    };
    requireGrantWithinCaller(auth, role.functionCodes, role.scopes);
    const id = await translateUniqueViolation(() =>
      this.repo.locked(async (repo) => {
        if (await repo.roles.roleNameTaken(role.name, null)) throw new AppError('SEAC_06');
        return repo.roles.createRole({ ...role, now: this.clock.now() });
      }),
    );
    return { id };
  }

  /**
   * Changes a role. The role, as it is and as it becomes, must lie within the caller's own codes
   * and scopes (SE_502). The system role may be renamed and may gain nothing it lacks, but it
   * loses no function code and no file scope (SEAC_05).
   */
  async editRole(auth: AuthContext, body: EditRoleRequest): Promise<void> {
    requireAnyCode(auth, FunctionCode.role);
    const next = {
      name: body.name,
      scopes: body.filePermissions,
      functionCodes: knownCodes(body.functionCodes),
    };
    await translateUniqueViolation(() =>
      this.repo.locked(async (repo) => {
        const role = await repo.roles.findRole(body.roleId);
        if (!role) throw new AppError('SED_05');
        requireWithinCaller(auth, [role]);
        const oldCodes = knownCodes(role.function_codes);
        if (role.is_system) {
          const losesCode = oldCodes.some((code) => !next.functionCodes.includes(code));
          const losesScope = FILE_PERMISSIONS.some(
            (p) => SCOPE_RANK[next.scopes[p]] < SCOPE_RANK[role[SCOPE_COLUMN[p]]],
          );
          if (losesCode || losesScope) throw new AppError('SEAC_05');
        }
        requireGrantWithinCaller(auth, next.functionCodes, next.scopes);
        if (await repo.roles.roleNameTaken(next.name, role.id)) throw new AppError('SEAC_06');
        await repo.roles.updateRole(role.id, next, this.clock.now());
      }),
    );
  }

  /**
   * Deletes a role; users and departments simply stop holding it. The system role stays; a role
   * beyond the caller's own codes and scopes is not theirs to delete (SE_502).
   */
  async deleteRole(auth: AuthContext, roleId: number): Promise<void> {
    requireAnyCode(auth, FunctionCode.role);
    await this.repo.locked(async (repo) => {
      const role = await repo.roles.findRole(roleId);
      if (!role) throw new AppError('SED_05');
      requireWithinCaller(auth, [role]);
      if (role.is_system) throw new AppError('SEAC_05');
      await repo.roles.deleteRole(role.id);
    });
  }
}

const distinct = (ids: readonly number[]): number[] => [...new Set(ids)];

/**
 * A live department within the caller's reach; otherwise `notFound` (SED_06, or SED_04 for a
 * parent), the same answer for an unknown id and for one the caller may not administer.
 */
async function reachableDepartment(
  repo: AccountsRepository,
  reach: FileScopeFilter,
  id: number,
  notFound: 'SED_06' | 'SED_04' = 'SED_06',
): Promise<DepartmentRecord> {
  const dept = await repo.departments.findDepartment(id);
  if (dept?.status !== DepartmentStatus.normal || !withinReach(reach, dept.path))
    throw new AppError(notFound);
  return dept;
}

/** A live user whose department lies within the caller's reach; otherwise SED_02, as for an unknown id. */
async function reachableUser(
  repo: AccountsRepository,
  reach: FileScopeFilter,
  id: number,
): Promise<UserRecord> {
  const user = await repo.users.findUser(id);
  if (user?.status !== UserStatus.normal || !withinReach(reach, user.dept_path)) throw new AppError('SED_02');
  return user;
}

/** The roles of these ids; SED_05 when any does not exist. */
async function existingRoles(repo: AccountsRepository, ids: readonly number[]): Promise<RoleRow[]> {
  const roles = await repo.roles.findRoles(ids);
  if (roles.length !== ids.length) throw new AppError('SED_05');
  return roles;
}

function identityOf(body: UserInput) {
  return {
    username: body.username ?? null,
    email: body.email?.toLowerCase() ?? null,
    mobile: body.mobile ?? null,
  };
}

async function requireFreeIdentifiers(
  repo: AccountsRepository,
  identity: ReturnType<typeof identityOf>,
  exceptUserId: number | null,
): Promise<void> {
  const taken = await repo.users.takenIdentifiers(identity, exceptUserId);
  if (taken.email) throw new AppError('SED_07');
  if (taken.mobile) throw new AppError('SED_08');
  if (taken.username) throw new AppError('SEAC_07');
}

/**
 * Runs `work`, answering a unique violation on a known index with its code instead of SE_500:
 * the checks made under the accounts lock come first, but writers outside it (a user changing
 * their own phone number) can still win a race.
 */
export async function translateUniqueViolation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) {
      const index = (error as { constraint?: string }).constraint ?? '';
      if (index in UNIQUE_INDEX_CODES) {
        throw new AppError(UNIQUE_INDEX_CODES[index as keyof typeof UNIQUE_INDEX_CODES]);
      }
    }
    throw error;
  }
}

/** SE_502 unless the caller holds every function code and at least every file scope of `roles`. */
function requireWithinCaller(auth: AuthContext, roles: readonly RoleRow[]): void {
  for (const role of roles) {
    requireGrantWithinCaller(auth, knownCodes(role.function_codes), {
      view: role.view_scope,
      upload: role.upload_scope,
      download: role.download_scope,
      share: role.share_scope,
    });
  }
}

function requireGrantWithinCaller(
  auth: AuthContext,
  codes: readonly number[],
  scopes: Readonly<Record<(typeof FILE_PERMISSIONS)[number], PermissionScope>>,
): void {
  const beyondCodes = codes.some((code) => !auth.functionCodes.has(code));
  const beyondScopes = FILE_PERMISSIONS.some((p) => SCOPE_RANK[scopes[p]] > SCOPE_RANK[auth.fileScopes[p]]);
  if (beyondCodes || beyondScopes) throw new AppError('SE_502');
}
