import type { SimilarItem } from '@dam/contract';

/** How close a near-duplicate is, as the viewer and the upload dialog word it (plan §6). */
export type Closeness = 'veryClose' | 'close' | 'similar';

/** ≤ 4 differing bits "very close", ≤ 8 "close", beyond that (up to the threshold) "similar". */
export function closenessOf(distance: number): Closeness {
  if (distance <= 4) return 'veryClose';
  if (distance <= 8) return 'close';
  return 'similar';
}

/** The tag colour of each closeness. */
export const CLOSENESS_COLOUR: Record<Closeness, string> = {
  veryClose: 'red',
  close: 'orange',
  similar: 'blue',
};

/** "1200 × 900", or null when the size is unknown. */
export function pixelsOf(item: Pick<SimilarItem, 'width' | 'height'>): string | null {
  return item.width !== null && item.height !== null ? `${item.width} × ${item.height}` : null;
}
