import { isOperationCode, OPERATION_LABELS, OperationCode } from '@dam/contract';

/**
 * How an entry reads in a language: the operation's label and a short summary of its details.
 * Chinese for zh, English for every other language (the top bar offers only these two, SPEC §1;
 * the same rule as the SKU import template). Nothing here is stored: the log keeps structured
 * details, and each reader gets them in their own language.
 */
export type LogLanguage = 'zh' | 'en';

export const logLanguageOf = (lang: string): LogLanguage => (lang === 'zh' ? 'zh' : 'en');

export function operationLabel(code: string, lang: LogLanguage): string {
  return isOperationCode(code) ? OPERATION_LABELS[lang][code] : code;
}

/** Names of the fields `changes` and `values` hold. */
const FIELD_LABELS: Record<LogLanguage, Record<string, string>> = {
  zh: {
    name: '名称',
    path: '位置',
    artNum: '货号',
    startValidTime: '有效期开始',
    endValidTime: '有效期结束',
    username: '用户名',
    email: '邮箱',
    mobile: '手机号',
    dept: '部门',
    roles: '角色',
    status: '状态',
    parent: '上级部门',
    head: '负责人',
    view: '查看范围',
    upload: '上传范围',
    download: '下载范围',
    share: '分享范围',
    functionCodes: '功能权限',
    members: '成员',
    externalEmails: '外部邮箱',
    memberCount: '人数',
    description: '描述',
    enterpriseId: '企业 ID',
    userMail: '用户邮箱',
    ratePerMinute: '每分钟调用上限',
    apiCodes: '可用接口',
    events: '事件',
  },
  en: {
    name: 'name',
    path: 'folder',
    artNum: 'article number',
    startValidTime: 'valid from',
    endValidTime: 'valid until',
    username: 'user name',
    email: 'e-mail',
    mobile: 'phone',
    dept: 'department',
    roles: 'roles',
    status: 'status',
    parent: 'parent department',
    head: 'head',
    view: 'view scope',
    upload: 'upload scope',
    download: 'download scope',
    share: 'share scope',
    functionCodes: 'function permissions',
    members: 'members',
    externalEmails: 'external addresses',
    memberCount: 'member count',
    description: 'description',
    enterpriseId: 'enterprise ID',
    userMail: 'user mail',
    ratePerMinute: 'calls per minute',
    apiCodes: 'allowed calls',
    events: 'events',
  },
};

const VALIDITY: Record<LogLanguage, Record<string, string>> = {
  zh: { '2h': '2 小时', '1d': '1 天', '7d': '7 天', '30d': '30 天', none: '永久有效' },
  en: { '2h': '2 hours', '1d': '1 day', '7d': '7 days', '30d': '30 days', none: 'no expiry' },
};

/** A role's file-permission scopes and function permissions, in the words of the role screen. */
const SCOPE_WORDS: Record<LogLanguage, Record<string, string>> = {
  zh: { none: '无', dept: '本部门及下级', all: '全部' },
  en: { none: 'none', dept: 'own department and below', all: 'all' },
};
const FUNCTION_WORDS: Record<LogLanguage, Record<string, string>> = {
  zh: {
    1: '邮件',
    2: '用户管理',
    3: '角色管理',
    4: '标签管理',
    5: '操作日志',
    6: '数据报表',
    7: '开放接口',
    8: '导入管理',
  },
  en: {
    1: 'mail',
    2: 'users',
    3: 'roles',
    4: 'tags',
    5: 'operation log',
    6: 'data reports',
    7: 'open API',
    8: 'imports',
  },
};
const SCOPE_FIELDS = new Set(['view', 'upload', 'download', 'share']);
const TAG_MODES: Record<LogLanguage, Record<string, string>> = {
  zh: { add: '添加标签', replace: '设置标签为' },
  en: { add: 'added tags', replace: 'tags set to' },
};

/** A stored value as the reader knows it: scope words and permission names rather than codes. */
const wordsFor = (field: string, value: unknown, lang: LogLanguage): unknown => {
  if (SCOPE_FIELDS.has(field) && typeof value === 'string') return SCOPE_WORDS[lang][value] ?? value;
  if (field === 'functionCodes' && Array.isArray(value)) {
    return value.map((code) => FUNCTION_WORDS[lang][String(code)] ?? String(code));
  }
  return value;
};

const shown = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.join(', ');
  return String(value);
};

/** `name: A → B; roles: X → X, Y` in the reader's language. */
export function describeChanges(changes: unknown, lang: LogLanguage): string {
  if (!changes || typeof changes !== 'object') return '';
  const separator = lang === 'zh' ? '；' : '; ';
  const colon = lang === 'zh' ? '：' : ': ';
  return Object.entries(changes as Record<string, [unknown, unknown]>)
    .map(
      ([field, [from, to]]) =>
        `${FIELD_LABELS[lang][field] ?? field}${colon}${shown(wordsFor(field, from, lang))} → ${shown(wordsFor(field, to, lang))}`,
    )
    .join(separator);
}

function describeValues(values: unknown, lang: LogLanguage): string {
  if (!values || typeof values !== 'object') return '';
  const separator = lang === 'zh' ? '；' : '; ';
  const colon = lang === 'zh' ? '：' : ': ';
  return Object.entries(values as Record<string, unknown>)
    .filter(
      ([field, value]) =>
        field !== 'name' &&
        field !== 'status' &&
        value !== null &&
        value !== '' &&
        !(Array.isArray(value) && value.length === 0),
    )
    .map(
      ([field, value]) =>
        `${FIELD_LABELS[lang][field] ?? field}${colon}${shown(wordsFor(field, value, lang))}`,
    )
    .join(separator);
}

const MEMBERSHIP_WORDS: Record<LogLanguage, Record<string, string>> = {
  zh: {
    addedmembers: '新增成员',
    removedmembers: '移除成员',
    addedexternalEmails: '新增外部邮箱',
    removedexternalEmails: '移除外部邮箱',
  },
  en: {
    addedmembers: 'members added',
    removedmembers: 'members removed',
    addedexternalEmails: 'addresses added',
    removedexternalEmails: 'addresses removed',
  },
};

/** A mail group's edit: its new name, and who and which addresses were added or removed. */
function describeMembership(d: Record<string, unknown>, lang: LogLanguage): string {
  const separator = lang === 'zh' ? '；' : '; ';
  const colon = lang === 'zh' ? '：' : ': ';
  const parts = [describeChanges(d.changes, lang)];
  for (const list of ['members', 'externalEmails'] as const) {
    for (const change of ['added', 'removed'] as const) {
      const names = ((d[change] ?? {}) as Record<string, unknown>)[list];
      if (Array.isArray(names) && names.length > 0)
        parts.push(
          `${MEMBERSHIP_WORDS[lang][`${change}${list}`]}${colon}${names.join(lang === 'zh' ? '、' : ', ')}`,
        );
    }
  }
  return parts.filter(Boolean).join(separator);
}

const joinParts = (parts: Array<string | null | undefined>, lang: LogLanguage) =>
  parts.filter((p): p is string => Boolean(p)).join(lang === 'zh' ? '，' : ', ');

/** The summary of one entry (may be empty when the names say everything). */
export function describeEntry(
  code: string,
  details: Record<string, unknown>,
  newValue: string | null,
  lang: LogLanguage,
): string {
  const zh = lang === 'zh';
  const d = details;
  const target = (kind: 'user' | 'dept' | 'role'): string | null => {
    const name = d[`${kind}Name`];
    if (typeof name !== 'string') return null;
    const word = zh
      ? { user: '用户', dept: '部门', role: '角色' }[kind]
      : kind === 'dept'
        ? 'department'
        : kind;
    return zh ? `${word}：${name}` : `${word}: ${name}`;
  };
  /** The link, and whose it is when a visitor (not its owner) acted. */
  const link = (visitor = false): string | null => {
    if (typeof d.shareId !== 'number') return null;
    const owner = visitor && typeof d.ownerName === 'string' ? d.ownerName : null;
    if (zh) return `链接 #${d.shareId}${owner ? `（分享人 ${owner}）` : ''}`;
    return `link #${d.shareId}${owner ? ` (shared by ${owner})` : ''}`;
  };
  const mailGroup = (): string | null =>
    typeof d.mailGroupName === 'string' ? `${zh ? '邮件组：' : 'mail group: '}${d.mailGroupName}` : null;
  const apiAccess = (): string | null =>
    typeof d.apiAccessName === 'string' ? `${zh ? 'API 接入：' : 'API access: '}${d.apiAccessName}` : null;
  const enterprise = (): string | null =>
    typeof d.enterpriseName === 'string' || typeof d.enterpriseId === 'string'
      ? `${zh ? '企业：' : 'enterprise: '}${String(d.enterpriseName ?? d.enterpriseId)}`
      : null;
  const code_ = isOperationCode(code) ? (code as OperationCode) : null;
  switch (code_) {
    case OperationCode.upload:
      return typeof d.folderPath === 'string' ? (zh ? `上传到 ${d.folderPath}` : `into ${d.folderPath}`) : '';
    case OperationCode.move:
      return newValue ? (zh ? `移动到 ${newValue}` : `to ${newValue}`) : '';
    case OperationCode.purge:
      return d.emptied === true ? (zh ? '清空回收站' : 'recycle bin emptied') : '';
    case OperationCode.edit:
      return describeChanges(d.changes, lang);
    case OperationCode.createFolder:
      return typeof d.targetPath === 'string' ? (zh ? `位于 ${d.targetPath}` : `in ${d.targetPath}`) : '';
    case OperationCode.hideFormat:
    case OperationCode.deleteVersion:
    case OperationCode.view:
      return newValue ? (zh ? `格式 ${newValue}` : `format ${newValue}`) : '';
    case OperationCode.download:
    case OperationCode.shareDownload: {
      const files =
        typeof d.fileCount === 'number'
          ? zh
            ? `${d.fileCount} 个文件`
            : `${d.fileCount} ${d.fileCount === 1 ? 'file' : 'files'}`
          : null;
      const artNums =
        typeof d.artNumCount === 'number'
          ? zh
            ? `按 ${d.artNumCount} 个货号`
            : `by ${d.artNumCount} article numbers`
          : null;
      return joinParts([code === OperationCode.shareDownload ? link(true) : null, artNums, files], lang);
    }
    case OperationCode.createShare: {
      const password = d.needPassword === true ? (zh ? '需要密码' : 'password') : zh ? '公开' : 'public';
      const validity = typeof d.validity === 'string' ? VALIDITY[lang][d.validity] : null;
      return joinParts(
        [link(), password, validity ? (zh ? `有效期 ${validity}` : `valid ${validity}`) : null],
        lang,
      );
    }
    case OperationCode.cancelShare:
      return link() ?? '';
    case OperationCode.openShare:
      return link(true) ?? '';
    case OperationCode.copyShareLink:
      return joinParts(
        [
          link(),
          newValue === 'linkAndPassword'
            ? zh
              ? '链接和密码'
              : 'link and password'
            : newValue === 'link'
              ? zh
                ? '仅链接'
                : 'link only'
              : null,
        ],
        lang,
      );
    case OperationCode.createUser:
    case OperationCode.deleteUser:
      return joinParts([target('user'), describeValues(d.values, lang)], lang);
    case OperationCode.editUser:
      return joinParts([target('user'), describeChanges(d.changes, lang)], lang);
    case OperationCode.resetPassword:
    case OperationCode.changePassword:
      return target('user') ?? '';
    case OperationCode.createDepartment:
    case OperationCode.deleteDepartment:
      return joinParts([target('dept'), describeValues(d.values, lang)], lang);
    case OperationCode.editDepartment:
      return joinParts([target('dept'), describeChanges(d.changes, lang)], lang);
    case OperationCode.createRole:
    case OperationCode.deleteRole:
      return joinParts([target('role'), describeValues(d.values, lang)], lang);
    case OperationCode.editRole:
      return joinParts([target('role'), describeChanges(d.changes, lang)], lang);
    case OperationCode.createMailGroup:
    case OperationCode.deleteMailGroup:
      return joinParts([mailGroup(), describeValues(d.values, lang)], lang);
    case OperationCode.editMailGroup:
      return joinParts([mailGroup(), describeMembership(d, lang)], lang);
    case OperationCode.createApiAccess:
    case OperationCode.deleteApiAccess:
      return joinParts([apiAccess(), describeValues(d.values, lang)], lang);
    case OperationCode.editApiAccess:
      return joinParts([apiAccess(), describeChanges(d.changes, lang)], lang);
    case OperationCode.rotateApiSecret:
      return joinParts(
        [
          apiAccess(),
          typeof d.graceHours === 'number' && d.graceHours > 0
            ? zh
              ? `旧密钥再保留 ${d.graceHours} 小时`
              : `old secret kept for ${d.graceHours} h`
            : zh
              ? '旧密钥立即失效'
              : 'old secret revoked at once',
        ],
        lang,
      );
    case OperationCode.saveApiEnterprise:
    case OperationCode.deleteApiEnterprise:
      return joinParts(
        [enterprise(), describeChanges(d.changes, lang) || describeValues(d.values, lang)],
        lang,
      );
    case OperationCode.saveWebhook:
    case OperationCode.deleteWebhook:
      return joinParts(
        [
          newValue,
          describeValues({ events: (d.values as Record<string, unknown> | undefined)?.events }, lang),
        ],
        lang,
      );
    case OperationCode.openCall:
    case OperationCode.openRefused:
      return joinParts(
        [
          typeof d.path === 'string'
            ? `${typeof d.method === 'string' ? `${d.method} ` : ''}${d.path}`
            : null,
          typeof d.reason === 'string' ? (zh ? `原因 ${d.reason}` : `reason ${d.reason}`) : null,
        ],
        lang,
      );
    case OperationCode.importSku:
    case OperationCode.importSkuTags:
      return zh
        ? `新增 ${shown(d.created)}，更新 ${shown(d.updated)}，未变 ${shown(d.unchanged)}`
        : `created ${shown(d.created)}, updated ${shown(d.updated)}, unchanged ${shown(d.unchanged)}`;
    case OperationCode.setCompletenessViews:
      return Array.isArray(d.views) ? d.views.join(zh ? '、' : ', ') : '';
    case OperationCode.exportLog:
      return typeof d.rows === 'number'
        ? zh
          ? `${d.rows} 条`
          : `${d.rows} ${d.rows === 1 ? 'entry' : 'entries'}`
        : '';
    case OperationCode.downloadClient:
      return newValue ?? '';
    case OperationCode.updateTags: {
      // Entries written before tag names were kept show the ids they stored.
      const names = Array.isArray(d.tagNames) ? d.tagNames.map(String) : null;
      if (!names) return newValue ?? '';
      const mode = typeof d.mode === 'string' ? TAG_MODES[lang][d.mode] : null;
      const list = names.length === 0 ? (zh ? '（无）' : '(none)') : names.join(zh ? '、' : ', ');
      return mode ? `${mode}${zh ? '：' : ': '}${list}` : list;
    }
    default:
      return '';
  }
}
