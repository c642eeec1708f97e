import {
  ALL_FUNCTION_CODES,
  type Department,
  type FunctionCode,
  type ManagedUser,
  type Role,
} from '@dam/contract';
import type { RoleRow } from '../../db/schema';
import type { DepartmentRecord } from './departments.repository';
import type { UserRecord } from './users.repository';

/** Shapes of departments, users and roles as the security API sends them. */

export const departmentDto = (row: DepartmentRecord): Department => ({
  id: row.id,
  name: row.name,
  parentId: row.parent_id,
  path: row.path,
  type: row.type,
  status: row.status,
  headUserId: row.head_user_id,
  headUserName: row.head_user_name,
  memberCount: row.member_count,
  roleIdList: row.role_ids,
});

export const managedUserDto = (row: UserRecord, roles: Array<{ id: number; name: string }>): ManagedUser => ({
  id: row.id,
  username: row.username,
  email: row.email,
  mobile: row.mobile,
  name: row.name,
  portrait: row.portrait,
  deptId: row.dept_id,
  deptName: row.dept_name,
  roleList: roles.map((r) => ({ id: r.id, name: r.name })),
  roleIdList: roles.map((r) => r.id),
  status: row.status,
  loginNum: row.login_count,
  lastLoginAt: row.last_login_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

/** Codes stored on a role that SPEC §6 knows, in order. */
export const knownCodes = (codes: readonly number[]): FunctionCode[] =>
  [...new Set(codes)]
    .filter((c): c is FunctionCode => ALL_FUNCTION_CODES.includes(c as FunctionCode))
    .sort((a, b) => a - b);

export const roleDto = (row: RoleRow, userCount: number): Role => ({
  id: row.id,
  name: row.name,
  filePermissions: {
    view: row.view_scope,
    upload: row.upload_scope,
    download: row.download_scope,
    share: row.share_scope,
  },
  functionCodes: knownCodes(row.function_codes),
  isSystem: row.is_system,
  userCount,
});

const siblingOrder = new Intl.Collator('zh-CN', { numeric: true });

/**
 * Depth-first order of a department list: every parent before its children, siblings by name
 * (Chinese by pinyin, numbers by value), then id. Departments whose parent is not in the list
 * (none while deletion refuses departments with live sub-departments) follow as extra roots.
 */
export function treeOrder(departments: readonly Department[]): Department[] {
  const byName = [...departments].sort((a, b) => siblingOrder.compare(a.name, b.name) || a.id - b.id);
  const ids = new Set(byName.map((d) => d.id));
  const children = new Map<number | null, Department[]>();
  for (const dept of byName) {
    const parent = dept.parentId !== null && ids.has(dept.parentId) ? dept.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(dept);
    children.set(parent, list);
  }
  const ordered: Department[] = [];
  const visit = (parent: number | null) => {
    for (const dept of children.get(parent) ?? []) {
      ordered.push(dept);
      visit(dept.id);
    }
  };
  visit(null);
  return ordered;
}
