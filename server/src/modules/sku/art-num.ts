import { ART_NUMS_PER_NAME_MAX } from '@dam/contract';

/**
 * Default ART_NUM_PATTERN: two or more letters, two or more digits, optionally a dash and a
 * 1–3 digit colourway (`SHOE123-01`, `CW2288-111`, `GZ5922`, `ARHR013-1`, `AB12-3`). Matched
 * regardless of case. Two kinds of codes of that shape are refused, as file names carry them
 * often and they are no brand's article numbers (issue 39):
 * - season codes: SS/FW/AW/SP/SU/FA/HO/PF with a two-digit year or a year 19xx/20xx, with or
 *   without a dash and number after it (`SS26`, `FW2026`, `AW25`, `PRE-SS27`, `FW26-01`);
 *   `FW3273` (adidas) has no year and stays an article number;
 * - bare four-character codes, two letters and two digits without a colourway (`AB12`, sizes
 *   `US10`, `EU42`).
 * Purely numeric styles (`374915-01`) or numbers with letters after the digits (`1011B548-001`,
 * `M990GL6`) need a pattern of their own.
 */
const SEASON_CODE = '(?:SS|FW|AW|SP|SU|FA|HO|PF)(?:\\d{2}|(?:19|20)\\d{2})(?!\\d)';
const BARE_SHORT_CODE = '[A-Z]{2}\\d{2}(?!\\d|-\\d)';
export const DEFAULT_ART_NUM_PATTERN = `(?!${SEASON_CODE})(?!${BARE_SHORT_CODE})[A-Z]{2,}\\d{2,}(?:-\\d{1,3})?`;

/**
 * Compiles ART_NUM_PATTERN for extraction: case-insensitive, global, and only where the match
 * is not glued to further Latin letters or digits (so `XSHOE123` is not `SHOE123` and
 * `SHOE12345` is not `SHOE123`); CJK text, `_`, `-`, spaces and dots delimit. The article number
 * is the whole match, or the named group `artNum` when the pattern has one.
 * Throws (with the engine's message) when the source does not compile or matches nothing at all.
 */
export function compileArtNumPattern(source: string): RegExp {
  // Compiled alone first: wrapping could otherwise balance a stray parenthesis.
  const bare = new RegExp(source, 'i');
  if (bare.test('')) throw new Error('must not match an empty string');
  return new RegExp(`(?<![A-Za-z0-9])(?:${source})(?![A-Za-z0-9])`, 'gi');
}

/** Whether `source` is usable as ART_NUM_PATTERN; the reason when it is not. */
export function artNumPatternProblem(source: string): string | null {
  try {
    compileArtNumPattern(source);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** `folder/SHOE123-01_side.jpg` → `SHOE123-01_side`: the last path segment without its suffix. */
function stemOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * The article numbers in a file name, in order of appearance, each once (compared regardless
 * of case), at most ART_NUMS_PER_NAME_MAX, as written in the name.
 */
export function extractArtNums(fileName: string, pattern: RegExp): string[] {
  const stem = stemOf(fileName);
  const found: string[] = [];
  const seen = new Set<string>();
  const regex = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  for (const match of stem.matchAll(regex)) {
    const value = (match.groups?.artNum ?? match[0]).trim();
    if (!value) continue;
    const key = value.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(value);
    if (found.length >= ART_NUMS_PER_NAME_MAX) break;
  }
  return found;
}
