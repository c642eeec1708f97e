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
 * A view's code as it appears in file names: letters of any script (`front`, `正面`, `seite`) and
 * digits, a letter first and last (digits after it number several shots of one view: `_detail1`,
 * `_正面2`). Codes are kept NFC-normalised and lower-cased (normaliseViewCode): Latin and other
 * cased scripts match regardless of case, CJK exactly.
 */
export const COMPLETENESS_VIEW_CODE_PATTERN = /^\p{L}(?:[\p{L}\p{N}]*\p{L})?$/u;

/** A code as stored and compared: NFC, lower-cased (a no-op for CJK), trimmed. */
export function normaliseViewCode(value: string): string {
  return value.trim().normalize('NFC').toLowerCase();
}

/** What separates a name's parts: `_`, `-`, a space, and their full-width forms (`＿`, `－`, `　`). */
export const VIEW_CODE_SEPARATORS = ' \u3000\uFF3F\uFF0D-';
/** Digits numbering shots of one view, dropped from the end of the last part (ASCII and full-width). */
export const VIEW_CODE_TRAILING_DIGITS =
  '0123456789\uFF10\uFF11\uFF12\uFF13\uFF14\uFF15\uFF16\uFF17\uFF18\uFF19';
const SEPARATOR = new RegExp(`[${VIEW_CODE_SEPARATORS}]`, 'gu');
const TRAILING_DIGITS = new RegExp(`[${VIEW_CODE_TRAILING_DIGITS}]+$`, 'u');

/**
 * The view code a file's name carries (`SHOE101-01_detail2` → `detail`, `SHOE101-01_正面` → `正面`),
 * or null: the last part after `_`, `-` or a space (full-width too), NFC-normalised, lower-cased,
 * without trailing digits, when it has a code's shape. The one parser of view codes: completeness,
 * the templates' slot filling and the completeness screen's upload naming use it, and the server's
 * SQL reads names the same way (completeness repository, `VIEW_TOKEN_SQL`, with string functions
 * rather than a regular expression: it runs once per file of the report).
 */
export function viewCodeOfName(name: string): string | null {
  const parts = name.normalize('NFC').toLowerCase().replace(SEPARATOR, '_');
  if (!parts.includes('_')) return null;
  const token = parts.slice(parts.lastIndexOf('_') + 1).replace(TRAILING_DIGITS, '');
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
