/**
 * Function permission codes of SPEC §6. A user's codes reach the web app as resourcesList
 * entries of resourceType 3 whose resourceId is the code.
 */
export const FunctionCode = {
  mail: 1,
  user: 2,
  role: 3,
  tag: 4,
  log: 5,
  data: 6,
  api: 7,
  import: 8,
} as const;
export type FunctionCode = (typeof FunctionCode)[keyof typeof FunctionCode];
export const ALL_FUNCTION_CODES: readonly FunctionCode[] = Object.values(FunctionCode);
/** The manage entry shows for any of codes 1 to 6 (SPEC §6). */
export const MANAGE_ENTRY_CODES: readonly FunctionCode[] = [1, 2, 3, 4, 5, 6];
export const RESOURCE_TYPE_FUNCTION_CODE = 3;

/** File resource permissions a role grants (SPEC §3 Role). */
export const FILE_PERMISSIONS = ['view', 'upload', 'download', 'share'] as const;
export type FilePermission = (typeof FILE_PERMISSIONS)[number];
/**
 * Scope of a file permission: `none` (not granted), `dept` ("self and below": items owned by
 * members of the user's own department or any department beneath it), `all`.
 */
export const PERMISSION_SCOPES = ['none', 'dept', 'all'] as const;
export type PermissionScope = (typeof PERMISSION_SCOPES)[number];
