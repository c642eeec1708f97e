import { regexes } from 'zod/v4/core';
import { LIMITS } from './constants';

/**
 * Limits of mail groups and the address check, without zod's schemas (those are in
 * mail-groups.ts, which re-exports these): the web's mail-group dialog needs only these.
 */

/** SPEC §5, §9: a mail group's name is at most 20 characters. */
export const MAIL_GROUP_NAME_MAX_CHARS = LIMITS.mailGroupNameChars;
/** Members picked from the users, per group. */
export const MAIL_GROUP_MAX_USERS = 500;
/** External e-mail addresses (people without an account), per group. */
export const MAIL_GROUP_MAX_ADDRESSES = 100;
/** Longest external address (RFC 5321's path limit). */
export const MAIL_ADDRESS_MAX_CHARS = 254;
/** How many member names a list entry shows (`memberCount` has the number). */
export const MAIL_GROUP_PREVIEW_MEMBERS = 5;
export const MAIL_GROUP_PAGE_SIZE_MAX = 100;
/** The most groups `user/mail-group-list` answers (by name); a company has tens. */
export const MAIL_GROUP_LIST_MAX = 500;
export const MAIL_GROUP_CANDIDATES_PAGE_SIZE_MAX = 100;

/**
 * Whether `value` (trimmed) is an e-mail address by zod's own pattern (`z.email()` checks the same),
 * read as a pattern so a form can check it without zod's schemas.
 */
export function isMailAddress(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= MAIL_ADDRESS_MAX_CHARS && regexes.email.test(trimmed);
}
