import { MAIL_NOTICE_MAX_DELAY_HOURS } from '@dam/contract';

/** What the remind-mail editor holds while the dialog is open. */
export interface MailNoticeDraft {
  groupIds: number[];
  userIds: number[];
  subject: string;
  content: string;
  remark: string;
  /** Hours after the batch has finished; null while the field is empty. */
  delayHours: number | null;
}

export const EMPTY_NOTICE: MailNoticeDraft = {
  groupIds: [],
  userIds: [],
  subject: '',
  content: '',
  remark: '',
  delayHours: 0,
};

export type MailNoticeProblem = 'noRecipients' | 'delay';

/** What stops the notice being asked for, checked before any upload starts (SPEC §9: whole hours ≥ 0). */
export function mailNoticeProblem(draft: MailNoticeDraft): MailNoticeProblem | null {
  if (draft.groupIds.length === 0 && draft.userIds.length === 0) return 'noRecipients';
  const delay = draft.delayHours;
  if (delay === null || !Number.isInteger(delay) || delay < 0 || delay > MAIL_NOTICE_MAX_DELAY_HOURS)
    return 'delay';
  return null;
}
