import { ColourFamily, colourFamilyOfHex } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { COLOUR_PRESETS } from './colours';

describe('colour swatches (issue 39 defect 1)', () => {
  it('are one per colour family, each of its own family', () => {
    expect(COLOUR_PRESETS.map((preset) => ColourFamily[preset.key]).sort((p, q) => p - q)).toEqual(
      Object.values(ColourFamily).sort((p, q) => p - q),
    );
    for (const preset of COLOUR_PRESETS)
      expect(colourFamilyOfHex(preset.hex), preset.key).toBe(ColourFamily[preset.key]);
  });
});
