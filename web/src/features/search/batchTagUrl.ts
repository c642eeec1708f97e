import type { SearchContent } from '@dam/contract';

/** `/batch-tag?search=<JSON>`: the search whose files are tagged (the results page links here). */
export function batchTagUrl(content: SearchContent): string {
  return `/batch-tag?${new URLSearchParams({ search: JSON.stringify(content) }).toString()}`;
}
