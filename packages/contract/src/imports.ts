import { z } from 'zod';
import { fillTemplate } from './errors';
import type { Language } from './languages';

/**
 * Import management (SPEC §2 /manage/import, §6 code 8; issue 14). An administrator uploads a
 * workbook; the server reads it at once (file-level problems are refused there), keeps its rows,
 * and a job checks every row (the dry run: what would change, and every problem by row and
 * column). Only a checked import without problems can be applied, all rows in one transaction.
 * Decisions: docs/decisions.md, "Import management (issue 14)". Times are ISO 8601 strings in UTC.
 */

/**
 * What an import brings in: `sku` the SKU master (article number, name, series…), `tagAssignments`
 * the tags of article numbers (what `manage/sku-tag` sets by hand): an article-number column and
 * one column per tag dimension.
 */
export const IMPORT_KINDS = ['sku', 'tagAssignments'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/**
 * `checking` (the dry-run job is reading the rows) → `checked` (no problems: ready to apply) or
 * `rejected` (problems found: nothing can be applied); `checked` → `applying` (the apply job) →
 * `applied`, or `rejected` when the data changed meanwhile and a row no longer passes; `checked` →
 * `discarded`. `failed`: the job itself failed (nothing applied).
 */
export const IMPORT_STATUSES = [
  'checking',
  'checked',
  'rejected',
  'applying',
  'applied',
  'discarded',
  'failed',
] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** States in which the job is still at work (the page polls). */
export const IMPORT_BUSY_STATUSES: readonly ImportStatus[] = ['checking', 'applying'];

/** Largest workbook of an import (bytes) and most data rows. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 100_000;
/** Changes listed in an import's preview at most (the counts cover all rows). */
export const IMPORT_PREVIEW_MAX = 200;
/** Problems kept per import (the error report lists them; the count covers all). */
export const IMPORT_PROBLEMS_MAX = 5_000;
/** Rows checked between two progress updates. */
export const IMPORT_PROGRESS_STEP = 500;

/** What is wrong in one cell: a key of IMPORT_PROBLEM_MESSAGES. */
export const IMPORT_PROBLEM_KEYS = [
  'required',
  'tooLong',
  'duplicateArtNum',
  'unknownArtNum',
  'unknownDimension',
  'unknownTag',
  'tagRule',
] as const;
export type ImportProblemKey = (typeof IMPORT_PROBLEM_KEYS)[number];

/**
 * Problem texts by language (`{value}`, `{other}`, `{max}`, `{detail}` filled in). Japanese,
 * Korean and German read the English ones (the web app offers Chinese and English).
 */
export const IMPORT_PROBLEM_MESSAGES: Record<'zh' | 'en', Record<ImportProblemKey, string>> = {
  zh: {
    required: '不能为空',
    tooLong: '不能超过 {max} 个字符',
    duplicateArtNum: '货号 {value} 已在第 {other} 行出现',
    unknownArtNum: '货号 {value} 不在 SKU 数据中，请先导入 SKU 数据',
    unknownDimension: '“{value}”不是标签维度',
    unknownTag: '该维度下没有标签“{value}”',
    tagRule: '{detail}',
  },
  en: {
    required: 'must not be empty',
    tooLong: 'must be at most {max} characters',
    duplicateArtNum: 'article number {value} already appears in row {other}',
    unknownArtNum: 'article number {value} is not in the SKU data; import the SKU data first',
    unknownDimension: '"{value}" is not a tag dimension',
    unknownTag: 'this dimension has no tag "{value}"',
    tagRule: '{detail}',
  },
};

/** The text of a problem in a language. */
export function importProblemMessage(
  key: ImportProblemKey,
  values: Record<string, string | number>,
  lang: Language,
): string {
  return fillTemplate(IMPORT_PROBLEM_MESSAGES[lang === 'zh' ? 'zh' : 'en'][key], values);
}

/** One problem of the dry run: the row as Excel numbers it, the column (letter and header), why. */
export const importProblemSchema = z.object({
  row: z.number().int(),
  column: z.string(),
  /** In the request's language. */
  message: z.string(),
});
export type ImportProblem = z.infer<typeof importProblemSchema>;

/** One row that would change (or did): created or updated, with each changed column. */
export const importChangeSchema = z.object({
  row: z.number().int(),
  artNum: z.string(),
  action: z.enum(['create', 'update']),
  fields: z.array(z.object({ column: z.string(), before: z.string(), after: z.string() })),
});
export type ImportChange = z.infer<typeof importChangeSchema>;

/** An import as the history lists it. */
export const importSummarySchema = z.object({
  id: z.number().int(),
  kind: z.enum(IMPORT_KINDS),
  status: z.enum(IMPORT_STATUSES),
  fileName: z.string(),
  /** Who uploaded it (null: account deleted). */
  userName: z.string().nullable(),
  createdAt: z.string(),
  /** Who applied it and when (null until applied). */
  appliedByName: z.string().nullable(),
  appliedAt: z.string().nullable(),
  /** Data rows of the file. */
  total: z.number().int(),
  /** Rows the job has gone through in its current pass (progress: processed / total). */
  processed: z.number().int(),
  /** Rows that would be (or were) created, updated, left as they are. */
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** Problems found (all of them, even beyond IMPORT_PROBLEMS_MAX). */
  problemCount: z.number().int(),
});
export type ImportSummary = z.infer<typeof importSummarySchema>;

/** One import with its preview: the first IMPORT_PREVIEW_MAX changes and IMPORT_PREVIEW_MAX problems. */
export const importDetailSchema = importSummarySchema.extend({
  changes: z.array(importChangeSchema),
  problems: z.array(importProblemSchema),
});
export type ImportDetail = z.infer<typeof importDetailSchema>;

/** `POST /v1_0/manage/import/create?kind=` (multipart, field `file`, an .xlsx). */
export const createImportQuerySchema = z.object({ kind: z.enum(IMPORT_KINDS) });
export const importIdQuerySchema = z.object({ id: z.coerce.number().int().positive() });
export const importIdSchema = z.object({ id: z.number().int().positive() });
/** `GET /v1_0/manage/import/template?kind=`. */
export const importTemplateQuerySchema = createImportQuerySchema;

/** `GET /v1_0/manage/import/list`: newest first. */
export const importListQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  kind: z.enum(IMPORT_KINDS).optional(),
});
export const importPageSchema = z.object({
  list: z.array(importSummarySchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});
export type ImportPage = z.infer<typeof importPageSchema>;
