import { z } from 'zod';
import {
  API_ACCESS_DESCRIPTION_MAX_CHARS,
  API_ACCESS_NAME_MAX_CHARS,
  API_ACCESS_PAGE_SIZE_MAX,
  API_SECRET_GRACE_HOURS_MAX,
  ASSET_CHANGE_KINDS,
  ENTERPRISE_ID_PATTERN,
  ENTERPRISE_NAME_MAX_CHARS,
  OPEN_API_RATE_MAX,
  OPEN_ART_NUMS_MAX,
  OPEN_ASSETS_PER_ART_NUM_MAX,
  OPEN_CALLS,
  OPEN_CHANGES_PAGE_DEFAULT,
  OPEN_CHANGES_PAGE_MAX,
  OPEN_LINK_SECONDS_DEFAULT,
  OPEN_LINK_SECONDS_MAX,
  OPEN_LINK_SECONDS_MIN,
  OPEN_OUTPUT_LONG_SIDE_MAX,
  OPEN_PAGE_SIZE_DEFAULT,
  OPEN_PAGE_SIZE_MAX,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX_CHARS,
} from './open-api-values';
import { hexColourSchema, PRESET_FORMATS } from './presets';
import { uploadEntrySchema } from './uploads';

/**
 * The open API (SPEC §2 /manage/api, §3 API access: name, description, enterprise ID, user mail,
 * status; §5 name, description and enterprise ID required; §6 code 7; §7 the /open management
 * calls; §8 SEP_02, SED_01, SED_12). Two halves:
 * - management, signed in with code 7, at /ske-api/open/<SPEC name>;
 * - the calls other systems make, signed with an access record's key, at OPEN_API_PREFIX.
 * Custom messages are VALIDATION_MESSAGES keys; times are ISO 8601 strings in UTC.
 */

export * from './open-api-values';

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

// ——— The calls other systems make (OPEN_API_PREFIX, signed with a key) ———

const cursorSchema = z.string().trim().max(200);
const pageLimitSchema = z.coerce
  .number()
  .int()
  .min(1)
  .max(OPEN_PAGE_SIZE_MAX)
  .default(OPEN_PAGE_SIZE_DEFAULT);
const formatSchema = z.string().trim().toLowerCase().min(1).max(16);

/** One format of an asset: its current version. */
export const openAssetFormatSchema = z.object({
  format: z.string(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** How many versions (upload records) the format has. */
  versions: z.number().int(),
  updatedAt: z.string(),
});
export type OpenAssetFormat = z.infer<typeof openAssetFormatSchema>;

export const openAssetTagSchema = z.object({
  tagId: z.number().int(),
  name: z.string(),
  dimensionId: z.number().int().nullable(),
  dimensionName: z.string().nullable(),
});
export type OpenAssetTag = z.infer<typeof openAssetTagSchema>;

/** An asset (a file item) in a list: enough to decide whether to fetch it whole. */
export const openAssetSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  artNum: z.string().nullable(),
  folderId: z.number().int().nullable(),
  /** Folder names from the top, joined by '/'. */
  folderPath: z.string(),
  formats: z.array(z.string()),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  /** The validity has ended. */
  expired: z.boolean(),
  updatedAt: z.string(),
});
export type OpenAssetSummary = z.infer<typeof openAssetSummarySchema>;

/** GET assets/:id: the whole asset. */
export const openAssetSchema = openAssetSummarySchema.extend({
  formatDetails: z.array(openAssetFormatSchema),
  tags: z.array(openAssetTagSchema),
  createdAt: z.string(),
});
export type OpenAsset = z.infer<typeof openAssetSchema>;

export const openAssetIdParamsSchema = z.object({ id: queryId });

/** POST assets/by-art-nums: the assets of up to OPEN_ART_NUMS_MAX article numbers; the unmatched named. */
export const openByArtNumsRequestSchema = z.object({
  artNums: z.array(z.string().trim().min(1).max(100)).min(1).max(OPEN_ART_NUMS_MAX),
  /** Only assets holding one of these formats (`jpg`, `psd`); absent = all. */
  formats: z.array(formatSchema).max(50).optional(),
  limitPerArtNum: z.number().int().min(1).max(OPEN_ASSETS_PER_ART_NUM_MAX).default(20),
});
export type OpenByArtNumsRequest = z.input<typeof openByArtNumsRequestSchema>;
export const openByArtNumsResultSchema = z.object({
  matches: z.array(z.object({ artNum: z.string(), assets: z.array(openAssetSummarySchema) })),
  /** Article numbers asked for with no asset the record may see, as sent. */
  unmatched: z.array(z.string()),
});
export type OpenByArtNumsResult = z.infer<typeof openByArtNumsResultSchema>;

/** A cursor-paged list: `nextCursor` null on the last page. */
export const openAssetPageSchema = z.object({
  list: z.array(openAssetSummarySchema),
  nextCursor: z.string().nullable(),
});
export type OpenAssetPage = z.infer<typeof openAssetPageSchema>;

/** GET assets/by-tag: assets carrying the tag. */
export const openByTagQuerySchema = z.object({
  tagId: queryId,
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});
/** GET assets/by-folder: the folder's files, or everything below it with `recursive=true`. */
export const openByFolderQuerySchema = z.object({
  folderId: queryId,
  recursive: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});

/** A link another system may fetch without signing, until `expiresAt`. */
export const openLinkSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type OpenLink = z.infer<typeof openLinkSchema>;

/** GET assets/:id/preview: the preview image's link (thumbnail too, when there is one). */
export const openPreviewResultSchema = z.object({
  preview: openLinkSchema.nullable(),
  thumbnail: openLinkSchema.nullable(),
});

/** Converted output of a download: the same engine as download presets. */
export const openOutputSchema = z.object({
  format: z.enum(PRESET_FORMATS),
  longSidePx: z.number().int().min(16).max(OPEN_OUTPUT_LONG_SIDE_MAX).optional(),
  background: hexColourSchema.optional(),
});

/**
 * POST assets/download-url: a time-limited link to assets by id or by article number, as they
 * are or converted (`output`, or a download preset by id). `zip` gives one link to a zip of all;
 * `files` one link per file (at most 1,000 files).
 */
export const openDownloadUrlRequestSchema = z
  .object({
    assetIds: z.array(id).min(1).max(3000).optional(),
    artNums: z.array(z.string().trim().min(1).max(100)).min(1).max(OPEN_ART_NUMS_MAX).optional(),
    formats: z.array(formatSchema).max(50).optional(),
    output: openOutputSchema.optional(),
    presetId: id.optional(),
    mode: z.enum(['zip', 'files']).default('zip'),
    expiresInSeconds: z
      .number()
      .int()
      .min(OPEN_LINK_SECONDS_MIN)
      .max(OPEN_LINK_SECONDS_MAX)
      .default(OPEN_LINK_SECONDS_DEFAULT),
  })
  .superRefine((body, ctx) => {
    if ((body.assetIds ? 1 : 0) + (body.artNums ? 1 : 0) !== 1)
      ctx.addIssue({ code: 'custom', path: ['assetIds'], message: 'required' });
    if (body.output && body.presetId)
      ctx.addIssue({ code: 'custom', path: ['presetId'], message: 'invalidValue' });
  });
export type OpenDownloadUrlRequest = z.input<typeof openDownloadUrlRequestSchema>;
export const openDownloadUrlResultSchema = z.object({
  /** `zip`: one link; `files`: one per file, with the file it fetches. */
  links: z.array(
    openLinkSchema.extend({
      assetId: z.number().int().nullable(),
      format: z.string().nullable(),
      fileName: z.string(),
    }),
  ),
  fileCount: z.number().int(),
  /** Article numbers asked for with no file to download. */
  unmatched: z.array(z.string()),
});
export type OpenDownloadUrlResult = z.infer<typeof openDownloadUrlResultSchema>;
/** GET download?ticket=: the bytes; the ticket is the authorisation (no signature). */
export const openDownloadQuerySchema = z.object({ ticket: z.string().min(16).max(200) });

/** POST uploads: files another system pushes in, into a folder, by the same rules as a user's upload. */
export const openUploadRequestSchema = z.object({
  folderId: id,
  files: z
    .array(
      z.object({
        // A user's upload rules (legal name, size limit, article number length).
        fileName: uploadEntrySchema.shape.fileName,
        fileSize: uploadEntrySchema.shape.fileSize,
        artNum: uploadEntrySchema.shape.artNum,
        validFrom: z.iso.date().optional(),
        validTo: z.iso.date().optional(),
        tagIds: z.array(id).max(100).optional(),
      }),
    )
    .min(1)
    .max(3000),
});
export type OpenUploadRequest = z.input<typeof openUploadRequestSchema>;
const openPartTargetSchema = z.object({ partNumber: z.number().int(), url: z.string() });
export const openUploadResultSchema = z.object({
  uploads: z.array(
    z.object({
      uploadId: z.number().int(),
      fileName: z.string(),
      partSize: z.number().int(),
      partCount: z.number().int(),
      /** The first parts' links (PUT the bytes; keep each answer's ETag); ask uploads/:id/parts for more. */
      parts: z.array(openPartTargetSchema),
    }),
  ),
});
export type OpenUploadResult = z.infer<typeof openUploadResultSchema>;
export const openUploadIdParamsSchema = z.object({ id: queryId });
export const openUploadPartsRequestSchema = z.object({
  partNumbers: z.array(z.number().int().min(1).max(10_000)).min(1).max(1000),
});
export const openUploadPartsResultSchema = z.object({
  parts: z.array(openPartTargetSchema),
  expiresAt: z.string(),
});
/** POST uploads/:id/complete: every part's ETag as the PUT answered it. */
export const openUploadCompleteRequestSchema = z.object({
  parts: z
    .array(
      z.object({
        partNumber: z.number().int().min(1).max(10_000),
        etag: z.string().min(1).max(200),
        size: z.number().int().min(0),
      }),
    )
    .min(1)
    .max(10_000),
});
export const openUploadCompleteResultSchema = z.object({ assetId: z.number().int() });

/** GET tags: every tag dimension and its tags (to resolve tag ids). */
export const openTagListSchema = z.array(
  z.object({
    dimensionId: z.number().int(),
    dimensionName: z.string(),
    tags: z.array(
      z.object({ tagId: z.number().int(), name: z.string(), parentTagId: z.number().int().nullable() }),
    ),
  }),
);
/** GET folders?parentId=: folders the record may see, under a parent (absent: the top). */
export const openFolderQuerySchema = z.object({ parentId: queryId.optional() });
export const openFolderListSchema = z.array(
  z.object({ id: z.number().int(), name: z.string(), path: z.string(), hasChildren: z.boolean() }),
);

// ——— Changed since (the asset journal) ———

/**
 * GET assets/changes: what changed, oldest first, from `cursor` (the last page's `nextCursor`) or,
 * on the first call, from `since` (an instant; absent: the oldest change kept). A cursor older
 * than the journal keeps is SEOA_07: resynchronise through by-folder or by-art-nums.
 */
export const openChangesQuerySchema = z.object({
  since: z.iso.datetime({ offset: true }).optional(),
  cursor: cursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(OPEN_CHANGES_PAGE_MAX).default(OPEN_CHANGES_PAGE_DEFAULT),
});
export const openChangeSchema = z.object({
  assetId: z.number().int(),
  kinds: z.array(z.enum(ASSET_CHANGE_KINDS)),
  changedAt: z.string(),
  /** The asset as it is now; null once deleted for good (or no longer visible to the record). */
  asset: openAssetSummarySchema.nullable(),
});
export type OpenChange = z.infer<typeof openChangeSchema>;
export const openChangesPageSchema = z.object({
  list: z.array(openChangeSchema),
  /** Where the next call starts; always set (keep it even when the page was empty). */
  nextCursor: z.string(),
  /** More changes are waiting now. */
  hasMore: z.boolean(),
});
export type OpenChangesPage = z.infer<typeof openChangesPageSchema>;

// ——— Webhooks (management, code 7, within the record's reach) ———

export const webhookSchema = z.object({
  id: z.number().int(),
  accessId: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** 1 on, 0 off (switched off by hand, or after WEBHOOK_FAILURES_TO_DISABLE failures in a row). */
  status: z.union([z.literal(0), z.literal(1)]),
  /** Why it was switched off by the server, or null. */
  disabledReason: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  secretHint: z.string(),
  lastDeliveryAt: z.string().nullable(),
  lastDeliveryState: z.enum(WEBHOOK_DELIVERY_STATES).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;
export const webhookListQuerySchema = z.object({ accessId: queryId });
/**
 * POST saveWebhook: without `id` registers one (its signing secret `whsec_…` answered once); with
 * `id` edits it. The URL must be http(s) without credentials, and may not point at loopback,
 * private or link-local addresses unless WEBHOOK_ALLOWED_NETWORKS allows them (SEOA_06).
 */
export const saveWebhookRequestSchema = z.object({
  id: id.optional(),
  accessId: id,
  url: z.string().trim().min(1, { error: 'required' }).max(WEBHOOK_URL_MAX_CHARS, { error: 'tooLong' }),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, { error: 'required' })
    .transform((events) => [...new Set(events)]),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
});
export type SaveWebhookRequest = z.input<typeof saveWebhookRequestSchema>;
export const savedWebhookSchema = z.object({ id: z.number().int(), secret: z.string().nullable() });
export const webhookIdSchema = z.object({ id });
/** POST testWebhook: a `ping` delivery, queued now. */
export const webhookTestResultSchema = z.object({ deliveryId: z.number().int() });

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  eventType: z.string(),
  assetId: z.number().int().nullable(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int(),
  /** The receiver's HTTP status of the last attempt, or null (no answer). */
  lastStatus: z.number().int().nullable(),
  /** Why the last attempt failed (time-out, refused address, the answer's first bytes…). */
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveriesQuerySchema = z.object({
  webhookId: queryId,
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const webhookDeliveryPageSchema = z.object({
  list: z.array(webhookDeliverySchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;
/** POST redeliverWebhook: a failed (or delivered) delivery sent again, as a new attempt series. */
export const webhookDeliveryIdSchema = z.object({ deliveryId: id });

/** What a receiver gets (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature headers). */
export const webhookPayloadSchema = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.object({
    assetId: z.number().int().nullable(),
    name: z.string().nullable(),
    artNum: z.string().nullable(),
    formats: z.array(z.string()),
    folderId: z.number().int().nullable(),
    folderPath: z.string().nullable(),
    kinds: z.array(z.string()),
    /** Where the changes call would start after this change. */
    changeCursor: z.string().nullable(),
  }),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
