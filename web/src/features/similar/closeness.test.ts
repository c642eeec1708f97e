import { describe, expect, it } from 'vitest';
import { closenessOf, pixelsOf } from './closeness';

describe('closeness of a near-duplicate', () => {
  it('is very close up to 4 bits, close up to 8, similar beyond', () => {
    expect([0, 4, 5, 8, 9, 10].map(closenessOf)).toEqual([
      'veryClose',
      'veryClose',
      'close',
      'close',
      'similar',
      'similar',
    ]);
  });

  it('writes the pixel size only when both sides are known', () => {
    expect(pixelsOf({ width: 1200, height: 900 })).toBe('1200 × 900');
    expect(pixelsOf({ width: null, height: 900 })).toBeNull();
  });
});
