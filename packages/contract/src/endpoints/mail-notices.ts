import { z } from 'zod';
import {
  mailNoticeRecipientSchema,
  mailNoticeRecipientsQuerySchema,
  mailNoticeRequestSchema,
  mailNoticeSummarySchema,
} from '../mail-notices';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** The upload mail notice (SPEC §3 Mail notice, §4 starting an upload step 3, §7 user/mail-notice). */
export const mailNoticesEndpoints = {
  /** Schedules the notice of one of the caller's batches; sending it again replaces a scheduled one. */
  mailNotice: defineEndpoint({
    ...routes.mailNotice,
    body: mailNoticeRequestSchema,
    reply: 'json',
    result: mailNoticeSummarySchema,
  }),
  /** The users the caller may notify, by name or address. */
  mailNoticeRecipients: defineEndpoint({
    ...routes.mailNoticeRecipients,
    query: mailNoticeRecipientsQuerySchema,
    reply: 'json',
    result: z.array(mailNoticeRecipientSchema),
  }),
};
