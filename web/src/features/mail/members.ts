import { isMailAddress, MAIL_GROUP_MAX_ADDRESSES } from '@dam/contract';

/** A user in the mail-group dialog (picked from the candidates, or already in the group). */
export interface PickedMember {
  userId: number;
  name: string;
  email: string | null;
  deptName: string | null;
}

/**
 * The picked members after ticking (`selected`) or unticking `rows` in the candidates table: new
 * ones go to the end in the table's order, repeats are ignored, unticked ones leave.
 */
export function toggleMembers(
  current: readonly PickedMember[],
  rows: readonly PickedMember[],
  selected: boolean,
): PickedMember[] {
  if (!selected) {
    const leaving = new Set(rows.map((row) => row.userId));
    return current.filter((member) => !leaving.has(member.userId));
  }
  const have = new Set(current.map((member) => member.userId));
  const added = rows.filter((row) => {
    if (have.has(row.userId)) return false;
    have.add(row.userId);
    return true;
  });
  return [...current, ...added];
}

/**
 * External addresses as typed or pasted into the tags field: each split on commas, semicolons
 * (also the full-width ones) and white space, trimmed, lower-cased, repeats and blanks dropped.
 */
export function normaliseAddresses(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    for (const part of value.split(/[,;，；\s]+/)) {
      const address = part.trim().toLowerCase();
      if (address && !out.includes(address)) out.push(address);
    }
  }
  return out;
}

/** What is wrong with a list of external addresses, for the field's message; null when nothing. */
export function addressProblem(
  values: readonly string[],
): { kind: 'invalid'; address: string } | { kind: 'tooMany'; max: number } | null {
  const invalid = values.find((value) => !isMailAddress(value));
  if (invalid !== undefined) return { kind: 'invalid', address: invalid };
  if (values.length > MAIL_GROUP_MAX_ADDRESSES) return { kind: 'tooMany', max: MAIL_GROUP_MAX_ADDRESSES };
  return null;
}

/** How many members a preview leaves unnamed (the list shows the first few names). */
export const unnamedCount = (names: readonly string[], memberCount: number): number =>
  Math.max(0, memberCount - names.length);
