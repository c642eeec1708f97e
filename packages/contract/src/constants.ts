/** Business constants and limits of SPEC §9. Server and web import the same numbers. */
export const LIMITS = {
  filesPerSelection: 3000,
  singleFileBytes: 5 * 1024 ** 3,
  tagItemsPerDimension: 15,
  mailGroupNameChars: 20,
  folderNameChars: 50,
  channelTagChars: 10,
  searchChars: 30,
  batchSearchChars: 10000,
  mobileDigits: 11,
  passwordMinChars: 6,
  passwordMaxChars: 16,
  rememberedSessionDays: 7,
  concurrentUploads: 3,
  partsBetweenProgressUpdates: 3,
  maxUploadRetries: 3,
  uploadStallMs: 70_000,
  taskListCheckMs: 60_000,
  artNumSearchThrottleMs: 500,
  errorDedupMs: 2_000,
  loginExpiredRedirectMs: 3_000,
  logoutAfterPasswordChangeMs: 1_500,
  mainRequestTimeoutMs: 600_000,
  securityRequestTimeoutMs: 60_000,
  storageListMaxKeys: 1000,
  breadcrumbCollapseAbove: 6,
  defaultCardSize: 192,
  treeIndentPx: 24,
  scrollBottomTriggerPx: 20,
} as const;

/** A yes/no field the API of SPEC §7 carries as 0 or 1 (e.g. isShareDownload). */
export const Flag = { no: 0, yes: 1 } as const;
export type Flag = (typeof Flag)[keyof typeof Flag];

/** Name of the cookie the web app keeps the session token in (SPEC §3 Local settings). */
export const TOKEN_COOKIE = 'skToken';
/** Request headers of SPEC §7 Common. */
export const TOKEN_HEADER = 'token';
export const LANG_HEADER = 'lang';

/** API prefixes of SPEC §7. */
export const MAIN_API_PREFIX = '/ske-api';
export const SECURITY_API_PREFIX = '/security-api';
