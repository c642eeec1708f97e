import { MAIL_NOTICE_MAX_DELAY_HOURS } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { EMPTY_NOTICE, mailNoticeProblem } from './mailNoticeDraft';

describe('the remind-mail editor’s check before an upload starts', () => {
  it('needs a group or a user', () => {
    expect(mailNoticeProblem(EMPTY_NOTICE)).toBe('noRecipients');
    expect(mailNoticeProblem({ ...EMPTY_NOTICE, groupIds: [3] })).toBeNull();
    expect(mailNoticeProblem({ ...EMPTY_NOTICE, userIds: [7] })).toBeNull();
  });

  it('takes the delay in whole hours from 0 to the most the server takes', () => {
    const withDelay = (delayHours: number | null) =>
      mailNoticeProblem({ ...EMPTY_NOTICE, userIds: [7], delayHours });
    expect(withDelay(0)).toBeNull();
    expect(withDelay(MAIL_NOTICE_MAX_DELAY_HOURS)).toBeNull();
    for (const bad of [null, -1, 1.5, MAIL_NOTICE_MAX_DELAY_HOURS + 1]) expect(withDelay(bad)).toBe('delay');
  });
});
