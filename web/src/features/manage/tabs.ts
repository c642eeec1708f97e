import { FunctionCode } from '@dam/contract';
import { holdsCodes } from '../../auth/guard';

/**
 * The tabs of the admin area (SPEC §2 manage tabs, §6 codes). Only built screens are listed; each
 * shows to holders of its codes, and the server checks the same codes on every call.
 */
export type ManageTabKey =
  | 'users'
  | 'role'
  | 'tag'
  | 'download-presets'
  | 'metadata-mapping'
  | 'log'
  | 'import'
  | 'mail'
  | 'completeness'
  | 'duplicates'
  | 'data-table'
  | 'api'
  | 'jobs';

export interface ManageTab {
  key: ManageTabKey;
  path: string;
  labelKey: string;
  codes: FunctionCode[];
}

export const MANAGE_TABS: ManageTab[] = [
  {
    key: 'users',
    path: '/manage/users',
    labelKey: 'manage.users',
    codes: [FunctionCode.user],
  },
  {
    key: 'role',
    // Also the parent of /manage/role/modify, which keeps this tab active.
    path: '/manage/role',
    labelKey: 'manage.roles',
    codes: [FunctionCode.role],
  },
  {
    key: 'tag',
    path: '/manage/tag',
    labelKey: 'manage.tags',
    codes: [FunctionCode.tag],
  },
  {
    key: 'download-presets',
    path: '/manage/download-presets',
    labelKey: 'manage.downloadPresets',
    // Download presets are part of tag and channel management.
    codes: [FunctionCode.tag],
  },
  {
    key: 'metadata-mapping',
    path: '/manage/metadata-mapping',
    labelKey: 'manage.metadataMapping',
    // Keyword → tag mapping (issue 42) is tag management, like the download presets.
    codes: [FunctionCode.tag],
  },
  {
    key: 'log',
    path: '/manage/log',
    labelKey: 'manage.log',
    codes: [FunctionCode.log],
  },
  {
    key: 'data-table',
    // SPEC §2 /manage/data-table: the data reports (code 6).
    path: '/manage/data-table',
    labelKey: 'manage.dataReports',
    codes: [FunctionCode.data],
  },
  {
    key: 'api',
    // SPEC §2 /manage/api, §6: the open API's access records and enterprises (code 7, issue 15).
    path: '/manage/api',
    labelKey: 'manage.api',
    codes: [FunctionCode.api],
  },
  {
    key: 'import',
    path: '/manage/import',
    labelKey: 'imports.tab',
    // SPEC §6: the import tab shows for code 8 (import management, issue 14).
    codes: [FunctionCode.import],
  },
  {
    key: 'mail',
    // SPEC §2 names the mail groups' route /mail; it shows inside the admin area like the others.
    path: '/mail',
    labelKey: 'manage.mailGroups',
    codes: [FunctionCode.mail],
  },
  {
    key: 'completeness',
    // The SKU completeness report (issue 14) is one of the data reports (SPEC §6 code 6).
    path: '/manage/completeness',
    labelKey: 'manage.completeness',
    codes: [FunctionCode.data],
  },
  {
    key: 'duplicates',
    // The near-duplicate report (issue 17, plan §7) is one of the data reports (SPEC §6 code 6).
    path: '/manage/duplicates',
    labelKey: 'duplicates.tab',
    codes: [FunctionCode.data],
  },
  {
    key: 'jobs',
    // The jobs screen (issue 40 item 4): job queues, failures, retries, pauses (code 10).
    path: '/manage/jobs',
    labelKey: 'manage.jobs',
    codes: [FunctionCode.jobs],
  },
];

/** The tabs a user with these function codes may see, in order. */
export function visibleManageTabs(codes: number[]): ManageTab[] {
  return MANAGE_TABS.filter((tab) => holdsCodes(codes, tab.codes));
}
