/**
 * Limits and name rules of the SKU completeness report without zod's schemas (those are in
 * completeness.ts, which re-exports these): the web's report screen needs only these.
 */

/** Views of one expectation at most (the report's columns are views × their formats). */
export const COMPLETENESS_VIEWS_MAX = 20;
export const COMPLETENESS_VIEW_NAME_MAX_CHARS = 20;
export const COMPLETENESS_VIEW_CODE_MAX_CHARS = 20;
export const COMPLETENESS_FORMATS_PER_VIEW_MAX = 5;
export const COMPLETENESS_PAGE_SIZE_MAX = 100;
/** Rows of one export at most; a longer list is cut, and the workbook says so. */
export const COMPLETENESS_EXPORT_MAX_ROWS = 50_000;
/** Seasons, categories and departments offered as filters at most. */
export const COMPLETENESS_FILTER_OPTIONS_MAX = 500;
/** Tags of one filter at most. */
export const COMPLETENESS_FILTER_TAGS_MAX = 50;
/**
 * A view's code as it appears in file names: lower-case letters and digits, a letter first and
 * last (digits after it number several shots of one view: `_detail1`, `_detail2`).
 */
export const COMPLETENESS_VIEW_CODE_PATTERN = /^[a-z](?:[a-z0-9]*[a-z])?$/;

/**
 * The view code a file's name carries (`SHOE101-01_detail2` → `detail`), or null: the last part
 * after `_`, `-` or a space, lower-cased, without trailing digits, when it has a code's shape. The
 * server's SQL reads names the same way (completeness repository, `VIEW_TOKEN_SQL`, with string
 * functions rather than a regular expression: it runs once per file of the report).
 */
export function viewCodeOfName(name: string): string | null {
  const parts = name.toLowerCase().replace(/[ -]/g, '_');
  if (!parts.includes('_')) return null;
  const token = parts.slice(parts.lastIndexOf('_') + 1).replace(/[0-9]+$/, '');
  return COMPLETENESS_VIEW_CODE_PATTERN.test(token) ? token : null;
}

/** Format names as stored on files (`jpeg` is counted as `jpg`, `tiff` as `tif`). */
export function normaliseFormat(format: string): string {
  const lower = format.trim().toLowerCase().replace(/^\./, '');
  if (lower === 'jpeg') return 'jpg';
  if (lower === 'tiff') return 'tif';
  return lower;
}

export const CompletenessStatus = { all: 'all', incomplete: 'incomplete', complete: 'complete' } as const;
export type CompletenessStatus = (typeof CompletenessStatus)[keyof typeof CompletenessStatus];
