import { type FilePermission, type FunctionCode, PermissionScope } from '@dam/contract';
import { AppError } from '../../http/app-error';

/** Who is calling, and what their roles (own and their department's) allow. */
export interface AuthContext {
  userId: number;
  sessionId: number;
  deptId: number | null;
  /** Materialised path of the user's department (`/1/4/`), or null without one. */
  deptPath: string | null;
  functionCodes: ReadonlySet<number>;
  fileScopes: Readonly<Record<FilePermission, PermissionScope>>;
  passwordExpired: boolean;
}

/** Passes when the caller holds at least one of `codes` (SPEC §6); otherwise SE_502. */
export function requireAnyCode(auth: AuthContext, ...codes: FunctionCode[]): void {
  if (!codes.some((code) => auth.functionCodes.has(code))) throw new AppError('SE_502');
}

/**
 * How far a file permission reaches, for building list filters: everything, the subtree of the
 * caller's department (items owned by its members or members of departments below), or nothing.
 */
export type FileScopeFilter = { kind: 'all' } | { kind: 'subtree'; pathPrefix: string } | { kind: 'none' };

export function fileScopeFilter(auth: AuthContext, permission: FilePermission): FileScopeFilter {
  const scope = auth.fileScopes[permission];
  if (scope === PermissionScope.all) return { kind: 'all' };
  if (scope === PermissionScope.dept && auth.deptPath) return { kind: 'subtree', pathPrefix: auth.deptPath };
  return { kind: 'none' };
}

/** Whether the caller may act with `permission` on something owned within department `ownerDeptPath`. */
export function canOnDepartment(
  auth: AuthContext,
  permission: FilePermission,
  ownerDeptPath: string | null,
): boolean {
  const filter = fileScopeFilter(auth, permission);
  if (filter.kind === 'all') return true;
  if (filter.kind === 'none' || ownerDeptPath === null) return false;
  return ownerDeptPath.startsWith(filter.pathPrefix);
}

export function requireOnDepartment(
  auth: AuthContext,
  permission: FilePermission,
  ownerDeptPath: string | null,
): void {
  if (!canOnDepartment(auth, permission, ownerDeptPath)) throw new AppError('SE_502');
}

const SCOPE_RANK: Record<PermissionScope, number> = { none: 0, dept: 1, all: 2 };

/** Several roles combine to the widest scope any of them grants. */
export function widestScope(scopes: Iterable<PermissionScope>): PermissionScope {
  let best: PermissionScope = 'none';
  for (const scope of scopes) if (SCOPE_RANK[scope] > SCOPE_RANK[best]) best = scope;
  return best;
}

/** What several roles (own and department's) allow together: each file permission's widest scope. */
export function fileScopesOfRoles(
  roles: ReadonlyArray<
    Record<'view_scope' | 'upload_scope' | 'download_scope' | 'share_scope', PermissionScope>
  >,
): Record<FilePermission, PermissionScope> {
  return {
    view: widestScope(roles.map((r) => r.view_scope)),
    upload: widestScope(roles.map((r) => r.upload_scope)),
    download: widestScope(roles.map((r) => r.download_scope)),
    share: widestScope(roles.map((r) => r.share_scope)),
  };
}

/**
 * A user's rights now, acted on without a session of theirs (sessionId 0): a share link's owner
 * for its visitors, an open API record's user. A password due for change does not stop these.
 */
export function sessionlessAuth(
  user: { id: number; deptId: number | null; deptPath: string | null },
  roles: ReadonlyArray<
    { function_codes: readonly number[] } & Record<
      'view_scope' | 'upload_scope' | 'download_scope' | 'share_scope',
      PermissionScope
    >
  >,
): AuthContext {
  return {
    userId: user.id,
    sessionId: 0,
    deptId: user.deptId,
    deptPath: user.deptPath,
    functionCodes: new Set(roles.flatMap((r) => r.function_codes)),
    fileScopes: fileScopesOfRoles(roles),
    passwordExpired: false,
  };
}

/**
 * Which departments the caller administers (departments, users, password resets): everything
 * when every one of their file scopes is "all", otherwise their own department and everything
 * below it, and nothing without a department. The narrowest reading on purpose: administration
 * can move departments and take over accounts, so it must never reach further than the caller's
 * narrowest file permission already does (see docs/decisions.md, Accounts administration).
 */
export function administrationReach(auth: AuthContext): FileScopeFilter {
  if (Object.values(auth.fileScopes).every((scope) => scope === PermissionScope.all)) return { kind: 'all' };
  if (auth.deptPath) return { kind: 'subtree', pathPrefix: auth.deptPath };
  return { kind: 'none' };
}

/** Whether a department path (of a department, or of a user's department) lies within `reach`. */
export function withinReach(reach: FileScopeFilter, deptPath: string | null): boolean {
  if (reach.kind === 'all') return true;
  if (reach.kind === 'none' || deptPath === null) return false;
  return deptPath.startsWith(reach.pathPrefix);
}
