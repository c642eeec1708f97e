import { z } from 'zod';

/**
 * The upload mail notice (SPEC §3 Mail notice: batchNum, mailContent, mailGroupIdList, mailInfo,
 * mailRemark, noticeTime, userIdList; §4 "starting an upload" step 3; §7 `POST /user/mail-notice`;
 * §9 the delay is whole hours, 0 or more). What SPEC leaves open is in docs/decisions.md,
 * "Upload mail notices (issue 14)". Custom messages are VALIDATION_MESSAGES keys.
 */

/** The longest delay: a month of hours (a notice further off is a calendar entry, not a notice). */
export const MAIL_NOTICE_MAX_DELAY_HOURS = 720;
export const MAIL_NOTICE_CONTENT_MAX_CHARS = 1000;
export const MAIL_NOTICE_REMARK_MAX_CHARS = 200;
export const MAIL_NOTICE_SUBJECT_MAX_CHARS = 100;
export const MAIL_NOTICE_MAX_GROUPS = 50;
export const MAIL_NOTICE_MAX_USERS = 200;
/** Files a notice mail shows with a thumbnail; the others are counted ("and 12 more"). */
export const MAIL_NOTICE_FILES_SHOWN = 20;
/** How long a notice mail's preview links work. */
export const MAIL_NOTICE_LINK_DAYS = 14;
/** Users the recipient picker answers per search. */
export const MAIL_NOTICE_RECIPIENTS_MAX = 20;

const id = z.number().int().positive().max(2_147_483_647);
const uniqueIds = (max: number) =>
  z
    .array(id)
    .max(max)
    .default([])
    .transform((ids) => [...new Set(ids)]);

export const mailNoticeRequestSchema = z
  .object({
    batchNum: z.string().trim().min(1).max(64),
    mailGroupIdList: uniqueIds(MAIL_NOTICE_MAX_GROUPS),
    userIdList: uniqueIds(MAIL_NOTICE_MAX_USERS),
    /** The message to the recipients. */
    mailContent: z.string().trim().max(MAIL_NOTICE_CONTENT_MAX_CHARS, { error: 'tooLong' }).default(''),
    /** The mail's subject line; a default one names the sender and the number of files. */
    mailInfo: z.string().trim().max(MAIL_NOTICE_SUBJECT_MAX_CHARS, { error: 'tooLong' }).default(''),
    mailRemark: z.string().trim().max(MAIL_NOTICE_REMARK_MAX_CHARS, { error: 'tooLong' }).default(''),
    /** Hours after the batch has finished: whole, 0 or more. */
    noticeTime: z
      .number({ error: 'wholeHours' })
      .int({ error: 'wholeHours' })
      .min(0, { error: 'wholeHours' })
      .max(MAIL_NOTICE_MAX_DELAY_HOURS, { error: 'tooBig' }),
  })
  .superRefine((body, ctx) => {
    if (body.mailGroupIdList.length === 0 && body.userIdList.length === 0)
      ctx.addIssue({ code: 'custom', path: ['userIdList'], message: 'noRecipients' });
  });
export type MailNoticeRequest = z.input<typeof mailNoticeRequestSchema>;

export const MailNoticeState = ['scheduled', 'sending', 'sent', 'failed'] as const;
export type MailNoticeState = (typeof MailNoticeState)[number];

/** A notice as its sender sees it on the upload record. */
export const mailNoticeSummarySchema = z.object({
  id: z.number().int(),
  /** scheduled: waiting for the batch to finish and the delay; sending: mails queued; then sent or failed. */
  state: z.enum(MailNoticeState),
  /** When it is due: the batch's end plus the delay; null while the batch is still uploading. */
  dueAt: z.string().nullable(),
  delayHours: z.number().int(),
  recipients: z.number().int(),
  /** Mails delivered so far, and failed for good. */
  sent: z.number().int(),
  failed: z.number().int(),
  sentAt: z.string().nullable(),
  /** The SMTP server's last answer of a failed mail. */
  lastError: z.string().nullable(),
});
export type MailNoticeSummary = z.infer<typeof mailNoticeSummarySchema>;

export const mailNoticeRecipientsQuerySchema = z.object({
  keyword: z.string().trim().max(50).optional(),
});
/** A user the sender may notify (has an e-mail address). */
export const mailNoticeRecipientSchema = z.object({
  userId: z.number().int(),
  name: z.string(),
  email: z.string(),
  deptName: z.string().nullable(),
});
export type MailNoticeRecipient = z.infer<typeof mailNoticeRecipientSchema>;
