import type { ColumnType, Generated } from 'kysely';

/** The mail outbox, upload mail notices and mail groups. */

/** The mail outbox (migration 015): what was sent, to whom, and how it went. */
export interface MailTable {
  id: Generated<number>;
  purpose: string;
  recipient: string;
  language: string;
  subject: string;
  text_body: string;
  html_body: string;
  state: Generated<'queued' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  created_by: number | null;
  created_at: Date;
  sent_at: Date | null;
  /** Inline parts read from storage at delivery (migration 018). */
  attachments: ColumnType<MailAttachment[], string | undefined, string>;
}

/** An inline attachment of a mail: an object of the store, shown in the HTML as cid:<cid>. */
export interface MailAttachment {
  cid: string;
  key: string;
  contentType: string;
  fileName: string;
}

/** An upload batch's mail notice (migration 018). */
export interface MailNoticeTable {
  id: Generated<number>;
  batch_num: string;
  user_id: number;
  mail_group_ids: ColumnType<number[], number[] | undefined, number[]>;
  user_ids: ColumnType<number[], number[] | undefined, number[]>;
  subject: Generated<string>;
  content: Generated<string>;
  remark: Generated<string>;
  delay_hours: number;
  language: Generated<string>;
  state: Generated<'scheduled' | 'dispatched'>;
  recipients: Generated<number>;
  mail_ids: ColumnType<number[], number[] | undefined, number[]>;
  created_at: Date;
  updated_at: Date;
  dispatched_at: Date | null;
}

/** A mail group (migration 017): belongs to its maker's department. */
export interface MailGroupTable {
  id: Generated<number>;
  name: string;
  dept_id: number | null;
  created_by: number | null;
  updated_by: number | null;
  created_at: Date;
  updated_at: Date;
}

/** A user of a mail group (migration 017). */
export interface MailGroupUserTable {
  group_id: number;
  user_id: number;
}

/** An external address of a mail group, in lower case (migration 017). */
export interface MailGroupAddressTable {
  group_id: number;
  email: string;
}
