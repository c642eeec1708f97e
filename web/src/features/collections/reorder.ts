import type { CollectionItemsPage } from '@dam/contract';
import type { InfiniteData } from '@tanstack/react-query';

/** The loaded pages with `itemId` put just before `beforeItemId` (or last), each page keeping its length. */
export function reordered(
  data: InfiniteData<CollectionItemsPage>,
  itemId: number,
  beforeItemId: number | null,
): InfiniteData<CollectionItemsPage> {
  const all = data.pages.flatMap((page) => page.list);
  const moving = all.find((item) => item.id === itemId);
  if (!moving) return data;
  const rest = all.filter((item) => item.id !== itemId);
  const at = beforeItemId === null ? rest.length : rest.findIndex((item) => item.id === beforeItemId);
  if (at < 0) return data;
  rest.splice(at, 0, moving);
  let start = 0;
  const pages = data.pages.map((page) => {
    const list = rest.slice(start, start + page.list.length);
    start += page.list.length;
    return { ...page, list };
  });
  return { ...data, pages };
}
