import { DepartmentStatus, FILE_PERMISSIONS, type PermissionScope, UserStatus } from '@dam/contract';
import type { RoleRow } from '../../db/schema';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError } from '../../http/app-error';
import { type AuthContext, type FileScopeFilter, withinReach } from '../access/access';
import type { DepartmentRecord } from './departments.repository';
import { knownCodes } from './presenter';
import type { AccountsRepository } from './repository';
import type { UserRecord } from './users.repository';

/**
 * What every change to departments, users and roles checks (SPEC §3, §6, §7 security API):
 * departments and users lie within the caller's reach (`administrationReach`: their own
 * department subtree unless every file scope of theirs is "all"), and nobody hands out more than
 * they hold (SE_502).
 */

export const SCOPE_RANK: Record<PermissionScope, number> = { none: 0, dept: 1, all: 2 };

/** What a unique index of users or roles guards, as the code the caller sees. */
const UNIQUE_INDEX_CODES = {
  users_email_live: 'SED_07',
  users_mobile_live: 'SED_08',
  users_username_live: 'SEAC_07',
  roles_name_lower: 'SEAC_06',
} as const;

export const distinct = (ids: readonly number[]): number[] => [...new Set(ids)];

/**
 * A live department within the caller's reach; otherwise `notFound` (SED_06, or SED_04 for a
 * parent), the same answer for an unknown id and for one the caller may not administer.
 */
export async function reachableDepartment(
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
export async function reachableUser(
  repo: AccountsRepository,
  reach: FileScopeFilter,
  id: number,
): Promise<UserRecord> {
  const user = await repo.users.findUser(id);
  if (user?.status !== UserStatus.normal || !withinReach(reach, user.dept_path)) throw new AppError('SED_02');
  return user;
}

/** The roles of these ids; SED_05 when any does not exist. */
export async function existingRoles(repo: AccountsRepository, ids: readonly number[]): Promise<RoleRow[]> {
  const roles = await repo.roles.findRoles(ids);
  if (roles.length !== ids.length) throw new AppError('SED_05');
  return roles;
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
export function requireWithinCaller(auth: AuthContext, roles: readonly RoleRow[]): void {
  for (const role of roles) {
    requireGrantWithinCaller(auth, knownCodes(role.function_codes), {
      view: role.view_scope,
      upload: role.upload_scope,
      download: role.download_scope,
      share: role.share_scope,
    });
  }
}

export function requireGrantWithinCaller(
  auth: AuthContext,
  codes: readonly number[],
  scopes: Readonly<Record<(typeof FILE_PERMISSIONS)[number], PermissionScope>>,
): void {
  const beyondCodes = codes.some((code) => !auth.functionCodes.has(code));
  const beyondScopes = FILE_PERMISSIONS.some((p) => SCOPE_RANK[scopes[p]] > SCOPE_RANK[auth.fileScopes[p]]);
  if (beyondCodes || beyondScopes) throw new AppError('SE_502');
}
