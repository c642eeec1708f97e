import type { MailStatus } from '@dam/contract';
import type { MailAttachment } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { ObjectStorage } from '../../storage/storage';
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
      /** Where attachments are read from at delivery. */
      storage?: ObjectStorage;
    },
  ) {}

  /** Writes the mail in the recipient's language and queues it; answers its outbox id. */
  async send(
    to: string,
    content: MailContent,
    language: MailLanguage,
    createdBy: number | null,
    attachments: MailAttachment[] = [],
  ): Promise<number> {
    const id = await this.write(this.deps.repo, to, content, language, createdBy, attachments);
    await this.enqueueAll([id]);
    return id;
  }

  /**
   * Writes a mail to the outbox through `repo` (bound to the caller's transaction, so the mail is
   * written exactly when the caller's change is); queue it with `enqueueAll` once that commits.
   */
  async write(
    repo: MailRepository,
    to: string,
    content: MailContent,
    language: MailLanguage,
    createdBy: number | null,
    attachments: MailAttachment[] = [],
  ): Promise<number> {
    const rendered = renderMail(content, language);
    return repo.insert({
      purpose: content.purpose,
      recipient: to,
      language,
      subject: rendered.subject,
      textBody: rendered.text,
      htmlBody: rendered.html,
      createdBy,
      createdAt: this.deps.clock.now(),
      attachments,
    });
  }

  /** Queues written mails for delivery; without a queue (some tests) they are delivered at once. */
  async enqueueAll(mailIds: readonly number[]): Promise<void> {
    for (const id of mailIds) {
      if (this.deps.enqueue) {
        await this.deps.enqueue(id).catch((err) => this.deps.warn({ err, mailId: id }, 'mail not queued'));
      } else {
        void this.deliver(id, true).catch(() => {});
      }
    }
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
        attachments: await this.readAttachments(mail.attachments ?? []),
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

  /**
   * The bytes of a mail's attachments. One whose object is gone (its file deleted meanwhile) is
   * left out: the mail still goes, without that picture.
   */
  private async readAttachments(attachments: MailAttachment[]) {
    const storage = this.deps.storage;
    if (!storage || attachments.length === 0) return [];
    const read = await Promise.all(
      attachments.map(async (a) => {
        try {
          const chunks: Buffer[] = [];
          for await (const chunk of await storage.read(a.key)) chunks.push(chunk as Buffer);
          return {
            cid: a.cid,
            filename: a.fileName,
            contentType: a.contentType,
            content: Buffer.concat(chunks),
          };
        } catch {
          return null;
        }
      }),
    );
    return read.filter((a) => a !== null);
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
