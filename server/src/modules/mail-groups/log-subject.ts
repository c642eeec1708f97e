import type { LogSubject } from '../logs/snapshot';
import type { MailGroupChange, MailGroupState } from './service';

/** How many names of members (or addresses) an entry keeps per list; the counts are always kept. */
const NAMES_KEPT = 50;

const kept = (names: readonly string[]): string[] =>
  names.length > NAMES_KEPT ? [...names.slice(0, NAMES_KEPT), `…+${names.length - NAMES_KEPT}`] : [...names];

const valuesOf = (state: MailGroupState) => ({
  members: kept(state.members.map((m) => m.name)),
  externalEmails: kept(state.externalEmails),
  memberCount: state.members.length + state.externalEmails.length,
});

/**
 * What the operation log keeps of a mail group's change (MAIL01–MAIL03), taken inside the
 * change's own transaction: the group's id and name; for a creation or deletion its members
 * (`values`), for an edit the name's change and who and which addresses were added or removed.
 */
export function mailGroupLogSubject(change: MailGroupChange): LogSubject {
  const { before, after } = change;
  const name = after?.name ?? before?.name ?? '';
  const details: Record<string, unknown> = { mailGroupId: change.id, mailGroupName: name };
  if (before && after) {
    if (before.name !== after.name) details.changes = { name: [before.name, after.name] };
    const beforeIds = new Set(before.members.map((m) => m.id));
    const afterIds = new Set(after.members.map((m) => m.id));
    const beforeEmails = new Set(before.externalEmails);
    const afterEmails = new Set(after.externalEmails);
    details.added = {
      members: kept(after.members.filter((m) => !beforeIds.has(m.id)).map((m) => m.name)),
      externalEmails: kept(after.externalEmails.filter((e) => !beforeEmails.has(e))),
    };
    details.removed = {
      members: kept(before.members.filter((m) => !afterIds.has(m.id)).map((m) => m.name)),
      externalEmails: kept(before.externalEmails.filter((e) => !afterEmails.has(e))),
    };
    details.memberCount = after.members.length + after.externalEmails.length;
  } else {
    details.values = valuesOf((after ?? before) as MailGroupState);
  }
  return { newValue: after ? after.name : null, details };
}
