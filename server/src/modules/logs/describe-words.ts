import type { LogLanguage } from './describe';

/** The words of log summaries in the two log languages (./describe writes the summaries). */

/** Names of the fields `changes` and `values` hold. */
export const FIELD_LABELS: Record<LogLanguage, Record<string, string>> = {
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

export const VALIDITY: Record<LogLanguage, Record<string, string>> = {
  zh: { '2h': '2 小时', '1d': '1 天', '7d': '7 天', '30d': '30 天', none: '永久有效' },
  en: { '2h': '2 hours', '1d': '1 day', '7d': '7 days', '30d': '30 days', none: 'no expiry' },
};

/** A role's file-permission scopes and function permissions, in the words of the role screen. */
export const SCOPE_WORDS: Record<LogLanguage, Record<string, string>> = {
  zh: { none: '无', dept: '本部门及下级', all: '全部' },
  en: { none: 'none', dept: 'own department and below', all: 'all' },
};
export const FUNCTION_WORDS: Record<LogLanguage, Record<string, string>> = {
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
export const SCOPE_FIELDS = new Set(['view', 'upload', 'download', 'share']);
export const TAG_MODES: Record<LogLanguage, Record<string, string>> = {
  zh: { add: '添加标签', replace: '设置标签为' },
  en: { add: 'added tags', replace: 'tags set to' },
};

export const MEMBERSHIP_WORDS: Record<LogLanguage, Record<string, string>> = {
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
