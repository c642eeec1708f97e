import { z } from 'zod';
import { COMPLETENESS_VIEW_CODE_MAX_CHARS, COMPLETENESS_VIEW_CODE_PATTERN } from './completeness-values';
import {
  BLOCK_LABEL_MAX_CHARS,
  COMPOSE_ARTICLE_STATUSES,
  COMPOSE_ARTICLES_MAX,
  COMPOSE_DOWNLOAD_KINDS,
  COMPOSE_JOB_STATUSES,
  COMPOSE_SELECTION_MAX,
  COMPOSE_WARNING_CODES,
  GRID_CELLS_MAX,
  JPEG_QUALITY_DEFAULT,
  JPEG_QUALITY_MAX,
  JPEG_QUALITY_MIN,
  OUTPUT_STEM_DEFAULT,
  OUTPUT_STEM_MAX_CHARS,
  SLICE_HEIGHT_DEFAULT,
  SLICE_HEIGHT_MAX,
  SLICE_HEIGHT_MIN,
  TEMPLATE_BLOCKS_MAX,
  TEMPLATE_NAME_MAX_CHARS,
  TEMPLATE_WIDTH_MAX,
  TEMPLATE_WIDTH_MIN,
  TEXT_BLOCK_MAX_CHARS,
  TEXT_FIELDS,
} from './composite-values';
import { folderRefSchema } from './items';
import { parseArtNums, safeFileNamePart } from './presets';
import { ART_NUM_MAX_CHARS } from './sku';

/**
 * Detail-page composition (issue 16): templates (a width, a background and an ordered list of
 * blocks) and the jobs that fill them from an article's files and render long product-page images,
 * cut into slices. Custom messages are VALIDATION_MESSAGES keys. Geometry is `layoutPage`
 * (composite-layout.ts), shared by the server's renderer and the web's preview.
 */

export * from './composite-values';

const id = z.number().int().positive().max(2_147_483_647);
const itemId = z
  .number()
  .int()
  .positive()
  .max(2 ** 53 - 1);
const px = (min: number, max: number) => z.number().int().min(min).max(max);
export const colourSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'invalidColour' });

/** A block's id: short, made by the editor, stable across versions (swaps and results name blocks by it). */
export const blockIdSchema = z.string().regex(/^[a-z0-9]{1,12}$/, { error: 'invalidFormat' });

export const paddingSchema = z.object({
  top: px(0, 400).default(0),
  right: px(0, 400).default(0),
  bottom: px(0, 400).default(0),
  left: px(0, 400).default(0),
});
export type Padding = z.infer<typeof paddingSchema>;
const padding = paddingSchema.default({ top: 0, right: 0, bottom: 0, left: 0 });

/** How an image slot finds its file among the article's: a view (file-name code or the view's tag), a tag, or the n-th image. */
export const fillRuleSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('view'),
    code: z
      .string()
      .trim()
      .normalize('NFC')
      .toLowerCase()
      .max(COMPLETENESS_VIEW_CODE_MAX_CHARS, { error: 'tooLong' })
      .regex(COMPLETENESS_VIEW_CODE_PATTERN, { error: 'viewCode' }),
  }),
  z.object({ kind: z.literal('tag'), tagId: id }),
  z.object({ kind: z.literal('nth'), n: px(1, 50) }),
]);
export type FillRule = z.infer<typeof fillRuleSchema>;

const imageFit = {
  /**
   * contain (the default): the whole picture, on `background`, so a shoe keeps its toe and heel;
   * cover fills the box and cuts what sticks out (issue 39 item 12).
   */
  fit: z.enum(['cover', 'contain']).default('contain'),
  position: z.enum(['centre', 'top', 'bottom', 'left', 'right']).default('centre'),
  /** Behind a `contain` image; null: the page's background. */
  background: colourSchema.nullable().default(null),
};
const label = z.string().trim().max(BLOCK_LABEL_MAX_CHARS, { error: 'tooLong' }).default('');

export const imageBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('image'),
  label,
  rule: fillRuleSchema,
  /** A required slot without a file leaves the article unrendered (`missing`); an optional one is left out. */
  required: z.boolean().default(true),
  /** null: the image's own aspect ratio at the content width. */
  height: px(20, 4000).nullable().default(null),
  padding,
  ...imageFit,
});
export const gridBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('grid'),
  label,
  columns: z.union([z.literal(2), z.literal(3)]),
  cells: z.array(fillRuleSchema).min(1, { error: 'required' }).max(GRID_CELLS_MAX, { error: 'tooMany' }),
  /** null: square cells. */
  cellHeight: px(20, 2000).nullable().default(null),
  gap: px(0, 100).default(0),
  /** all: every cell needs a file; any: at least one (empty cells stay background); none: optional. */
  required: z.enum(['all', 'any', 'none']).default('all'),
  padding,
  ...imageFit,
});
export const textBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('text'),
  /** Free text with `{artNum}`, `{name}` … (TEXT_FIELDS). */
  text: z.string().min(1, { error: 'required' }).max(TEXT_BLOCK_MAX_CHARS, { error: 'tooLong' }),
  fontId: z.string().min(1, { error: 'required' }).max(40),
  /** Pixels. */
  size: px(8, 200),
  colour: colourSchema.default('#000000'),
  bold: z.boolean().default(false),
  align: z.enum(['left', 'centre', 'right']).default('left'),
  verticalAlign: z.enum(['top', 'middle', 'bottom']).default('middle'),
  /** Extra pixels between lines; null: the font's own. */
  lineSpacing: px(0, 200).nullable().default(null),
  height: px(20, 2000),
  padding,
  background: colourSchema.nullable().default(null),
});
export const spacerBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('spacer'),
  height: px(1, 2000),
  /** null: the page's background. */
  colour: colourSchema.nullable().default(null),
});
export const fixedBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('fixed'),
  label,
  /** A template asset (uploaded banner). */
  assetId: id,
  /** null: the asset's aspect ratio at the content width. */
  height: px(20, 4000).nullable().default(null),
  padding,
  ...imageFit,
});
export const blockSchema = z.discriminatedUnion('type', [
  imageBlockSchema,
  gridBlockSchema,
  textBlockSchema,
  spacerBlockSchema,
  fixedBlockSchema,
]);
export type Block = z.infer<typeof blockSchema>;
export type ImageBlock = z.infer<typeof imageBlockSchema>;
export type GridBlock = z.infer<typeof gridBlockSchema>;
export type TextBlock = z.infer<typeof textBlockSchema>;
export type SpacerBlock = z.infer<typeof spacerBlockSchema>;
export type FixedBlock = z.infer<typeof fixedBlockSchema>;

const PLACEHOLDER = /\{([^{}]*)\}/g;
/** The `{…}` of a text that name no field (shown as the error). */
export function unknownTextPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)]
    .map((match) => match[1] as string)
    .filter((name) => !(TEXT_FIELDS as readonly string[]).includes(name))
    .map((name) => `{${name}}`);
}

export const templateOutputSchema = z.object({
  sliceMaxHeight: px(SLICE_HEIGHT_MIN, SLICE_HEIGHT_MAX).default(SLICE_HEIGHT_DEFAULT),
  quality: px(JPEG_QUALITY_MIN, JPEG_QUALITY_MAX).default(JPEG_QUALITY_DEFAULT),
  /** The middle of the output names: `<artNum>_<stem>_00.jpg` (whole page), `_01…` (slices). */
  stem: z
    .string()
    .trim()
    .min(1, { error: 'required' })
    .max(OUTPUT_STEM_MAX_CHARS, { error: 'tooLong' })
    .superRefine((stem, ctx) => {
      const char = [...stem].find((c) => safeFileNamePart(c) !== c);
      if (char) ctx.addIssue({ code: 'custom', message: 'illegalCharacter', params: { char } });
    })
    .default(OUTPUT_STEM_DEFAULT),
  /** Save the whole page as a file. */
  page: z.boolean().default(true),
  /** Save the slices as files. */
  slices: z.boolean().default(true),
  /** Tags the outputs get by default (the compose screen may change them). */
  tagIds: z.array(id).max(20, { error: 'tooMany' }).default([]),
});
export type TemplateOutput = z.infer<typeof templateOutputSchema>;

/** A template's content: one version of it. */
export const templateSpecSchema = z
  .object({
    width: px(TEMPLATE_WIDTH_MIN, TEMPLATE_WIDTH_MAX),
    background: colourSchema.default('#ffffff'),
    blocks: z.array(blockSchema).min(1, { error: 'required' }).max(TEMPLATE_BLOCKS_MAX, { error: 'tooMany' }),
    output: templateOutputSchema.default({
      sliceMaxHeight: SLICE_HEIGHT_DEFAULT,
      quality: JPEG_QUALITY_DEFAULT,
      stem: OUTPUT_STEM_DEFAULT,
      page: true,
      slices: true,
      tagIds: [],
    }),
  })
  .superRefine((spec, ctx) => {
    const seen = new Set<string>();
    spec.blocks.forEach((block, index) => {
      if (seen.has(block.id))
        ctx.addIssue({ code: 'custom', path: ['blocks', index, 'id'], message: 'duplicateValue' });
      seen.add(block.id);
      if (block.type === 'text') {
        const unknown = unknownTextPlaceholders(block.text)[0];
        if (unknown)
          ctx.addIssue({
            code: 'custom',
            path: ['blocks', index, 'text'],
            message: 'unknownPlaceholder',
            params: { placeholder: unknown, known: TEXT_FIELDS.map((field) => `{${field}}`).join(' ') },
          });
      }
      if ('padding' in block) {
        const { left, right } = block.padding;
        if (left + right >= spec.width)
          ctx.addIssue({ code: 'custom', path: ['blocks', index, 'padding'], message: 'tooBig' });
      }
    });
    if (!spec.output.page && !spec.output.slices)
      ctx.addIssue({ code: 'custom', path: ['output', 'slices'], message: 'required' });
  });
export type TemplateSpec = z.output<typeof templateSpecSchema>;
export type TemplateSpecInput = z.input<typeof templateSpecSchema>;

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
