import type { CollectionItemsPage, Item } from '@dam/contract';
import type { InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { reordered } from './reorder';

const page = (ids: number[], pageNo: number): CollectionItemsPage =>
  ({ list: ids.map((id) => ({ id }) as Item), pageNo, pageSize: 3, hasMore: false, hiddenCount: 0 }) as never;
const data = (...pages: number[][]): InfiniteData<CollectionItemsPage> => ({
  pages: pages.map((ids, i) => page(ids, i + 1)),
  pageParams: pages.map((_, i) => i + 1),
});
const idsOf = (result: InfiniteData<CollectionItemsPage>) => result.pages.map((p) => p.list.map((i) => i.id));

describe('a dragged card shown in its new place at once', () => {
  it('moves an item before another, across pages, each page keeping its length', () => {
    expect(idsOf(reordered(data([1, 2, 3], [4, 5]), 5, 2))).toEqual([
      [1, 5, 2],
      [3, 4],
    ]);
    expect(idsOf(reordered(data([1, 2, 3], [4, 5]), 1, 4))).toEqual([
      [2, 3, 1],
      [4, 5],
    ]);
  });

  it('moves an item last, and leaves the pages alone for an id it does not hold', () => {
    expect(idsOf(reordered(data([1, 2, 3]), 1, null))).toEqual([[2, 3, 1]]);
    const before = data([1, 2, 3]);
    expect(reordered(before, 9, 1)).toBe(before);
    expect(reordered(before, 1, 9)).toBe(before);
  });
});
