/**
 * The operation log (SPEC §2 /manage/log, §3 Operation log, §6 code 5, §7 operator-log/add-log).
 * Decisions are recorded in docs/decisions.md, "Operation log".
 *
 * Almost every entry is written by the server itself, right after the operation succeeded; the
 * browser may report only the few operations the server cannot see (CLIENT_OPERATION_CODES).
 * Times are ISO 8601 strings in UTC, as everywhere.
 */

/**
 * Every operation logged: an i18n-friendly key (what the web translates, `log.operation.<key>`)
 * → its stable code (what is stored and sent as `operatorCode`). Codes never change meaning;
 * new operations get new codes.
 */
export const OperationCode = {
  // Files and folders
  /** An uploaded file went live (one entry per finished upload record, not per part). */
  upload: 'FILE01',
  /** file/batch-move, or a folder moved through update-folder. */
  move: 'FILE02',
  /** file/batch-del: to the recycle bin. */
  delete: 'FILE03',
  /** recycle/batch-restore. */
  restore: 'FILE04',
  /** recycle/batch-del and recycle/clear: deleted for good. */
  purge: 'FILE05',
  /** file/edit (name, validity, article number) and update-folder (name). */
  edit: 'FILE06',
  /** collect/file-collect. */
  collect: 'FILE07',
  /** collect/file-cancel-collect. */
  cancelCollect: 'FILE08',
  /** A signed-in download (batch-download, its ticket link, download by article numbers). */
  download: 'FILE09',
  /** file/creat-folder. */
  createFolder: 'FILE10',
  /** file/hide: a format hidden. */
  hideFormat: 'FILE11',
  /** file/delete-record: one upload record (version) deleted. */
  deleteVersion: 'FILE12',
  /** Reported by the browser: a file opened in the viewer. */
  view: 'FILE13',
  /** file-upload/similar-attach: a finished upload added as a new version of a file it resembles. */
  attachVersion: 'FILE14',
  // Share links
  /** user/share/produce-random-code. */
  createShare: 'SHARE01',
  /** user/share/cancel-share. */
  cancelShare: 'SHARE02',
  /** A visitor opened a link (public link opened, or password accepted); no operator. */
  openShare: 'SHARE03',
  /** A visitor downloaded through a link; no operator. */
  shareDownload: 'SHARE04',
  /** Reported by the browser: a link (or link and password) copied from the share dialog. */
  copyShareLink: 'SHARE05',
  // Tags (written by the tags module)
  /** manage/update-tag, file/modify-tag. */
  updateTags: 'TAG01',
  // Accounts
  createUser: 'USER01',
  editUser: 'USER02',
  deleteUser: 'USER03',
  /** Sign-out (SPEC §7: operatorCode USER04 = logout). */
  signOut: 'USER04',
  /** An administrator's reset-pwd. */
  resetPassword: 'USER05',
  /** self-reset-pwd: one's own password changed. */
  changePassword: 'USER06',
  /** login-reset-pwd: a forgotten password reset with an e-mailed link or an SMS code. */
  recoverPassword: 'USER07',
  /** mobile-modify: one's own mobile number changed with a code sent to it. */
  changeMobile: 'USER08',
  /** One's own e-mail address changed through the link mailed to it. */
  changeEmail: 'USER09',
  createDepartment: 'DEPT01',
  editDepartment: 'DEPT02',
  deleteDepartment: 'DEPT03',
  createRole: 'ROLE01',
  editRole: 'ROLE02',
  deleteRole: 'ROLE03',
  /** A successful sign-in with a password. */
  signIn: 'LOGIN01',
  /** A successful sign-in with an SMS code. */
  signInSms: 'LOGIN02',
  /** A successful sign-in through the company single sign-on. */
  signInSso: 'LOGIN03',
  // Data
  /** sku/import: the SKU master imported from a workbook. */
  importSku: 'SKU01',
  /** Import management: tag assignments (article number → tags) applied from a workbook. */
  importSkuTags: 'SKU02',
  /** The SKU completeness report's expected views (and default upload folder) saved. */
  setCompletenessViews: 'SKU03',
  /** operator-log/export: the log itself exported. */
  exportLog: 'LOG01',
  /** report/duplicates/export: the near-duplicate report exported (issue 17). */
  exportDuplicates: 'DUP01',
  /** Reported by the browser: the desktop client downloaded from its static link. */
  downloadClient: 'APP01',
  // Mail groups (/mail, function code 1)
  createMailGroup: 'MAIL01',
  editMailGroup: 'MAIL02',
  deleteMailGroup: 'MAIL03',
  // Open API (/manage/api, function code 7; and the calls other systems make with a key)
  /** addOpenApi: an API access record created. */
  createApiAccess: 'API01',
  /** addOpenApi with an id: name, description, enterprise, user mail or status changed. */
  editApiAccess: 'API02',
  /** deleteAPIById. */
  deleteApiAccess: 'API03',
  /** rotateApiSecret: a new secret issued (the old one may live on for a grace period). */
  rotateApiSecret: 'API04',
  /** updateEnterpriseId / updateOpenApiToEnterpriseId: an enterprise or its allowed calls saved. */
  saveApiEnterprise: 'API05',
  /** deleteEnterpriseId. */
  deleteApiEnterprise: 'API06',
  /** saveWebhook: a webhook of an access record registered or changed. */
  saveWebhook: 'API07',
  /** deleteWebhook. */
  deleteWebhook: 'API08',
  /** An open call answered for an access record (the operator is the record's user). */
  openCall: 'OPEN01',
  /** An open call issued download or preview links. */
  openLink: 'OPEN02',
  /** An open call refused: no key, bad signature, replay, disabled record, call not allowed. */
  openRefused: 'OPEN09',
  // Detail-page composition (issue 16)
  /** template/save of a new template. */
  createTemplate: 'TPL01',
  /** template/save of an existing one: a new version, or its name or status changed. */
  editTemplate: 'TPL02',
  /** template/delete. */
  deleteTemplate: 'TPL03',
  /** image/makerImage and refreshUserSend: a composition job started. */
  composeStart: 'IMG01',
  // The jobs screen (/manage/jobs, function code 10; issue 40)
  /** A failed job run again. */
  retryJob: 'JOB01',
  /** Every failed job of a queue run again. */
  retryAllJobs: 'JOB02',
  /** A queue paused: no process takes its work until it is resumed. */
  pauseQueue: 'JOB03',
  resumeQueue: 'JOB04',
  /** Previews of a file or of a folder's files made again. */
  regeneratePreviews: 'JOB05',
  // Collections (issue 43)
  createCollection: 'COL01',
  /** Its name or description changed. */
  editCollection: 'COL02',
  deleteCollection: 'COL03',
  /** Members let in, their role changed, or let go. */
  saveCollectionMembers: 'COL04',
  addToCollection: 'COL05',
  removeFromCollection: 'COL06',
  /** An item dragged to another place in the collection's order. */
  moveInCollection: 'COL07',
  // Review (issue 43 item 2): each action on a file's review state.
  requestReview: 'REV01',
  withdrawReview: 'REV02',
  approveFile: 'REV03',
  requestChanges: 'REV04',
  archiveFile: 'REV05',
  reopenFile: 'REV06',
} as const;
export type OperationKey = keyof typeof OperationCode;
export type OperationCode = (typeof OperationCode)[OperationKey];
export const OPERATION_CODES = Object.values(OperationCode) as [OperationCode, ...OperationCode[]];
export const OPERATION_KEYS = Object.keys(OperationCode) as OperationKey[];
/** The i18n key of a code (`FILE01` → `upload`). */
export const OPERATION_KEY_OF: Record<OperationCode, OperationKey> = Object.fromEntries(
  OPERATION_KEYS.map((key) => [OperationCode[key], key]),
) as Record<OperationCode, OperationKey>;

export function isOperationCode(value: string): value is OperationCode {
  return (OPERATION_CODES as readonly string[]).includes(value);
}

/**
 * The only codes a browser may report through add-log: what happens where the server cannot see
 * it. Every other code is written by the server itself; add-log refuses them (SE_400), so nobody
 * can forge an upload, a deletion or a sign-in into the log.
 */
export const CLIENT_OPERATION_CODES = [
  OperationCode.view,
  OperationCode.copyShareLink,
  OperationCode.downloadClient,
] as const satisfies readonly OperationCode[];
export type ClientOperationCode = (typeof CLIENT_OPERATION_CODES)[number];
/** Client codes that must name at least one file or folder. */
export const CLIENT_CODES_NEEDING_ITEMS: readonly ClientOperationCode[] = [OperationCode.view];

/** Groups for the filter of /manage/log, in display order. */
export const OPERATION_GROUPS: ReadonlyArray<{ key: string; codes: readonly OperationCode[] }> = [
  {
    key: 'files',
    codes: OPERATION_CODES.filter((c) => c.startsWith('FILE')),
  },
  { key: 'shares', codes: OPERATION_CODES.filter((c) => c.startsWith('SHARE')) },
  { key: 'tags', codes: OPERATION_CODES.filter((c) => c.startsWith('TAG')) },
  {
    key: 'accounts',
    codes: OPERATION_CODES.filter((c) => /^(USER|DEPT|ROLE|LOGIN)/.test(c)),
  },
  { key: 'data', codes: OPERATION_CODES.filter((c) => /^(SKU|LOG|APP|DUP)\d/.test(c)) },
  { key: 'mail', codes: OPERATION_CODES.filter((c) => c.startsWith('MAIL')) },
  { key: 'openApi', codes: OPERATION_CODES.filter((c) => /^(API|OPEN)\d/.test(c)) },
  { key: 'composite', codes: OPERATION_CODES.filter((c) => /^(TPL|IMG)\d/.test(c)) },
  { key: 'jobs', codes: OPERATION_CODES.filter((c) => c.startsWith('JOB')) },
  { key: 'collections', codes: OPERATION_CODES.filter((c) => c.startsWith('COL')) },
  { key: 'review', codes: OPERATION_CODES.filter((c) => c.startsWith('REV')) },
];

/**
 * Labels of the operations in the two top-bar languages (SPEC §1). The export writes them; the
 * web may use them for its `log.operation.<key>` strings so screen and file agree.
 */
export const OPERATION_LABELS: Record<'zh' | 'en', Record<OperationCode, string>> = {
  zh: {
    FILE01: '上传文件',
    FILE02: '移动',
    FILE03: '删除到回收站',
    FILE04: '从回收站还原',
    FILE05: '彻底删除',
    FILE06: '编辑/重命名',
    FILE07: '收藏',
    FILE08: '取消收藏',
    FILE09: '下载',
    FILE10: '新建文件夹',
    FILE11: '隐藏格式',
    FILE12: '删除上传记录',
    FILE13: '查看文件',
    FILE14: '上传文件转为已有文件的新版本',
    SHARE01: '创建分享链接',
    SHARE02: '取消分享',
    SHARE03: '访客打开分享链接',
    SHARE04: '访客通过分享链接下载',
    SHARE05: '复制分享链接',
    TAG01: '修改标签',
    USER01: '新建用户',
    USER02: '编辑用户',
    USER03: '删除用户',
    USER04: '退出登录',
    USER05: '重置密码',
    USER06: '修改密码',
    USER07: '找回密码',
    USER08: '修改手机号',
    USER09: '修改邮箱',
    DEPT01: '新建部门',
    DEPT02: '编辑部门',
    DEPT03: '删除部门',
    ROLE01: '新建角色',
    ROLE02: '编辑角色',
    ROLE03: '删除角色',
    LOGIN01: '登录',
    LOGIN02: '短信验证码登录',
    LOGIN03: '单点登录',
    SKU01: '导入货号资料',
    SKU02: '导入货号标签',
    SKU03: '设置货号应有角度',
    DUP01: '导出相似图片报表',
    LOG01: '导出操作日志',
    APP01: '下载客户端',
    MAIL01: '新建邮件组',
    MAIL02: '编辑邮件组',
    MAIL03: '删除邮件组',
    API01: '新建 API 接入',
    API02: '编辑 API 接入',
    API03: '删除 API 接入',
    API04: '轮换 API 密钥',
    API05: '保存 API 企业',
    API06: '删除 API 企业',
    API07: '保存 Webhook',
    API08: '删除 Webhook',
    OPEN01: '开放接口调用',
    OPEN02: '开放接口签发链接',
    OPEN09: '开放接口调用被拒绝',
    TPL01: '新建详情页模板',
    TPL02: '修改详情页模板',
    TPL03: '删除详情页模板',
    IMG01: '开始合成详情页',
    JOB01: '重试任务',
    JOB02: '重试队列全部失败任务',
    JOB03: '暂停队列',
    JOB04: '恢复队列',
    JOB05: '重新生成预览',
    COL01: '新建合集',
    COL02: '编辑合集',
    COL03: '删除合集',
    COL04: '设置合集成员',
    COL05: '加入合集',
    COL06: '移出合集',
    COL07: '调整合集顺序',
    REV01: '提交审核',
    REV02: '撤回审核',
    REV03: '审核通过',
    REV04: '要求修改',
    REV05: '归档',
    REV06: '重新启用',
  },
  en: {
    FILE01: 'Upload',
    FILE02: 'Move',
    FILE03: 'Delete to recycle bin',
    FILE04: 'Restore from recycle bin',
    FILE05: 'Delete permanently',
    FILE06: 'Edit / rename',
    FILE07: 'Add to favourites',
    FILE08: 'Remove from favourites',
    FILE09: 'Download',
    FILE10: 'Create folder',
    FILE11: 'Hide format',
    FILE12: 'Delete upload record',
    FILE13: 'View file',
    FILE14: 'Add upload as a version of a file',
    SHARE01: 'Create share link',
    SHARE02: 'Cancel share link',
    SHARE03: 'Share link opened by a visitor',
    SHARE04: 'Download through a share link',
    SHARE05: 'Copy share link',
    TAG01: 'Update tags',
    USER01: 'Create user',
    USER02: 'Edit user',
    USER03: 'Delete user',
    USER04: 'Sign out',
    USER05: 'Reset password',
    USER06: 'Change password',
    USER07: 'Recover password',
    USER08: 'Change mobile',
    USER09: 'Change e-mail',
    DEPT01: 'Create department',
    DEPT02: 'Edit department',
    DEPT03: 'Delete department',
    ROLE01: 'Create role',
    ROLE02: 'Edit role',
    ROLE03: 'Delete role',
    LOGIN01: 'Sign in',
    LOGIN02: 'Sign in with SMS code',
    LOGIN03: 'Single sign-on',
    SKU01: 'Import SKU data',
    SKU02: 'Import article tags',
    SKU03: 'Set expected article views',
    DUP01: 'Export near-duplicate report',
    LOG01: 'Export operation log',
    APP01: 'Download desktop client',
    MAIL01: 'Create mail group',
    MAIL02: 'Edit mail group',
    MAIL03: 'Delete mail group',
    API01: 'Create API access',
    API02: 'Edit API access',
    API03: 'Delete API access',
    API04: 'Rotate API secret',
    API05: 'Save API enterprise',
    API06: 'Delete API enterprise',
    API07: 'Save webhook',
    API08: 'Delete webhook',
    OPEN01: 'Open API call',
    OPEN02: 'Open API link issued',
    OPEN09: 'Open API call refused',
    TPL01: 'Create detail-page template',
    TPL02: 'Change detail-page template',
    TPL03: 'Delete detail-page template',
    IMG01: 'Start detail-page composition',
    JOB01: 'Retry a job',
    JOB02: 'Retry all failed jobs of a queue',
    JOB03: 'Pause a queue',
    JOB04: 'Resume a queue',
    JOB05: 'Regenerate previews',
    COL01: 'Create collection',
    COL02: 'Edit collection',
    COL03: 'Delete collection',
    COL04: 'Set collection members',
    COL05: 'Add to collection',
    COL06: 'Remove from collection',
    COL07: 'Reorder collection',
    REV01: 'Request review',
    REV02: 'Withdraw review',
    REV03: 'Approve',
    REV04: 'Request changes',
    REV05: 'Archive',
    REV06: 'Reopen',
  },
};

/** Page size of the log list (SPEC leaves it open). */
export const LOG_PAGE_SIZE_DEFAULT = 20;
export const LOG_PAGE_SIZE_MAX = 100;
/** At most this many rows in one export; the file says when there were more. */
export const LOG_EXPORT_MAX_ROWS = 50_000;
/** An entry keeps the ids and names of at most this many items; `itemCount` has the real number. */
export const LOG_ITEMS_KEPT = 1_000;
/** The list answers at most this many names per entry (the export writes all kept names). */
export const LOG_NAMES_LISTED = 50;
/** Longest `newValue` kept (longer values are cut, ending with "…"). */
export const LOG_NEW_VALUE_MAX_CHARS = 2_000;
/** Longest `newValue` a browser may report through add-log. */
export const LOG_REPORTED_VALUE_MAX_CHARS = 200;
