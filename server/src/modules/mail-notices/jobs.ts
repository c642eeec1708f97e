import { declareJobs, NUDGED_BACKSTOP_POLL_SECONDS, nudgePass, passNow } from '../../jobs/runtime';

/** Passes over the upload mail notices (migration 018): every minute, and when a batch may be done. */
export const MAIL_NOTICE_QUEUE = 'mail-notice';

export interface MailNoticeJobs {
  /** Asks for a pass over the mail notices soon (at most one a second). */
  nudgeMailNotices(): Promise<void>;
  /** Runs the passes over the mail notices in this process, and one every minute. */
  workMailNotices(pass: () => Promise<unknown>): Promise<void>;
  /** Runs one pass now and resolves when it has ended (tests). */
  mailNoticePass(): Promise<void>;
}

export const mailNoticeJobs = declareJobs<MailNoticeJobs>({
  async ensure({ ensureQueue }) {
    await ensureQueue(MAIL_NOTICE_QUEUE, { retryLimit: 0, expireInSeconds: 300 });
  },
  spied: [MAIL_NOTICE_QUEUE],
  api: (runtime) => ({
    nudgeMailNotices: () => nudgePass(runtime, MAIL_NOTICE_QUEUE),
    async workMailNotices(pass) {
      await runtime.boss.work(
        MAIL_NOTICE_QUEUE,
        { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: NUDGED_BACKSTOP_POLL_SECONDS },
        async () => {
          await pass();
        },
      );
      // Delays are whole hours: a pass a minute sends a notice within a minute of its time.
      await runtime.boss.schedule(MAIL_NOTICE_QUEUE, '* * * * *', null, { singletonKey: 'every-minute' });
    },
    mailNoticePass: () => passNow(runtime.boss, MAIL_NOTICE_QUEUE),
  }),
});
