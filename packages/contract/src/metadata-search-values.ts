/**
 * The metadata filter of the search (issue 42 item 2): its fields and the results URL's reading of
 * them, without zod (the request schema is in metadata-search.ts), for the web app's first pages.
 */

/** Substring fields (case-insensitive, like the title search). */
export const METADATA_TEXT_FILTERS = ['creator', 'copyright', 'camera'] as const;
export type MetadataTextFilter = (typeof METADATA_TEXT_FILTERS)[number];

/** Every field of the filter, in the order the search form and the result chips show them. */
export const METADATA_FILTER_KEYS = [
  ...METADATA_TEXT_FILTERS,
  'keyword',
  'capturedFrom',
  'capturedTo',
] as const;
export type MetadataFilterKey = (typeof METADATA_FILTER_KEYS)[number];

/** What a search asks of the files' embedded metadata; every field optional, all combined with AND. */
export type MetadataFilter = Partial<Record<MetadataFilterKey, string>>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether any field of the filter is set: a metadata filter alone is a search (like a colour). */
export function hasMetadataFilter(filter: MetadataFilter): boolean {
  return METADATA_FILTER_KEYS.some((key) => Boolean(filter[key]));
}

/**
 * The filter's fields out of anything (a URL's JSON, a form's values): trimmed strings only, dates
 * only as `YYYY-MM-DD`, empty ones left out. The server checks lengths and the order of the dates.
 */
export function pickMetadataFilter(value: unknown): MetadataFilter {
  if (typeof value !== 'object' || value === null) return {};
  const source = value as Record<string, unknown>;
  const filter: MetadataFilter = {};
  for (const key of METADATA_FILTER_KEYS) {
    const raw = source[key];
    if (typeof raw !== 'string') continue;
    const text = raw.trim();
    if (text === '') continue;
    if ((key === 'capturedFrom' || key === 'capturedTo') && !DAY.test(text)) continue;
    filter[key] = text;
  }
  return filter;
}
