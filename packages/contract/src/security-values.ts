import { regexes } from 'zod/v4/core';
import { LIMITS } from './constants';

/**
 * Sign-in identifiers and password rules without zod's schemas (those are in security.ts, which
 * re-exports these): the sign-in page's bundle needs only these (issue 10 item 7).
 */

export const MOBILE_PATTERN = /^\d{11}$/;
/** 6–16 visible characters with at least one letter, one digit and one special character. */
export const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)(?=.*[^A-Za-z\d\s])\S{6,16}$/;

/** SMS verification codes: six digits (SPEC §8 SE_504 when wrong). */
export const SMS_CODE_PATTERN = /^\d{6}$/;

/** What an SMS code is for; a code proves only its own purpose. */
export const SmsPurpose = {
  signIn: 'signIn',
  resetPassword: 'resetPassword',
  changeMobile: 'changeMobile',
} as const;
export type SmsPurpose = (typeof SmsPurpose)[keyof typeof SmsPurpose];

export type IdentifierKind = 'mobile' | 'email';

/**
 * The login identifier is a phone number or an e-mail address by its format (SPEC §5). The e-mail
 * test is zod's own (`z.email()` checks this pattern), read as a pattern so that the sign-in page's
 * bundle does not need zod (issue 10 item 7).
 */
export function classifyIdentifier(value: string): IdentifierKind | null {
  const trimmed = value.trim();
  if (MOBILE_PATTERN.test(trimmed)) return 'mobile';
  if (regexes.email.test(trimmed)) return 'email';
  return null;
}

export function isStrongPassword(value: string): boolean {
  return PASSWORD_PATTERN.test(value);
}

export const PASSWORD_LIMITS = { min: LIMITS.passwordMinChars, max: LIMITS.passwordMaxChars };
