import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { ItemType, SHARE_PASSWORD_LENGTH, ShareState, ShareStatus } from '@dam/contract';
import { isExpired } from '../items/presenter';
import type { ShareRow } from './repository';

/** Letters and digits without look-alikes (no i, l, o, 0, 1): read aloud or typed from a chat. */
const PASSWORD_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const CODE_BYTES = 18;
export const HOUR_MS = 3600_000;

export function newShareCode(): string {
  return randomBytes(CODE_BYTES).toString('base64url');
}

export function newSharePassword(): string {
  let password = '';
  for (let i = 0; i < SHARE_PASSWORD_LENGTH; i++)
    password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}

/** Compares a typed password with the link's: trimmed, without case, in constant time. */
export function passwordMatches(stored: string, given: string): boolean {
  const a = Buffer.from(stored.toLowerCase());
  const b = Buffer.from(given.trim().toLowerCase());
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A link's state at `now`: stopped, expired or sharing. */
export function statusOf(share: ShareRow, now: Date): ShareStatus {
  if (share.status !== ShareState.sharing) return ShareStatus.stopped;
  if (share.expires_at && share.expires_at.getTime() <= now.getTime()) return ShareStatus.expired;
  return ShareStatus.sharing;
}

/** A file (not a folder) expired on `today` (SPEC §4): not handed out through a link. */
export function expiredFile(
  row: { type: number; expire_start_date: string | null; expire_end_date: string | null },
  today: string,
): boolean {
  return row.type !== ItemType.folder && isExpired(row.expire_start_date, row.expire_end_date, today);
}

/** Drops what lies inside another chosen folder: it is shared with it. */
export function outermost<T extends { id_path: string }>(rows: T[]): T[] {
  return rows.filter((row) => !rows.some((other) => other !== row && row.id_path.startsWith(other.id_path)));
}
