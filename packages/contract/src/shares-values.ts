import { LIMITS } from './constants';

/**
 * The share links' constants and checks without zod (their schemas are in shares.ts, which
 * re-exports these): the share visitor page's bundle needs only these (issue 10 item 7).
 */

/** SPEC §9 share type: 1 = password needed, 0 = public. */
export const ShareType = { public: 0, password: 1 } as const;
export type ShareType = (typeof ShareType)[keyof typeof ShareType];

/**
 * SPEC §9 share validity presets: key → hours (null = permanent, no expiry). The dialog offers
 * them in this order.
 */
export const SHARE_VALIDITY_HOURS = {
  '2h': 2,
  '1d': 24,
  '7d': 7 * 24,
  '30d': 30 * 24,
  none: null,
} as const;
export type ShareValidity = keyof typeof SHARE_VALIDITY_HOURS;
export const SHARE_VALIDITIES = Object.keys(SHARE_VALIDITY_HOURS) as ShareValidity[];

/** SPEC §9 default share: password-protected, 7 days. */
export const DEFAULT_SHARE_TYPE: ShareType = ShareType.password;
export const DEFAULT_SHARE_VALIDITY: ShareValidity = '7d';

/** At most this many files and folders in one link (SPEC §9 files per selection). */
export const SHARE_MAX_ITEMS = LIMITS.filesPerSelection;
/** Length of a share password: letters and digits without look-alikes, compared without case. */
export const SHARE_PASSWORD_LENGTH = 6;
/** Length of a link code: 18 random bytes (144 bits) in base64url. */
export const SHARE_CODE_LENGTH = 24;
/** How long a visitor token stays valid (never beyond the link's own expiry). */
export const SHARE_VISITOR_TOKEN_HOURS = 2;
/** Header carrying the visitor token on the visitor calls (or send `shareToken` in the body). */
export const SHARE_TOKEN_HEADER = 'share-token';
/** How many item names "my shares" shows per link. */
export const SHARE_LIST_NAMES_SHOWN = 3;
/** How many items "latest shares" presents per link. */
export const NEW_SHARE_ITEMS_SHOWN = 12;

/** The visitor page of a code (SPEC §2 /visitfile); relative, the web prefixes its origin. */
export const shareUrlOf = (code: string): string => `/visitfile?code=${code}`;

/** A link code: base64url, exactly SHARE_CODE_LENGTH characters. Anything else is SE_400. */
export const SHARE_CODE_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${SHARE_CODE_LENGTH}}$`);
export const isShareCode = (code: string): boolean => SHARE_CODE_PATTERN.test(code);

/** SPEC §4 "sharing or stopped"; `expired` is computed from the clock (a link past expiresAt). */
export const ShareStatus = { sharing: 'sharing', stopped: 'stopped', expired: 'expired' } as const;
export type ShareStatus = (typeof ShareStatus)[keyof typeof ShareStatus];
export const SHARE_STATUSES: readonly ShareStatus[] = Object.values(ShareStatus);
/** What the database keeps of a link's status (`shares.status`); expiry is not stored. */
export const ShareState = { sharing: 1, stopped: 2 } as const;
export type ShareState = (typeof ShareState)[keyof typeof ShareState];
