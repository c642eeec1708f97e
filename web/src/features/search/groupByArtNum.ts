import type { Item } from '@dam/contract';

// Apart from GroupedResults.tsx so its test loads no component: the files feature's index brings the
// whole file browser (and i18n, which needs a document) with it.
export interface ResultGroup {
  value: string;
  items: Item[];
}

/**
 * The loaded results of a batch search by article number, one group per number in the order they
 * were pasted (numbers with nothing loaded yet left out); files whose number is none of them
 * (none today: the search matches whole numbers) come last under their own number.
 */
export function groupByArtNum(items: Item[], values: string[]): ResultGroup[] {
  const groups = new Map<string, ResultGroup>();
  for (const value of values) {
    const key = value.toLowerCase();
    if (!groups.has(key)) groups.set(key, { value, items: [] });
  }
  for (const item of items) {
    const key = (item.artNum ?? '').toLowerCase();
    const group = groups.get(key) ?? { value: item.artNum ?? '', items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return [...groups.values()].filter((group) => group.items.length > 0);
}
