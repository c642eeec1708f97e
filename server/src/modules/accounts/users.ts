import {
  type CreatedUser,
  type editUserRequestSchema,
  FunctionCode,
  type ManagedUser,
  type UserListResult,
  type userInputSchema,
  type userListRequestSchema,
} from '@dam/contract';
import type { z } from 'zod';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { generatePassword, hashPassword } from '../../lib/password';
import { type AuthContext, administrationReach, requireAnyCode } from '../access/access';
import {
  distinct,
  existingRoles,
  reachableDepartment,
  reachableUser,
  requireWithinCaller,
  translateUniqueViolation,
} from './checks';
import { managedUserDto } from './presenter';
import type { AccountsRepository } from './repository';
import type { UserFilter, UserRecord } from './users.repository';

type UserInput = z.output<typeof userInputSchema>;
type EditUserInput = z.output<typeof editUserRequestSchema>;
type UserListQuery = z.output<typeof userListRequestSchema>;

/**
 * Administration of user accounts (SPEC §6, §7 security API); needs function code 2 (user).
 * Users are administered only within the caller's reach (`administrationReach`: their own
 * department subtree unless every file scope of theirs is "all"); a user outside it is answered
 * like an unknown id (SED_02), so ids outside cannot be enumerated. Nobody hands out more than
 * they hold: roles given to a user must lie within the caller's own permissions, and accounts
 * more powerful than the caller cannot be changed, deleted or reset by them (SE_502). Every change
 * runs in one transaction under the accounts lock; a refused change changes nothing.
 */
export class UsersService {
  constructor(
    private readonly repo: AccountsRepository,
    private readonly clock: Clock,
  ) {}

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
