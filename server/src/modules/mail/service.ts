import type { MailStatus } from '@dam/contract';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { AuthContext } from '../access/access';
import type { MailRepository } from './repository';
import { type MailContent, type MailLanguage, renderMail } from './templates';
import type { MailTransport } from './transport';

type Warn = (details: Record<string, unknown>, message: string) => void;

/** What queues a mail's delivery job; absent (some tests), the mail is delivered at once instead. */
export type EnqueueMail = ((mailId: number) => Promise<void>) | undefined;

/**
 * The product's mail: every mail is written to the outbox first (what was sent to whom, and how it
 * went), then delivered by the mail job, which retries with back-off and leaves the mail `failed`
 * after its last attempt. The action that wrote the mail is never undone by a delivery failure.
 */
export class MailService {
  constructor(
    private readonly deps: {
      repo: MailRepository;
      transport: MailTransport;
      clock: Clock;
      enqueue: EnqueueMail;
      warn: Warn;
    },
  ) {}

  /** Writes the mail in the recipient's language and queues it; answers its outbox id. */
  async send(
    to: string,
    content: MailContent,
    language: MailLanguage,
    createdBy: number | null,
  ): Promise<number> {
    const rendered = renderMail(content, language);
    const id = await this.deps.repo.insert({
      purpose: content.purpose,
      recipient: to,
      language,
      subject: rendered.subject,
      textBody: rendered.text,
      htmlBody: rendered.html,
      createdBy,
      createdAt: this.deps.clock.now(),
    });
    if (this.deps.enqueue) {
      await this.deps.enqueue(id).catch((err) => this.deps.warn({ err, mailId: id }, 'mail not queued'));
    } else {
      void this.deliver(id, true).catch(() => {});
    }
    return id;
  }

  /**
   * One delivery attempt (the mail job). A mail no longer queued is left alone, so a repeated job
   * never sends twice; a failure is recorded and thrown for the queue to retry, except on the
   * final attempt, which leaves the mail failed.
   */
  async deliver(mailId: number, finalAttempt: boolean): Promise<void> {
    const mail = await this.deps.repo.find(mailId);
    if (mail?.state !== 'queued') return;
    try {
      await this.deps.transport.send({
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await this.deps.repo.markAttemptFailed(mailId, message, finalAttempt);
      this.deps.warn(
        { err, mailId, finalAttempt },
        finalAttempt ? 'mail failed for good' : 'mail attempt failed',
      );
      if (finalAttempt) return;
      throw err;
    }
    await this.deps.repo.markSent(mailId, this.deps.clock.now());
  }

  /** How a mail the caller caused went; SE_404 for another's mail, as for one that does not exist. */
  async statusFor(auth: AuthContext, mailId: number): Promise<MailStatus> {
    const mail = await this.deps.repo.find(mailId);
    if (!mail || mail.created_by !== auth.userId) throw new AppError('SE_404');
    return {
      id: mail.id,
      recipient: mail.recipient,
      state: mail.state,
      attempts: mail.attempts,
      lastError: mail.last_error,
      sentAt: mail.sent_at?.toISOString() ?? null,
    };
  }
}
