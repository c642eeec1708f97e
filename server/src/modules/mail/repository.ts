import type { Db } from '../../db/database';
import type { MailAttachment } from '../../db/schema';

export interface NewMail {
  purpose: string;
  recipient: string;
  language: string;
  subject: string;
  textBody: string;
  htmlBody: string;
  createdBy: number | null;
  createdAt: Date;
  attachments?: MailAttachment[];
}

/** SQL of the mail outbox (migration 015). */
export class MailRepository {
  constructor(private readonly db: Db) {}

  async insert(mail: NewMail): Promise<number> {
    const row = await this.db
      .insertInto('mails')
      .values({
        purpose: mail.purpose,
        recipient: mail.recipient,
        language: mail.language,
        subject: mail.subject,
        text_body: mail.textBody,
        html_body: mail.htmlBody,
        created_by: mail.createdBy,
        created_at: mail.createdAt,
        attachments: JSON.stringify(mail.attachments ?? []),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  find(id: number) {
    return this.db.selectFrom('mails').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Marks a queued mail sent; false when it was not queued any more (sent or failed already). */
  async markSent(id: number, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('mails')
      .set((eb) => ({ state: 'sent', sent_at: now, attempts: eb('attempts', '+', 1), last_error: null }))
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Records a failed attempt; the last one allowed leaves the mail failed for good. */
  async markAttemptFailed(id: number, error: string, final: boolean): Promise<void> {
    await this.db
      .updateTable('mails')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        last_error: error.slice(0, 1000),
        ...(final ? { state: 'failed' as const } : {}),
      }))
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .execute();
  }
}
