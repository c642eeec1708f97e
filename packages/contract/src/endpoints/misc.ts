import { z } from 'zod';
import {
  addLogRequestSchema,
  logExportQuerySchema,
  logListRequestSchema,
  logListResultSchema,
} from '../logs';
import { searchRequestSchema, searchResultSchema } from '../search';
import { defineEndpoint } from './define';
import { routes } from './routes';

export const healthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  database: z.string(),
  /** The Node.js version the process runs on (`process.version`). */
  runtime: z.string(),
});
export const livenessSchema = z.object({ status: z.literal('alive') });
/** Each check is true when it passed; the answer is 503 unless all are. */
export const readinessSchema = z.object({
  status: z.enum(['ready', 'not-ready']),
  checks: z.object({ database: z.boolean(), migrations: z.boolean(), storage: z.boolean() }),
});

/** Global search (SPEC §7). */
export const searchEndpoints = {
  search: defineEndpoint({
    ...routes.search,
    body: searchRequestSchema,
    reply: 'json',
    result: searchResultSchema,
  }),
};

/** The operation log (SPEC §2 /manage/log, §7 operator-log/add-log). */
export const logsEndpoints = {
  reportOperation: defineEndpoint({
    ...routes.reportOperation,
    body: addLogRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  operationLog: defineEndpoint({
    ...routes.operationLog,
    body: logListRequestSchema,
    reply: 'json',
    result: logListResultSchema,
  }),
  /** The filtered log as an Excel workbook. */
  exportOperationLog: defineEndpoint({
    ...routes.exportOperationLog,
    query: logExportQuerySchema,
    reply: 'binary',
  }),
};

/** Where the desktop client is downloaded (SPEC §1, §2 top-bar menu); null where none is offered. */
export const clientDownloadsSchema = z.object({ mac: z.string().nullable(), windows: z.string().nullable() });
export type ClientDownloads = z.infer<typeof clientDownloadsSchema>;

/** How a mail the caller caused went (the mail outbox): queued while being tried, then sent or failed. */
export const mailStatusSchema = z.object({
  id: z.number().int(),
  recipient: z.string(),
  state: z.enum(['queued', 'sent', 'failed']),
  attempts: z.number().int(),
  /** The mail server's last refusal, while retrying and after the last attempt. */
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type MailStatus = z.infer<typeof mailStatusSchema>;
export const mailStatusQuerySchema = z.object({ id: z.coerce.number().int().positive() });

export const mailEndpoints = {
  mailStatus: defineEndpoint({
    ...routes.mailStatus,
    query: mailStatusQuerySchema,
    reply: 'json',
    result: mailStatusSchema,
  }),
};

export const clientEndpoints = {
  clientDownloads: defineEndpoint({
    ...routes.clientDownloads,
    reply: 'json',
    result: clientDownloadsSchema,
  }),
};

/** For load balancers and the about page: answers only when the database does. */
export const healthEndpoints = {
  health: defineEndpoint({ ...routes.health, reply: 'json', result: healthSchema }),
  healthLive: defineEndpoint({ ...routes.healthLive, reply: 'json', result: livenessSchema }),
  healthReady: defineEndpoint({ ...routes.healthReady, reply: 'json', result: readinessSchema }),
};
