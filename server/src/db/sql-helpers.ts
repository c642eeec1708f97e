/** Small helpers for SQL written by any repository or service: errors and literals of PostgreSQL. */

/** Is the unique-violation error of PostgreSQL (and PGlite)? */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/** `abc%_` → `abc\%\_`: a user's text as a literal inside a LIKE pattern. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The LIKE pattern of values starting with `text` (taken literally). */
export const likePrefix = (text: string) => `${likeLiteral(text)}%`;
