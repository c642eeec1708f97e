import type { JobWithMetadata } from 'pg-boss';
import { BACKSTOP_POLL_SECONDS, declareJobs, jobEnded, type MailRetryPolicy } from '../../jobs/runtime';

/** One job per mail of the outbox (migration 015). */
export const MAIL_QUEUE = 'mail';
const MAIL_RETRY: MailRetryPolicy = { retryLimit: 5, retryDelaySeconds: 30 };

export interface MailJobs {
  /** Queues the delivery of a mail written to the outbox. */
  enqueueMail(mailId: number): Promise<void>;
  /** Delivers mails in this process; `finalAttempt` is true on the last try the queue will make. */
  workMail(handler: (mailId: number, finalAttempt: boolean) => Promise<void>): Promise<void>;
  /** Resolves when the mail job of a mail ended, delivered or failed for good (tests). */
  mailDone(mailId: number): Promise<void>;
}

export const mailJobs = declareJobs<MailJobs>({
  async ensure({ ensureQueue, retries }) {
    const retry = retries.mailRetry ?? MAIL_RETRY;
    await ensureQueue(MAIL_QUEUE, {
      retryLimit: retry.retryLimit,
      retryDelay: retry.retryDelaySeconds,
      retryBackoff: retry.retryDelaySeconds > 0,
      expireInSeconds: 300,
    });
  },
  spied: [MAIL_QUEUE],
  api: ({ boss, thenFetchAgain }) => ({
    async enqueueMail(mailId) {
      await boss.send(MAIL_QUEUE, { mailId }, { singletonKey: `mail-${mailId}` });
    },
    async workMail(handler) {
      // One worker: mail is not urgent, and on the embedded database every fetch runs on the one
      // thread that also serves requests and media jobs.
      await boss.work(
        MAIL_QUEUE,
        {
          includeMetadata: true,
          pollingIntervalSeconds: 1,
          notifyPollingIntervalSeconds: BACKSTOP_POLL_SECONDS,
        },
        thenFetchAgain(MAIL_QUEUE, async ([job]: JobWithMetadata<{ mailId: number }>[]) => {
          if (job) await handler(job.data.mailId, job.retryCount >= job.retryLimit);
        }),
      );
    },
    mailDone: (mailId) => jobEnded<{ mailId: number }>(boss, MAIL_QUEUE, (data) => data.mailId === mailId),
  }),
});
