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
  /**
   * Detail-page template management (issue 16; SPEC §2 names the screen group, its code is ours):
   * a design lead manages templates without tag or user rights.
   */
  template: 9,
  /**
   * The jobs screen (issue 40; /manage/jobs): job queues, failed jobs, retries, pausing a queue,
   * regenerating previews. Its code is ours, as template's is.
   */
  jobs: 10,
  /**
   * Approving files (issue 43 item 2): approve, ask for changes, archive and reopen files one may
   * change within one's own department and those below it. Its code is ours, as template's is.
   */
  review: 11,
} as const;
export type FunctionCode = (typeof FunctionCode)[keyof typeof FunctionCode];
export const ALL_FUNCTION_CODES: readonly FunctionCode[] = Object.values(FunctionCode);
/** The manage entry shows for any of codes 1 to 6 (SPEC §6). */
export const MANAGE_ENTRY_CODES: readonly FunctionCode[] = [
  FunctionCode.mail,
  FunctionCode.user,
  FunctionCode.role,
  FunctionCode.tag,
  FunctionCode.log,
  FunctionCode.data,
];
/** resourceType of a resourcesList entry; only function codes are sent (SPEC §6). */
export const ResourceType = { functionCode: 3 } as const;
export type ResourceType = (typeof ResourceType)[keyof typeof ResourceType];

/** File resource permissions a role grants (SPEC §3 Role). */
export const FILE_PERMISSIONS = ['view', 'upload', 'download', 'share'] as const;
export type FilePermission = (typeof FILE_PERMISSIONS)[number];
/**
 * Scope of a file permission: `none` (not granted), `dept` ("self and below": items owned by
 * members of the user's own department or any department beneath it), `all`.
 */
export const PermissionScope = { none: 'none', dept: 'dept', all: 'all' } as const;
export type PermissionScope = (typeof PermissionScope)[keyof typeof PermissionScope];
export const PERMISSION_SCOPES = [PermissionScope.none, PermissionScope.dept, PermissionScope.all] as const;
