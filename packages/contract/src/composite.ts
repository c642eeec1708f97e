import { z } from 'zod';
import { fillRuleSchema, templateSpecSchema } from './composite-spec';
import {
  COMPOSE_ARTICLE_STATUSES,
  COMPOSE_ARTICLES_MAX,
  COMPOSE_DOWNLOAD_KINDS,
  COMPOSE_JOB_STATUSES,
  COMPOSE_SELECTION_MAX,
  COMPOSE_WARNING_CODES,
  GRID_CELLS_MAX,
  TEMPLATE_BLOCKS_MAX,
  TEMPLATE_NAME_MAX_CHARS,
} from './composite-values';
import { folderRefSchema } from './items';
import { parseArtNums } from './presets';
import { ART_NUM_MAX_CHARS } from './sku';

/**
 * Detail-page composition (issue 16): templates (a width, a background and an ordered list of
 * blocks) and the jobs that fill them from an article's files and render long product-page images,
 * cut into slices. Custom messages are VALIDATION_MESSAGES keys. Geometry is `layoutPage`
 * (composite-layout.ts), shared by the server's renderer and the web's preview.
 */

export * from './composite-spec';
export * from './composite-values';

const id = z.number().int().positive().max(2_147_483_647);
const itemId = z
  .number()
  .int()
  .positive()
  .max(2 ** 53 - 1);

// ---- Templates -------------------------------------------------------------------------------

const templateName = z
  .string()
  .trim()
  .min(1, { error: 'blankName' })
  .max(TEMPLATE_NAME_MAX_CHARS, { error: 'tooLong' });

export const templateListQuerySchema = z.object({
  /** 1: the management list (function code 9), archived templates too. */
  manage: z.coerce.number().int().min(0).max(1).default(0),
});
export const templateSummarySchema = z.object({
  id,
  name: z.string(),
  status: z.union([z.literal(0), z.literal(1)]),
  currentVersion: z.number().int(),
  width: z.number().int(),
  blockTypes: z.array(z.string()),
  sliceMaxHeight: z.number().int(),
  updatedAt: z.string(),
  updatedByName: z.string().nullable(),
  /** Fonts the template names that this server does not have (it cannot be rendered until they are). */
  missingFonts: z.array(z.string()),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

export const templateDetailQuerySchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  /** Absent: the current version. */
  version: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export const templateAssetSchema = z.object({
  id,
  width: z.number().int(),
  height: z.number().int(),
  /** A signed media URL of the asset (PNG). */
  url: z.string(),
});
export type TemplateAsset = z.infer<typeof templateAssetSchema>;
export const templateDetailSchema = z.object({
  template: templateSummarySchema,
  version: z.number().int(),
  spec: templateSpecSchema,
  versions: z.array(
    z.object({ version: z.number().int(), createdAt: z.string(), createdByName: z.string().nullable() }),
  ),
  /** The assets the spec's fixed blocks name. */
  assets: z.array(templateAssetSchema),
});
export type TemplateDetail = z.infer<typeof templateDetailSchema>;

export const saveTemplateRequestSchema = z.object({
  /** Absent: a new template. */
  id: id.optional(),
  /** The version the editor started from; another one current now is SECP_06. Required with `id`. */
  baseVersion: z.number().int().positive().optional(),
  name: templateName,
  status: z.union([z.literal(0), z.literal(1)]).default(1),
  spec: templateSpecSchema,
});
export const saveTemplateResultSchema = z.object({ id, version: z.number().int() });
export const templateIdRequestSchema = z.object({ id });

export const templateFontSchema = z.object({
  id: z.string(),
  family: z.string(),
  /** Holds CJK ideographs (Chinese renders as boxes without one). */
  cjk: z.boolean(),
  bold: z.boolean(),
  available: z.boolean(),
});
export type TemplateFont = z.infer<typeof templateFontSchema>;

export const templateAssetFromFileRequestSchema = z.object({ folderDataId: itemId });

/** One slot's file chosen by hand (`slot` is a block id, or `blockId:cell` in a grid). */
export const slotOverrideSchema = z.object({
  artNum: z.string().trim().min(1).max(ART_NUM_MAX_CHARS),
  slot: z.string().regex(/^[a-z0-9]{1,12}(?::\d{1,2})?$/, { error: 'invalidFormat' }),
  itemId,
});
export type SlotOverride = z.infer<typeof slotOverrideSchema>;

export const previewTemplateRequestSchema = z
  .object({
    /** An unsaved draft (function code 9) … */
    spec: templateSpecSchema.optional(),
    /** … or a saved version. */
    templateId: id.optional(),
    version: z.number().int().positive().optional(),
    /** Filled from this article's files; absent: grey boxes with the slots' labels. */
    artNum: z.string().trim().min(1).max(ART_NUM_MAX_CHARS).optional(),
    overrides: z
      .array(slotOverrideSchema)
      .max(GRID_CELLS_MAX * TEMPLATE_BLOCKS_MAX)
      .default([]),
  })
  .refine((request) => request.spec !== undefined || request.templateId !== undefined, {
    path: ['templateId'],
    error: 'required',
  });

// ---- Composing -------------------------------------------------------------------------------

const artNumList = z
  .union([z.string(), z.array(z.string().max(ART_NUM_MAX_CHARS))])
  .transform((value) => parseArtNums(value))
  .pipe(
    z
      .array(z.string().max(ART_NUM_MAX_CHARS, { error: 'tooLong' }))
      .max(COMPOSE_ARTICLES_MAX, { error: 'tooMany' }),
  );

export const makerPlanRequestSchema = z
  .object({
    templateId: id,
    version: z.number().int().positive().optional(),
    artNums: artNumList.optional(),
    /** The article numbers of these files and of the files in these folders (that the caller can see). */
    folderDataIdList: z.array(itemId).max(COMPOSE_SELECTION_MAX, { error: 'tooMany' }).optional(),
  })
  .refine((request) => (request.artNums?.length ?? 0) > 0 || (request.folderDataIdList?.length ?? 0) > 0, {
    path: ['artNums'],
    error: 'required',
  });

/** A slot of a template as an article fills it. */
export const missingSlotSchema = z.object({
  slot: z.string(),
  label: z.string(),
  rule: fillRuleSchema,
  /** The completeness view's name for a view rule (侧面), else the code or tag name. */
  viewName: z.string(),
});
export type MissingSlot = z.infer<typeof missingSlotSchema>;

export const makerPlanSchema = z.object({
  templateId: id,
  version: z.number().int(),
  articles: z.array(
    z.object({
      artNum: z.string(),
      skuName: z.string().nullable(),
      complete: z.boolean(),
      missing: z.array(missingSlotSchema),
      chosen: z.array(z.object({ slot: z.string(), itemId })),
    }),
  ),
  /** Asked-for article numbers with no file the caller may use. */
  unmatched: z.array(z.string()),
});
export type MakerPlan = z.infer<typeof makerPlanSchema>;

export const makerArticleRequestSchema = z.object({
  templateId: id,
  version: z.number().int().positive(),
  artNum: z.string().trim().min(1).max(ART_NUM_MAX_CHARS),
});
export const slotCandidateSchema = z.object({
  itemId,
  name: z.string(),
  viewCode: z.string().nullable(),
  tagIds: z.array(z.number().int()),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  thumbUrl: z.string().nullable(),
  previewUrl: z.string().nullable(),
});
export type SlotCandidate = z.infer<typeof slotCandidateSchema>;
export const makerArticleSchema = z.object({
  artNum: z.string(),
  /** The SKU row's fields (TEXT_FIELDS) as a text block fills them; null: no SKU row. */
  fields: z.record(z.string(), z.string()).nullable(),
  slots: z.array(
    z.object({
      slot: z.string(),
      label: z.string(),
      rule: fillRuleSchema,
      required: z.boolean(),
      chosen: itemId.nullable(),
    }),
  ),
  candidates: z.array(slotCandidateSchema),
});
export type MakerArticle = z.infer<typeof makerArticleSchema>;

export const makerImageRequestSchema = z.object({
  templateId: id,
  version: z.number().int().positive(),
  artNums: artNumList.pipe(z.array(z.string()).min(1, { error: 'required' })),
  overrides: z.array(slotOverrideSchema).max(5000, { error: 'tooMany' }).default([]),
  /** Where the outputs go (the caller must be allowed to upload there). */
  targetFolderId: folderRefSchema,
  tagIdList: z.array(id).max(20, { error: 'tooMany' }).default([]),
  /** Each article's outputs in a folder named by its article number (made when missing). */
  subfolderPerArticle: z.boolean().default(false),
});
export const makerJobIdSchema = z.object({ jobId: id });
export const makerJobQuerySchema = z.object({ jobId: z.coerce.number().int().positive().max(2_147_483_647) });

export const composeWarningSchema = z.object({
  code: z.enum(COMPOSE_WARNING_CODES),
  slot: z.string().optional(),
  /** The empty field (emptyField), or the file's name (upscaled). */
  detail: z.string().optional(),
});
export type ComposeWarning = z.infer<typeof composeWarningSchema>;

export const composeOutputSchema = z.object({
  kind: z.enum(['page', 'slice']),
  /** 0: the whole page; slices from 1. */
  index: z.number().int(),
  /** null once the file is deleted. */
  itemId: itemId.nullable(),
  name: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  thumbUrl: z.string().nullable(),
});
export type ComposeOutput = z.infer<typeof composeOutputSchema>;

export const composeArticleResultSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  artNum: z.string(),
  status: z.enum(COMPOSE_ARTICLE_STATUSES),
  missing: z.array(missingSlotSchema),
  warnings: z.array(composeWarningSchema),
  error: z.string().nullable(),
  pageHeight: z.number().int().nullable(),
  sliceCount: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  outputs: z.array(composeOutputSchema),
});
export type ComposeArticleResult = z.infer<typeof composeArticleResultSchema>;

export const composeJobSummarySchema = z.object({
  id,
  templateId: id,
  templateName: z.string(),
  version: z.number().int(),
  status: z.enum(COMPOSE_JOB_STATUSES),
  articleCount: z.number().int(),
  /** Articles per status. */
  counts: z.record(z.enum(COMPOSE_ARTICLE_STATUSES), z.number().int()),
  /** Finished articles / all, 0–100. */
  percent: z.number().int(),
  targetFolderId: itemId.nullable(),
  targetFolderName: z.string().nullable(),
  retryOf: z.number().int().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ComposeJobSummary = z.infer<typeof composeJobSummarySchema>;

export const makerStatusSchema = z.object({
  job: composeJobSummarySchema,
  articles: z.array(composeArticleResultSchema),
});
export type MakerStatus = z.infer<typeof makerStatusSchema>;

export const userSendRequestSchema = z.object({
  pageNo: z.number().int().positive().default(1),
  pageSize: z.number().int().positive().max(50).default(20),
  status: z.enum(COMPOSE_JOB_STATUSES).optional(),
});
export const userSendSchema = z.object({
  list: z.array(composeJobSummarySchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});

export const refreshUserSendRequestSchema = z.object({
  jobId: id,
  /** Absent: every article that is missing, failed or cancelled. */
  artNums: z
    .array(z.string().max(ART_NUM_MAX_CHARS))
    .max(COMPOSE_ARTICLES_MAX, { error: 'tooMany' })
    .optional(),
});

export const makerDownloadRequestSchema = z.object({
  jobId: id,
  /** Absent: every article of the job. */
  articleIds: z.array(z.number().int().positive()).max(COMPOSE_ARTICLES_MAX, { error: 'tooMany' }).optional(),
  include: z.enum(COMPOSE_DOWNLOAD_KINDS).default('all'),
});
export const makerDownloadSchema = z.object({ url: z.string() });
