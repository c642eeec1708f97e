import { z } from 'zod';
import { FILE_PERMISSIONS, FunctionCode, PermissionScope } from './permissions';
import { mobileSchema } from './security';

/**
 * Administration of departments, users and roles (SPEC §3 Department, User, Role; §7 Security
 * API dept-tree … reset-pwd). Paths the spec leaves open (user-list, create/edit/delete-role) are
 * recorded in docs/decisions.md. Custom messages are VALIDATION_MESSAGES keys.
 */

export const DEPARTMENT_NAME_MAX_CHARS = 50;
export const ROLE_NAME_MAX_CHARS = 30;
export const PERSON_NAME_MAX_CHARS = 50;
export const USERNAME_MAX_CHARS = 30;
/** SPEC §5: a username cannot be admin or editor. */
export const RESERVED_USERNAMES = ['admin', 'editor'] as const;
export const USER_PAGE_SIZE_MAX = 100;

/** SPEC §3 Department status: 0 deleted, 1 default. */
export const DepartmentStatus = { deleted: 0, normal: 1 } as const;
export type DepartmentStatus = (typeof DepartmentStatus)[keyof typeof DepartmentStatus];
/** SPEC §3 User status: 0 deleted, 1 normal. */
export const UserStatus = { deleted: 0, normal: 1 } as const;
export type UserStatus = (typeof UserStatus)[keyof typeof UserStatus];

const idSchema = z.number().int().positive();
const nameSchema = (max: number) =>
  z.string().trim().min(1, { error: 'blankName' }).max(max, { error: 'tooLong' });

// ── Departments ────────────────────────────────────────────────────────────────────────────────

export const departmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** null for the root department. */
  parentId: z.number().int().nullable(),
  /** Materialised path of ids, `/1/4/`. */
  path: z.string(),
  type: z.number().int(),
  status: z.enum(DepartmentStatus),
  headUserId: z.number().int().nullable(),
  headUserName: z.string().nullable(),
  /** Live members of this department itself (not of those below it). */
  memberCount: z.number().int(),
  /** Roles every member of the department holds in addition to their own. */
  roleIdList: z.array(z.number().int()),
});
export type Department = z.infer<typeof departmentSchema>;

/** POST /dept-tree: every live department, parents before children, siblings by name. */
export const departmentTreeResultSchema = z.object({ departments: z.array(departmentSchema) });
export type DepartmentTreeResult = z.infer<typeof departmentTreeResultSchema>;

export const departmentIdRequestSchema = z.object({ deptId: idSchema });

export const departmentInputSchema = z.object({
  name: nameSchema(DEPARTMENT_NAME_MAX_CHARS),
  parentId: idSchema,
  headUserId: idSchema.nullable().optional(),
  roleIdList: z.array(idSchema).max(100).optional(),
});
export type DepartmentInput = z.infer<typeof departmentInputSchema>;
export const editDepartmentRequestSchema = departmentInputSchema.extend({
  deptId: idSchema,
  /** null (or absent) only for the root department, which has no parent and stays where it is. */
  parentId: idSchema.nullable().optional(),
});
export type EditDepartmentRequest = z.infer<typeof editDepartmentRequestSchema>;

export interface DepartmentNode extends Department {
  children: DepartmentNode[];
}

/** Builds the tree from dept-tree's flat list; departments whose parent is absent become roots. */
export function toDepartmentTree(departments: readonly Department[]): DepartmentNode[] {
  const nodes = new Map<number, DepartmentNode>();
  for (const dept of departments) nodes.set(dept.id, { ...dept, children: [] });
  const roots: DepartmentNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

// ── Users ─────────────────────────────────────────────────────────────────────────────────────

export const roleRefSchema = z.object({ id: z.number().int(), name: z.string() });

export const managedUserSchema = z.object({
  id: z.number().int(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  name: z.string(),
  portrait: z.string().nullable(),
  deptId: z.number().int().nullable(),
  deptName: z.string().nullable(),
  /** The user's own roles (department roles are on the department). */
  roleList: z.array(roleRefSchema),
  roleIdList: z.array(z.number().int()),
  status: z.enum(UserStatus),
  loginNum: z.number().int(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;

/** POST /user-list (path not in SPEC): the members of a department, paged. */
export const userListRequestSchema = z.object({
  deptId: idSchema.optional(),
  /** Also list members of the departments below (default true). */
  includeSubDepts: z.boolean().optional(),
  /** Matches name, username, e-mail or phone (case-insensitive substring). */
  keyword: z.string().trim().max(50, { error: 'tooLong' }).optional(),
  pageNo: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(USER_PAGE_SIZE_MAX).default(20),
});
export type UserListRequest = z.input<typeof userListRequestSchema>;
export const userListResultSchema = z.object({
  list: z.array(managedUserSchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});
export type UserListResult = z.infer<typeof userListResultSchema>;

export const userIdRequestSchema = z.object({ userId: idSchema });

/** An optional text field: blank or absent is null (an edit sends the whole form, so null clears it). */
const optionalText = <T extends z.ZodType<string, string>>(schema: T) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    schema.nullish().transform((v) => v ?? null),
  );

export const userInputSchema = z
  .object({
    name: nameSchema(PERSON_NAME_MAX_CHARS),
    username: optionalText(
      z
        .string()
        .trim()
        .max(USERNAME_MAX_CHARS, { error: 'tooLong' })
        .regex(/^[A-Za-z0-9._-]+$/, { error: 'usernameFormat' })
        .refine((v) => !(RESERVED_USERNAMES as readonly string[]).includes(v.toLowerCase()), {
          error: 'usernameReserved',
        }),
    ),
    email: optionalText(
      z
        .string()
        .trim()
        .max(254, { error: 'tooLong' })
        .pipe(z.email({ error: 'email' })),
    ),
    mobile: optionalText(z.string().trim().pipe(mobileSchema)),
    deptId: idSchema,
    roleIdList: z.array(idSchema).max(100).default([]),
  })
  .superRefine((body, ctx) => {
    // The e-mail address or the phone number is what the person signs in with.
    if (!body.email && !body.mobile)
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'emailOrMobile' });
  });
export type UserInput = z.input<typeof userInputSchema>;
export const editUserRequestSchema = userInputSchema.safeExtend({ userId: idSchema });
export type EditUserRequest = z.input<typeof editUserRequestSchema>;

/** The password made for a new account or a reset; shown to the administrator once. */
export const issuedPasswordSchema = z.object({ password: z.string() });
export const createdUserSchema = z.object({ id: z.number().int(), password: z.string() });
export type CreatedUser = z.infer<typeof createdUserSchema>;
export const createdIdSchema = z.object({ id: z.number().int() });

// ── Roles ─────────────────────────────────────────────────────────────────────────────────────

const scopeSchema = z.enum(PermissionScope);
const FUNCTION_CODE_VALUES = Object.values(FunctionCode) as number[];

export const roleInputSchema = z.object({
  name: nameSchema(ROLE_NAME_MAX_CHARS),
  filePermissions: z.object(
    Object.fromEntries(FILE_PERMISSIONS.map((p) => [p, scopeSchema])) as Record<
      (typeof FILE_PERMISSIONS)[number],
      typeof scopeSchema
    >,
  ),
  functionCodes: z
    .array(
      z
        .number()
        .int()
        .refine((c) => FUNCTION_CODE_VALUES.includes(c), { error: 'invalidValue' }),
    )
    .max(FUNCTION_CODE_VALUES.length),
});
export type RoleInput = z.infer<typeof roleInputSchema>;
export const editRoleRequestSchema = roleInputSchema.extend({ roleId: idSchema });
export type EditRoleRequest = z.infer<typeof editRoleRequestSchema>;
export const roleIdRequestSchema = z.object({ roleId: idSchema });
