import { describe, expect, it } from 'vitest';
import { dropTarget } from './dropTarget';

describe('where a dragged card goes', () => {
  const ids = [1, 2, 3, 4];
  it('goes before the card it was dropped on when moved back', () => {
    expect(dropTarget(ids, 4, 1, false)).toBe(1);
    expect(dropTarget(ids, 3, 2, false)).toBe(2);
  });

  it('goes after the card it was dropped on when moved forward, last when that was the last', () => {
    expect(dropTarget(ids, 1, 2, false)).toBe(3);
    expect(dropTarget(ids, 1, 4, false)).toBeNull();
  });

  it('does nothing on itself, for unknown ids, or at the end of a partly loaded collection', () => {
    expect(dropTarget(ids, 2, 2, false)).toBeUndefined();
    expect(dropTarget(ids, 9, 2, false)).toBeUndefined();
    expect(dropTarget(ids, 1, 4, true)).toBeUndefined();
  });
});
