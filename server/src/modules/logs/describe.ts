import { isOperationCode, OPERATION_LABELS, OperationCode } from '@dam/contract';
import {
  FIELD_LABELS,
  FUNCTION_WORDS,
  MEMBERSHIP_WORDS,
  SCOPE_FIELDS,
  SCOPE_WORDS,
  TAG_MODES,
  VALIDITY,
} from './describe-words';

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

/** What an entry's summary is made of. */
interface Entry {
  code: OperationCode;
  d: Record<string, unknown>;
  newValue: string | null;
  lang: LogLanguage;
  zh: boolean;
}
type Summary = (entry: Entry) => string;

function target({ d, zh }: Entry, kind: 'user' | 'dept' | 'role'): string | null {
  const name = d[`${kind}Name`];
  if (typeof name !== 'string') return null;
  const word = zh
    ? { user: '用户', dept: '部门', role: '角色' }[kind]
    : kind === 'dept'
      ? 'department'
      : kind;
  return zh ? `${word}：${name}` : `${word}: ${name}`;
}

/** The link, and whose it is when a visitor (not its owner) acted. */
function link({ d, zh }: Entry, visitor = false): string | null {
  if (typeof d.shareId !== 'number') return null;
  const owner = visitor && typeof d.ownerName === 'string' ? d.ownerName : null;
  if (zh) return `链接 #${d.shareId}${owner ? `（分享人 ${owner}）` : ''}`;
  return `link #${d.shareId}${owner ? ` (shared by ${owner})` : ''}`;
}

const mailGroup = ({ d, zh }: Entry): string | null =>
  typeof d.mailGroupName === 'string' ? `${zh ? '邮件组：' : 'mail group: '}${d.mailGroupName}` : null;
const apiAccess = ({ d, zh }: Entry): string | null =>
  typeof d.apiAccessName === 'string' ? `${zh ? 'API 接入：' : 'API access: '}${d.apiAccessName}` : null;
const enterprise = ({ d, zh }: Entry): string | null =>
  typeof d.enterpriseName === 'string' || typeof d.enterpriseId === 'string'
    ? `${zh ? '企业：' : 'enterprise: '}${String(d.enterpriseName ?? d.enterpriseId)}`
    : null;

const withValues =
  (subject: (entry: Entry) => string | null): Summary =>
  (e) =>
    joinParts([subject(e), describeValues(e.d.values, e.lang)], e.lang);
const withChanges =
  (subject: (entry: Entry) => string | null): Summary =>
  (e) =>
    joinParts([subject(e), describeChanges(e.d.changes, e.lang)], e.lang);
const format: Summary = ({ newValue, zh }) =>
  newValue ? (zh ? `格式 ${newValue}` : `format ${newValue}`) : '';
const userTarget = (e: Entry) => target(e, 'user');
const deptTarget = (e: Entry) => target(e, 'dept');
const roleTarget = (e: Entry) => target(e, 'role');

const download: Summary = (e) => {
  const { d, zh } = e;
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
  return joinParts([e.code === OperationCode.shareDownload ? link(e, true) : null, artNums, files], e.lang);
};

const createShare: Summary = (e) => {
  const { d, zh, lang } = e;
  const password = d.needPassword === true ? (zh ? '需要密码' : 'password') : zh ? '公开' : 'public';
  const validity = typeof d.validity === 'string' ? VALIDITY[lang][d.validity] : null;
  return joinParts(
    [link(e), password, validity ? (zh ? `有效期 ${validity}` : `valid ${validity}`) : null],
    lang,
  );
};

const copyShareLink: Summary = (e) => {
  const { newValue, zh } = e;
  const what =
    newValue === 'linkAndPassword'
      ? zh
        ? '链接和密码'
        : 'link and password'
      : newValue === 'link'
        ? zh
          ? '仅链接'
          : 'link only'
        : null;
  return joinParts([link(e), what], e.lang);
};

const rotateApiSecret: Summary = (e) => {
  const { d, zh } = e;
  const grace =
    typeof d.graceHours === 'number' && d.graceHours > 0
      ? zh
        ? `旧密钥再保留 ${d.graceHours} 小时`
        : `old secret kept for ${d.graceHours} h`
      : zh
        ? '旧密钥立即失效'
        : 'old secret revoked at once';
  return joinParts([apiAccess(e), grace], e.lang);
};

const saveEnterprise: Summary = (e) =>
  joinParts(
    [enterprise(e), describeChanges(e.d.changes, e.lang) || describeValues(e.d.values, e.lang)],
    e.lang,
  );

const webhook: Summary = ({ d, newValue, lang }) =>
  joinParts(
    [newValue, describeValues({ events: (d.values as Record<string, unknown> | undefined)?.events }, lang)],
    lang,
  );

const openCall: Summary = ({ d, zh, lang }) =>
  joinParts(
    [
      typeof d.path === 'string' ? `${typeof d.method === 'string' ? `${d.method} ` : ''}${d.path}` : null,
      typeof d.reason === 'string' ? (zh ? `原因 ${d.reason}` : `reason ${d.reason}`) : null,
    ],
    lang,
  );

const importSku: Summary = ({ d, zh }) =>
  zh
    ? `新增 ${shown(d.created)}，更新 ${shown(d.updated)}，未变 ${shown(d.unchanged)}`
    : `created ${shown(d.created)}, updated ${shown(d.updated)}, unchanged ${shown(d.unchanged)}`;

const updateTags: Summary = ({ d, newValue, zh, lang }) => {
  // Entries written before tag names were kept show the ids they stored.
  const names = Array.isArray(d.tagNames) ? d.tagNames.map(String) : null;
  if (!names) return newValue ?? '';
  const mode = typeof d.mode === 'string' ? TAG_MODES[lang][d.mode] : null;
  const list = names.length === 0 ? (zh ? '（无）' : '(none)') : names.join(zh ? '、' : ', ');
  return mode ? `${mode}${zh ? '：' : ': '}${list}` : list;
};

/** The summary of each operation that has one; the others say everything with their names. */
const SUMMARIES: Partial<Record<OperationCode, Summary>> = {
  [OperationCode.upload]: ({ d, zh }) =>
    typeof d.folderPath === 'string' ? (zh ? `上传到 ${d.folderPath}` : `into ${d.folderPath}`) : '',
  [OperationCode.move]: ({ newValue, zh }) =>
    newValue ? (zh ? `移动到 ${newValue}` : `to ${newValue}`) : '',
  [OperationCode.purge]: ({ d, zh }) =>
    d.emptied === true ? (zh ? '清空回收站' : 'recycle bin emptied') : '',
  [OperationCode.edit]: ({ d, lang }) => describeChanges(d.changes, lang),
  [OperationCode.createFolder]: ({ d, zh }) =>
    typeof d.targetPath === 'string' ? (zh ? `位于 ${d.targetPath}` : `in ${d.targetPath}`) : '',
  [OperationCode.hideFormat]: format,
  [OperationCode.deleteVersion]: format,
  [OperationCode.view]: format,
  [OperationCode.download]: download,
  [OperationCode.shareDownload]: download,
  [OperationCode.createShare]: createShare,
  [OperationCode.cancelShare]: (e) => link(e) ?? '',
  [OperationCode.openShare]: (e) => link(e, true) ?? '',
  [OperationCode.copyShareLink]: copyShareLink,
  [OperationCode.createUser]: withValues(userTarget),
  [OperationCode.deleteUser]: withValues(userTarget),
  [OperationCode.editUser]: withChanges(userTarget),
  [OperationCode.resetPassword]: (e) => target(e, 'user') ?? '',
  [OperationCode.changePassword]: (e) => target(e, 'user') ?? '',
  [OperationCode.createDepartment]: withValues(deptTarget),
  [OperationCode.deleteDepartment]: withValues(deptTarget),
  [OperationCode.editDepartment]: withChanges(deptTarget),
  [OperationCode.createRole]: withValues(roleTarget),
  [OperationCode.deleteRole]: withValues(roleTarget),
  [OperationCode.editRole]: withChanges(roleTarget),
  [OperationCode.createMailGroup]: withValues(mailGroup),
  [OperationCode.deleteMailGroup]: withValues(mailGroup),
  [OperationCode.editMailGroup]: (e) => joinParts([mailGroup(e), describeMembership(e.d, e.lang)], e.lang),
  [OperationCode.createApiAccess]: withValues(apiAccess),
  [OperationCode.deleteApiAccess]: withValues(apiAccess),
  [OperationCode.editApiAccess]: withChanges(apiAccess),
  [OperationCode.rotateApiSecret]: rotateApiSecret,
  [OperationCode.saveApiEnterprise]: saveEnterprise,
  [OperationCode.deleteApiEnterprise]: saveEnterprise,
  [OperationCode.saveWebhook]: webhook,
  [OperationCode.deleteWebhook]: webhook,
  [OperationCode.openCall]: openCall,
  [OperationCode.openRefused]: openCall,
  [OperationCode.importSku]: importSku,
  [OperationCode.importSkuTags]: importSku,
  [OperationCode.setCompletenessViews]: ({ d, zh }) =>
    Array.isArray(d.views) ? d.views.join(zh ? '、' : ', ') : '',
  [OperationCode.exportLog]: ({ d, zh }) =>
    typeof d.rows === 'number'
      ? zh
        ? `${d.rows} 条`
        : `${d.rows} ${d.rows === 1 ? 'entry' : 'entries'}`
      : '',
  [OperationCode.downloadClient]: ({ newValue }) => newValue ?? '',
  [OperationCode.updateTags]: updateTags,
};

/** The summary of one entry (may be empty when the names say everything). */
export function describeEntry(
  code: string,
  details: Record<string, unknown>,
  newValue: string | null,
  lang: LogLanguage,
): string {
  const summary = isOperationCode(code) ? SUMMARIES[code] : undefined;
  if (!summary) return '';
  return summary({ code: code as OperationCode, d: details, newValue, lang, zh: lang === 'zh' });
}
