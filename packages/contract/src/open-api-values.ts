/**
 * The open API's names and limits, without zod's schemas (those are in open-api-schemas.ts, which
 * re-exports these): the web's /manage/api screen needs only these. Design: docs/plans/issue-15-open-api.md;
 * choices in docs/decisions.md, "Open API (issue 15)".
 */

/** Where the calls other systems make with a key start (the management calls are under /ske-api/open). */
export const OPEN_API_PREFIX = '/open/v1';

/**
 * The open calls an enterprise may be allowed, by code. Each keyed endpoint names its code
 * (`openCall`); `uploads` covers creating an upload, signing its parts and completing it.
 */
export const OPEN_CALLS = [
  'assets.byArtNums',
  'assets.byTag',
  'assets.byFolder',
  'assets.get',
  'assets.previewUrl',
  'assets.downloadUrl',
  'assets.changes',
  'uploads',
  'tags.list',
  'folders.list',
] as const;
export type OpenCall = (typeof OPEN_CALLS)[number];
export function isOpenCall(value: string): value is OpenCall {
  return (OPEN_CALLS as readonly string[]).includes(value);
}

/** Request headers of a signed call (docs/decisions.md, "Open API: signed requests"). */
export const OPEN_API_HEADERS = {
  key: 'x-dam-key',
  timestamp: 'x-dam-timestamp',
  nonce: 'x-dam-nonce',
  contentSha256: 'x-dam-content-sha256',
  signature: 'x-dam-signature',
} as const;
/** First line of the string a request signs. */
export const OPEN_API_SIGNING_SCHEME = 'DAM-HMAC-SHA256';
/** A request's timestamp may be this far from the server's clock, either way. */
export const OPEN_API_CLOCK_SKEW_SECONDS = 300;

/** SPEC §5: an enterprise ID is 2–32 letters, digits, `_` or `-` (our choice of form). */
export const ENTERPRISE_ID_PATTERN = /^[A-Za-z0-9_-]{2,32}$/;
export const ENTERPRISE_NAME_MAX_CHARS = 50;
export const API_ACCESS_NAME_MAX_CHARS = 50;
export const API_ACCESS_DESCRIPTION_MAX_CHARS = 500;
/** Calls per minute an enterprise's records may make, each (the default and the bounds). */
export const OPEN_API_RATE_DEFAULT = 600;
export const OPEN_API_RATE_MAX = 100_000;
/** How long a rotated-away secret may still sign, at most. */
export const API_SECRET_GRACE_HOURS_MAX = 168;
/** Days of call counts `getUserApiById` answers. */
export const API_USAGE_DAYS = 30;
export const API_ACCESS_PAGE_SIZE_MAX = 100;

/** Status of an access record (SPEC §3: status on/off). */
export const ApiAccessStatus = { off: 0, on: 1 } as const;
export type ApiAccessStatus = (typeof ApiAccessStatus)[keyof typeof ApiAccessStatus];

/** SPEC §9 batch search: up to 10,000 article numbers in one call. */
export const OPEN_ART_NUMS_MAX = 10_000;
/** Assets per article number in a by-art-nums answer, at most. */
export const OPEN_ASSETS_PER_ART_NUM_MAX = 100;
/** Page size of the cursor-paged asset lists. */
export const OPEN_PAGE_SIZE_DEFAULT = 100;
export const OPEN_PAGE_SIZE_MAX = 500;
/** A download or preview link lives this long by default, and within these bounds. */
export const OPEN_LINK_SECONDS_DEFAULT = 3600;
export const OPEN_LINK_SECONDS_MIN = 60;
export const OPEN_LINK_SECONDS_MAX = 86_400;
/** Longest side a converted download may ask for. */
export const OPEN_OUTPUT_LONG_SIDE_MAX = 10_000;

/** What changed-since answers per page, by default and at most; how long changes are kept. */
export const OPEN_CHANGES_PAGE_DEFAULT = 100;
export const OPEN_CHANGES_PAGE_MAX = 1000;
export const OPEN_CHANGES_KEPT_DAYS = 30;

/** Kinds of change the journal records for an asset (a change may have several). */
export const ASSET_CHANGE_KINDS = [
  'created',
  'formatAdded',
  'formatRemoved',
  'version',
  'metadata',
  'tags',
  'moved',
  'deleted',
  'restored',
  /** The file's review state became approved (issue 43). */
  'approved',
  /** Any other change of the review state (an approval withdrawn by a new version, archived…). */
  'review',
  'purged',
] as const;
export type AssetChangeKind = (typeof ASSET_CHANGE_KINDS)[number];

/** Events a webhook may ask for (`ping` is what "send a test" sends). */
export const WEBHOOK_EVENTS = [
  'asset.created',
  'asset.formatAdded',
  'asset.updated',
  'asset.deleted',
  /** A file was approved for use (issue 43 item 2). */
  'asset.approved',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_URL_MAX_CHARS = 2000;
/** Webhooks per access record. */
export const WEBHOOKS_PER_ACCESS_MAX = 10;
export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];
/** A webhook that failed this many deliveries in a row is switched off (the reason is shown). */
export const WEBHOOK_FAILURES_TO_DISABLE = 20;
/** Test pings of a webhook waiting at a time; one more "send a test" answers the newest waiting one. */
export const WEBHOOK_PENDING_PINGS_MAX = 3;
