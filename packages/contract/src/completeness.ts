import { z } from 'zod';
import {
  COMPLETENESS_FILTER_OPTIONS_MAX,
  COMPLETENESS_FILTER_TAGS_MAX,
  COMPLETENESS_FORMATS_PER_VIEW_MAX,
  COMPLETENESS_PAGE_SIZE_MAX,
  COMPLETENESS_VIEW_CODE_MAX_CHARS,
  COMPLETENESS_VIEW_CODE_PATTERN,
  COMPLETENESS_VIEW_NAME_MAX_CHARS,
  COMPLETENESS_VIEWS_MAX,
  normaliseFormat,
  normaliseViewCode,
} from './completeness-values';
import { ART_NUM_MAX_CHARS, SKU_FIELD_MAX_CHARS } from './sku';

/**
 * The SKU completeness report (issue 14): per article number, which of the expected views ×
 * formats exist among the files the caller may see. The expectation (views, each with the formats
 * it needs) is configured by holders of function code 6 and stored in the database; see
 * docs/decisions.md, "SKU completeness report (issue 14)". Custom messages are VALIDATION_MESSAGES
 * keys.
 *
 * A file is a view when its name (without the extension) ends with `_<code>`, `-<code>` or
 * ` <code>`, optionally followed by digits (viewCodeOfName) (`SHOE101-01_side.jpg`,
 * `SHOE101-01_detail2.jpg`, `SHOE101-01_正面.jpg`); codes are letters of any script, or
 * when it carries the view's tag. A view with neither code nor tag is "any file of the article"
 * (the PSD master).
 */

export * from './completeness-values';

const id = z.number().int().positive().max(2_147_483_647);

const formatSchema = z
  .string()
  .trim()
  .min(1, { error: 'required' })
  .max(10, { error: 'tooLong' })
  .regex(/^\.?[A-Za-z0-9]+$/, { error: 'invalidFormat' })
  .transform(normaliseFormat);

/** One expected view as an administrator sets it. */
export const completenessViewInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: 'blankName' })
    .max(COMPLETENESS_VIEW_NAME_MAX_CHARS, { error: 'tooLong' }),
  /** The file-name suffix; null or empty: the view is found by its tag only, or is any file. */
  code: z
    .string()
    .trim()
    .max(COMPLETENESS_VIEW_CODE_MAX_CHARS, { error: 'tooLong' })
    .transform(normaliseViewCode)
    .refine((value) => value === '' || COMPLETENESS_VIEW_CODE_PATTERN.test(value), { error: 'viewCode' })
    .nullish()
    .transform((value) => (value ? value : null)),
  /** A tag that also marks a file as this view (a tag of a "view" dimension, say). */
  tagId: id.nullish().transform((value) => value ?? null),
  formats: z
    .array(formatSchema)
    .min(1, { error: 'required' })
    .max(COMPLETENESS_FORMATS_PER_VIEW_MAX)
    .transform((formats) => [...new Set(formats)]),
});
export type CompletenessViewInput = z.input<typeof completenessViewInputSchema>;

/** POST manage/completeness/config: the whole expectation, replacing the previous one. */
export const completenessConfigInputSchema = z
  .object({
    views: z.array(completenessViewInputSchema).min(1, { error: 'required' }).max(COMPLETENESS_VIEWS_MAX),
    /** Where the report's upload goes for an article none of whose files the caller can see. */
    defaultFolderId: id.nullish().transform((value) => value ?? null),
  })
  .superRefine((body, ctx) => {
    const names = new Map<string, number>();
    const matchers = new Map<string, number>();
    body.views.forEach((view, index) => {
      const name = view.name.toLowerCase();
      if (names.has(name))
        ctx.addIssue({
          code: 'custom',
          path: ['views', index, 'name'],
          message: 'duplicateValue',
          params: { value: view.name },
        });
      names.set(name, index);
      if (view.code !== null && matchers.has(`code:${view.code}`))
        ctx.addIssue({
          code: 'custom',
          path: ['views', index, 'code'],
          message: 'duplicateValue',
          params: { value: view.code },
        });
      if (view.code !== null) matchers.set(`code:${view.code}`, index);
      if (view.code === null && view.tagId === null) {
        if (matchers.has('any'))
          ctx.addIssue({
            code: 'custom',
            path: ['views', index, 'code'],
            message: 'duplicateValue',
            params: { value: view.name },
          });
        matchers.set('any', index);
      }
    });
  });
export type CompletenessConfigInput = z.input<typeof completenessConfigInputSchema>;

export const completenessViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string().nullable(),
  tagId: z.number().int().nullable(),
  /** The tag's name, null when it has none (or the tag was deleted). */
  tagName: z.string().nullable(),
  formats: z.array(z.string()),
});
export type CompletenessView = z.infer<typeof completenessViewSchema>;

export const completenessConfigSchema = z.object({
  views: z.array(completenessViewSchema),
  defaultFolder: z.object({ id: z.number().int(), path: z.string() }).nullable(),
});
export type CompletenessConfig = z.infer<typeof completenessConfigSchema>;

/** Which articles the report covers, and whose files count. */
export const completenessFilterSchema = z.object({
  /** Exact seasons (as in the SKU data); none: every season. */
  seasons: z
    .array(z.string().trim().min(1).max(SKU_FIELD_MAX_CHARS))
    .max(COMPLETENESS_FILTER_OPTIONS_MAX)
    .optional(),
  categories: z
    .array(z.string().trim().min(1).max(SKU_FIELD_MAX_CHARS))
    .max(COMPLETENESS_FILTER_OPTIONS_MAX)
    .optional(),
  /** SKU tags: an article needs one of the chosen tags of each dimension chosen from. */
  tagIdList: z.array(id).max(COMPLETENESS_FILTER_TAGS_MAX).optional(),
  /** Only files owned within this department and the ones below it count. */
  deptId: id.optional(),
  /** The article number starts with this (case-insensitive). */
  artNum: z.string().trim().max(ART_NUM_MAX_CHARS, { error: 'tooLong' }).optional(),
  status: z.enum(['all', 'incomplete', 'complete']).default('all'),
});
export type CompletenessFilter = z.input<typeof completenessFilterSchema>;

export const completenessReportRequestSchema = completenessFilterSchema.safeExtend({
  pageNo: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(COMPLETENESS_PAGE_SIZE_MAX).default(20),
});
export type CompletenessReportRequest = z.input<typeof completenessReportRequestSchema>;

/** A column of the report: one format of one view. */
export const completenessColumnSchema = z.object({
  viewId: z.number().int(),
  viewName: z.string(),
  code: z.string().nullable(),
  format: z.string(),
});
export type CompletenessColumn = z.infer<typeof completenessColumnSchema>;

/** Where the report's upload of a missing view goes: a folder id, or 'all' for the top level. */
export const completenessTargetSchema = z.object({
  id: z.union([z.number().int(), z.literal('all')]),
  path: z.string(),
});
export type CompletenessTarget = z.infer<typeof completenessTargetSchema>;

export const completenessRowSchema = z.object({
  skuId: z.number().int(),
  artNum: z.string(),
  name: z.string(),
  season: z.string().nullable(),
  category: z.string().nullable(),
  /** One per column, in the columns' order: whether a file the caller may see is that view/format. */
  cells: z.array(z.boolean()),
  present: z.number().int(),
  expected: z.number().int(),
  /** The folder of the article's newest file the caller may see, else the configured default. */
  target: completenessTargetSchema.nullable(),
});
export type CompletenessRow = z.infer<typeof completenessRowSchema>;

/** Counts of one season (null: articles without one) over the whole filtered list. */
export const completenessSeasonSchema = z.object({
  season: z.string().nullable(),
  skuCount: z.number().int(),
  completeCount: z.number().int(),
  cellsPresent: z.number().int(),
  cellsExpected: z.number().int(),
});
export type CompletenessSeason = z.infer<typeof completenessSeasonSchema>;

export const completenessReportSchema = z.object({
  columns: z.array(completenessColumnSchema),
  list: z.array(completenessRowSchema),
  /** Articles matching the filter and the status, across every page. */
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  /** Per season, over the filter (the status filter aside). */
  seasons: z.array(completenessSeasonSchema),
});
export type CompletenessReport = z.infer<typeof completenessReportSchema>;

/** The filters' choices: seasons and categories of the SKU data, departments. */
export const completenessFilterOptionsSchema = z.object({
  seasons: z.array(z.string()),
  /** The season of the article added last: what the screen opens with (the whole catalogue is slow). */
  latestSeason: z.string().nullable(),
  categories: z.array(z.string()),
  departments: z.array(
    z.object({ id: z.number().int(), name: z.string(), parentId: z.number().int().nullable() }),
  ),
});
export type CompletenessFilterOptions = z.infer<typeof completenessFilterOptionsSchema>;
