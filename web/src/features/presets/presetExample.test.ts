import { describe, expect, it } from 'vitest';
import { exampleName } from './presetExample';

describe('preset form preview', () => {
  it('shows what a 1600×1200 file would be called, and nothing for a bad template', () => {
    expect(exampleName('{artNum}_{index}_{width}x{height}.jpg', 'jpg', 800)).toBe('SHOE123_1_800x600.jpg');
    expect(exampleName('{name}', 'png', null)).toBe('SHOE123 side.png');
    expect(exampleName('{sku}.jpg', 'jpg', null)).toBeNull();
    expect(exampleName('', 'jpg', null)).toBeNull();
  });
});
