import { describe, expect, it } from 'vitest';
import { parseArtNums, renderFileName, savePresetRequestSchema, templateProblem } from './presets';

const values = {
  name: 'SHOE1 side',
  artNum: 'AB/12',
  index: 3,
  format: 'jpg' as const,
  width: 800,
  height: 533,
};

describe('download preset templates', () => {
  it('finds unknown placeholders, unpaired braces, illegal literal text and fixed names', () => {
    expect(templateProblem('{artNum}_{index}.jpg')).toBeNull();
    expect(templateProblem('{sku}.jpg')).toEqual({ kind: 'unknownPlaceholder', placeholder: '{sku}' });
    expect(templateProblem('{name.jpg')).toEqual({ kind: 'unknownPlaceholder', placeholder: '{name.jpg' });
    expect(templateProblem('name}.jpg')).toEqual({ kind: 'unknownPlaceholder', placeholder: '}' });
    expect(templateProblem('{name}?.jpg')).toEqual({ kind: 'illegalCharacter', char: '?' });
    expect(templateProblem('{name}\t.jpg')).toEqual({ kind: 'illegalCharacter', char: '\t' });
    expect(templateProblem('main.jpg')).toEqual({ kind: 'noPlaceholder' });
  });

  it('renders legal names ending in the output format', () => {
    expect(renderFileName('{artNum}_{index}.jpg', values)).toBe('AB_12_3.jpg');
    expect(renderFileName('{name}_{width}x{height}', values)).toBe('SHOE1 side_800x533.jpg');
    expect(renderFileName('{name}.JPEG', values)).toBe('SHOE1 side.JPEG');
    expect(renderFileName('{name}.png', values)).toBe('SHOE1 side.png.jpg');
    expect(renderFileName('{artNum}', { ...values, artNum: null })).toBe('SHOE1 side.jpg');
    expect(renderFileName('{artNum}...', values)).toBe('AB_12.jpg');
    expect(renderFileName('{name}', { ...values, name: 'x'.repeat(400) })).toHaveLength(184);
  });

  it('validates a preset as the server stores it', () => {
    const parsed = savePresetRequestSchema.parse({
      name: ' Tmall ',
      format: 'png',
      background: '#ABCDEF',
      fileNameTemplate: ' {name}.png ',
    });
    expect(parsed).toEqual({
      name: 'Tmall',
      format: 'png',
      longSidePx: null,
      background: '#abcdef',
      fileNameTemplate: '{name}.png',
      metadata: 'embed',
      colourProfile: 'srgb',
    });
  });
});

describe('pasted article numbers', () => {
  it('splits on white space and commas, drops duplicates without regard to case, keeps order', () => {
    expect(parseArtNums(' A1, b2\n\tA1 ，C3、a1;D4  B2 ')).toEqual(['A1', 'b2', 'C3', 'D4']);
    expect(parseArtNums(['A1 A2', 'a2,A3'])).toEqual(['A1', 'A2', 'A3']);
    expect(parseArtNums(' , ')).toEqual([]);
  });
});
