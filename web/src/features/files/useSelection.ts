import type { Item } from '@dam/contract';
import { useCallback, useState } from 'react';

/** Which items of a listing are selected; cleared when the listing changes. */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const toggle = useCallback((item: Item) => {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(item.id)) next.delete(item.id);
      else next.add(item.id);
      return next;
    });
  }, []);
  const clear = useCallback(() => setSelected(new Set()), []);
  const selectAll = useCallback((items: Item[]) => setSelected(new Set(items.map((i) => i.id))), []);
  return { selected, toggle, clear, selectAll };
}
