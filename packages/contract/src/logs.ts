import { z } from 'zod';
import {
  CLIENT_OPERATION_CODES,
  LOG_PAGE_SIZE_DEFAULT,
  LOG_PAGE_SIZE_MAX,
  LOG_REPORTED_VALUE_MAX_CHARS,
  OPERATION_CODES,
} from './logs-values';

/** The operation log's calls; its codes, labels and limits are in ./logs-values (no zod). */
export * from './logs-values';

const id = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 53 - 1);
const instant = z.iso.datetime({ offset: true });

/**
 * POST /ske-api/v1_0/operator-log/add-log (SPEC §7, signed in): the browser reports an operation
 * the server cannot see. Only CLIENT_OPERATION_CODES are accepted (others SE_400); every id must
 * be an item the caller can see (unknown or hidden SE_404); nothing is written otherwise.
 */
export const addLogRequestSchema = z.object({
  /** Files (SPEC name); folders may be listed here too. */
  folderDataIdList: z.array(id).max(100).default([]),
  /** Folders (SPEC name). */
  folderIdList: z.array(id).max(100).default([]),
  /** FILE13: the format viewed (optional); SHARE05: `link` or `linkAndPassword`; APP01: `mac` or `windows`. */
  newValue: z.string().trim().max(LOG_REPORTED_VALUE_MAX_CHARS).nullish(),
  /** One of CLIENT_OPERATION_CODES; any other code is SE_400 (the server logs those itself). */
  operatorCode: z.enum(CLIENT_OPERATION_CODES),
});
export type AddLogRequest = z.input<typeof addLogRequestSchema>;

/** The filter of the log list and its export (all optional, combined with AND). */
export const logFilterSchema = z.object({
  /** From this instant, inclusive. */
  startTime: instant.optional(),
  /** Up to this instant, inclusive. */
  endTime: instant.optional(),
  /** Exactly this operator (user id). */
  operatorId: id.optional(),
  /** The operator's name at the time contains this text (case-insensitive). */
  operatorName: z.string().trim().max(50).optional(),
  /** Any of these operations; absent or empty = all. */
  operatorCodes: z.array(z.enum(OPERATION_CODES)).max(OPERATION_CODES.length).optional(),
  /** One of the file or folder names contains this text (case-insensitive). */
  fileName: z.string().trim().max(255).optional(),
});
export type LogFilter = z.infer<typeof logFilterSchema>;

/** POST /ske-api/v1_0/operator-log/list (function code 5): one page, newest first, with the total. */
export const logListRequestSchema = logFilterSchema.extend({
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(LOG_PAGE_SIZE_MAX).default(LOG_PAGE_SIZE_DEFAULT),
});
export type LogListRequest = z.input<typeof logListRequestSchema>;

/**
 * GET /ske-api/v1_0/operator-log/export (function code 5): the same filter in the query string,
 * `operatorCodes` comma-joined (`FILE01,FILE09`). Answers an .xlsx of at most LOG_EXPORT_MAX_ROWS
 * rows, newest first, in Chinese for `lang: zh`, English otherwise.
 */
export const logExportQuerySchema = z.preprocess((raw) => {
  const query = { ...(raw as Record<string, unknown>) };
  const codes = query.operatorCodes;
  if (typeof codes === 'string')
    query.operatorCodes = codes
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
  for (const [key, value] of Object.entries(query)) if (value === '') delete query[key];
  return query;
}, logFilterSchema);

/**
 * One log entry. `details` is structured data the web may render (keys by operation, all
 * optional): `targetPath` (FILE02, FILE10), `changes` (`{ field: [before, after] }`: FILE06,
 * USER02, DEPT02, ROLE02), `userId`/`userName`, `deptId`/`deptName`, `roleId`/`roleName`
 * (account operations), `shareId`, `ownerId`, `ownerName`, `needPassword`, `validity`,
 * `expiresAt` (share operations), `fileCount` and `artNums` (downloads), `emptied` (FILE05 from
 * "clear"), `format` (FILE11, FILE12), `created`/`updated`/`unchanged` (SKU01), `filter` (LOG01),
 * `mailGroupId`/`mailGroupName` with `values` (MAIL01, MAIL03) or `changes`, `added`, `removed` (MAIL02).
 */
export const logEntrySchema = z.object({
  id: z.number().int(),
  time: z.string(),
  /** null: a share-link visitor (SHARE03, SHARE04), who has no account. */
  operatorId: z.number().int().nullable(),
  /** The operator's name at the time; null for a share-link visitor. */
  operatorName: z.string().nullable(),
  /** One of OPERATION_CODES. */
  operatorCode: z.string(),
  /** The i18n key of the operation (`upload`), or null for a code this version does not know. */
  operationKey: z.string().nullable(),
  /** The operation's label in the request's language (Chinese for zh, English otherwise). */
  operationName: z.string(),
  /** A short human summary in the request's language, built from `details` (may be empty). */
  content: z.string(),
  details: z.record(z.string(), z.unknown()),
  /** Files and folders concerned (ids and names as they were at the time; at most LOG_ITEMS_KEPT). */
  itemIds: z.array(z.number().int()),
  /** Their names at the time, the first LOG_NAMES_LISTED of them. */
  fileNames: z.array(z.string()),
  /** How many files and folders the operation concerned (may exceed the names kept). */
  itemCount: z.number().int(),
  /** The modified value (new name, new folder, the changes…), or null. */
  newValue: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** true when the browser reported it through add-log; false when the server recorded it. */
  reported: z.boolean(),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

export const logListResultSchema = z.object({
  list: z.array(logEntrySchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});
export type LogListResult = z.infer<typeof logListResultSchema>;
