import { z } from 'zod';
import {
  API_ACCESS_DESCRIPTION_MAX_CHARS,
  API_ACCESS_NAME_MAX_CHARS,
  API_ACCESS_PAGE_SIZE_MAX,
  API_SECRET_GRACE_HOURS_MAX,
  ENTERPRISE_ID_PATTERN,
  ENTERPRISE_NAME_MAX_CHARS,
  OPEN_API_RATE_MAX,
  OPEN_CALLS,
} from './open-api-values';

/**
 * The open API (SPEC §2 /manage/api, §3 API access: name, description, enterprise ID, user mail,
 * status; §5 name, description and enterprise ID required; §6 code 7; §7 the /open management
 * calls; §8 SEP_02, SED_01, SED_12). Two halves:
 * - management, signed in with code 7, at /ske-api/open/<SPEC name>;
 * - the calls other systems make, signed with an access record's key, at OPEN_API_PREFIX
 *   (./open-api-calls); webhooks are in ./open-api-webhook-schemas.
 * Custom messages are VALIDATION_MESSAGES keys; times are ISO 8601 strings in UTC.
 */

export * from './open-api-calls';
export * from './open-api-values';
export * from './open-api-webhook-schemas';

const id = z.number().int().positive().max(2_147_483_647);
const queryId = z.coerce.number().int().positive().max(2_147_483_647);

// ——— Management (/ske-api/open/*, function code 7) ———

/** An enterprise ID; optional in the schemas so that a missing one is SPEC's SEP_02, said by the service. */
const enterpriseIdSchema = z.string().trim().regex(ENTERPRISE_ID_PATTERN, { error: 'enterpriseId' });

/** One open call as `getAllApi` lists it (its label is the web's `openApi.call.<code>`). */
export const openCallInfoSchema = z.object({
  code: z.enum(OPEN_CALLS),
  method: z.string(),
  path: z.string(),
});
export type OpenCallInfo = z.infer<typeof openCallInfoSchema>;

/** An enterprise: the calls its records may make and how often. */
export const apiEnterpriseSchema = z.object({
  enterpriseId: z.string(),
  name: z.string(),
  ratePerMinute: z.number().int(),
  apiCodes: z.array(z.enum(OPEN_CALLS)),
  /** Live access records of this enterprise. */
  accessCount: z.number().int(),
  updatedAt: z.string(),
});
export type ApiEnterprise = z.infer<typeof apiEnterpriseSchema>;

/** POST getEnterpriseId: one enterprise (SED_01 when unknown), or all of them without an ID. */
export const getEnterpriseRequestSchema = z.object({ enterpriseId: enterpriseIdSchema.optional() });
/** POST updateEnterpriseId: creates the enterprise or renames it / changes its rate. */
export const saveEnterpriseRequestSchema = z.object({
  enterpriseId: enterpriseIdSchema.optional(),
  name: z.string().trim().min(1, { error: 'blankName' }).max(ENTERPRISE_NAME_MAX_CHARS, { error: 'tooLong' }),
  ratePerMinute: z.number().int().min(1).max(OPEN_API_RATE_MAX).optional(),
});
export type SaveEnterpriseRequest = z.input<typeof saveEnterpriseRequestSchema>;
/** POST deleteEnterpriseId: refused with SEOA_05 while live records use it. */
export const enterpriseIdRequestSchema = z.object({ enterpriseId: enterpriseIdSchema.optional() });
/** POST updateOpenApiToEnterpriseId: the enterprise's allowed calls, replaced whole. */
export const enterpriseCallsRequestSchema = z.object({
  enterpriseId: enterpriseIdSchema.optional(),
  apiCodes: z
    .array(z.string())
    .max(OPEN_CALLS.length * 2)
    .superRefine((codes, ctx) => {
      codes.forEach((code, index) => {
        if (!(OPEN_CALLS as readonly string[]).includes(code))
          ctx.addIssue({
            code: 'custom',
            path: [index],
            message: 'unknownOpenCall',
            params: { value: code },
          });
      });
    })
    .transform((codes) => [...new Set(codes)] as Array<(typeof OPEN_CALLS)[number]>),
});
export type EnterpriseCallsRequest = z.input<typeof enterpriseCallsRequestSchema>;

/** An access record in the list (SPEC §3 plus its key's public id, hint and use). */
export const apiAccessSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  enterpriseId: z.string(),
  enterpriseName: z.string(),
  /** The user whose rights the record's calls use (SPEC §3 "user mail"). */
  userMail: z.string(),
  userName: z.string().nullable(),
  /** 1 on, 0 off. */
  status: z.union([z.literal(0), z.literal(1)]),
  /** The key's public part, sent as `x-dam-key`. */
  keyId: z.string(),
  /** The last 4 characters of the secret (the secret itself is shown once). */
  secretHint: z.string(),
  /** Until when the secret before the last rotation still signs, or null. */
  previousValidUntil: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  callsToday: z.number().int(),
  calls30d: z.number().int(),
  failures30d: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ApiAccessSummary = z.infer<typeof apiAccessSummarySchema>;

/** GET getAllUserApi: the records, newest first, paged; filter by enterprise and a keyword. */
export const apiAccessListQuerySchema = z.object({
  enterpriseId: z.string().trim().max(32).optional(),
  /** Name, description or user mail contains this text (case-insensitive). */
  keyword: z.string().trim().max(50, { error: 'tooLong' }).optional(),
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(API_ACCESS_PAGE_SIZE_MAX).default(20),
});
export type ApiAccessListQuery = z.input<typeof apiAccessListQuerySchema>;
export const apiAccessPageSchema = z.object({
  list: z.array(apiAccessSummarySchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});
export type ApiAccessPage = z.infer<typeof apiAccessPageSchema>;

/** Calls of one record on one day (UTC date), by call. */
export const apiUsageDaySchema = z.object({
  day: z.string(),
  callCode: z.string(),
  calls: z.number().int(),
  failures: z.number().int(),
});
export type ApiUsageDay = z.infer<typeof apiUsageDaySchema>;

/** POST getUserApiById: the record, what its enterprise allows, and its use over API_USAGE_DAYS. */
export const apiAccessDetailSchema = apiAccessSummarySchema.extend({
  apiCodes: z.array(z.enum(OPEN_CALLS)),
  ratePerMinute: z.number().int(),
  usage: z.array(apiUsageDaySchema),
});
export type ApiAccessDetail = z.infer<typeof apiAccessDetailSchema>;

export const apiAccessIdSchema = z.object({ id });
export const apiAccessIdQuerySchema = z.object({ id: queryId });

/**
 * POST addOpenApi: without `id` creates a record (its secret in the answer, once); with `id` edits
 * it (the key stays). Name, description and enterprise are required (SPEC §5); the user mail must
 * be a registered user's (SED_12) inside the caller's reach, active (SED_03).
 */
export const saveApiAccessRequestSchema = z.object({
  id: id.optional(),
  name: z.string().trim().min(1, { error: 'blankName' }).max(API_ACCESS_NAME_MAX_CHARS, { error: 'tooLong' }),
  description: z
    .string()
    .trim()
    .min(1, { error: 'required' })
    .max(API_ACCESS_DESCRIPTION_MAX_CHARS, { error: 'tooLong' }),
  enterpriseId: enterpriseIdSchema.optional(),
  userMail: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'email' })),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
});
export type SaveApiAccessRequest = z.input<typeof saveApiAccessRequestSchema>;

/** A key as issued: `secret` only right after creation or rotation, null after an edit. */
export const issuedApiKeySchema = z.object({
  id: z.number().int(),
  keyId: z.string(),
  secret: z.string().nullable(),
});
export type IssuedApiKey = z.infer<typeof issuedApiKeySchema>;

/** POST rotateApiSecret: a new secret; the old one signs on for `graceHours` (0: dies at once). */
export const rotateApiSecretRequestSchema = z.object({
  id,
  graceHours: z.number().int().min(0).max(API_SECRET_GRACE_HOURS_MAX).default(0),
});
export type RotateApiSecretRequest = z.input<typeof rotateApiSecretRequestSchema>;
