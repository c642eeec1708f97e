import { parseSearchContent, type SearchContent } from '@dam/contract';

/** SPEC §2: searching opens `/` with the JSON search object and `global=true`. */
export function searchUrl(content: SearchContent): string {
  const params = new URLSearchParams({ search: JSON.stringify(content), global: 'true' });
  return `/?${params.toString()}`;
}

/** The search of a results URL, or null when the URL is not one. */
export function readSearch(params: URLSearchParams): SearchContent | null {
  if (params.get('global') !== 'true') return null;
  return parseSearchContent(params.get('search'));
}

/** "A, B, C +12": the first 3 batch values and a count (SPEC §2). */
export function batchSummary(values: string[]): { shown: string[]; more: number } {
  return { shown: values.slice(0, 3), more: Math.max(0, values.length - 3) };
}
