import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import {
  artNumPatternProblem,
  compileArtNumPattern,
  DEFAULT_ART_NUM_PATTERN,
  extractArtNums,
} from './art-num';

const defaults = compileArtNumPattern(DEFAULT_ART_NUM_PATTERN);
const extract = (name: string, pattern = defaults) => extractArtNums(name, pattern);

describe('article numbers in file names (default ART_NUM_PATTERN)', () => {
  it.each([
    ['SHOE123-01_side.jpg', ['SHOE123-01']],
    ['SHOE123-01.psd', ['SHOE123-01']],
    ['shoe123-01 front.PNG', ['shoe123-01']],
    ['CW2288-111_lateral.tif', ['CW2288-111']],
    ['GZ5922.jpg', ['GZ5922']],
    ['ARHR013-1-detail.jpg', ['ARHR013-1']],
    ['SHOE123.jpg', ['SHOE123']],
    ['SHOE123-01侧面图.jpg', ['SHOE123-01']],
    ['主图SHOE123-01.jpg', ['SHOE123-01']],
    ['SHOE123-01_SHOE124-02_pair.jpg', ['SHOE123-01', 'SHOE124-02']],
    ['SHOE123-01_shoe123-01_again.jpg', ['SHOE123-01']],
    ['Spring/Running/AB12-3.jpg', ['AB12-3']],
  ])('%s → %j', (name, expected) => {
    expect(extract(name)).toEqual(expected);
  });

  it.each([
    'campaign photo.jpg',
    'IMG_0001.jpg',
    'S123.jpg',
    'SHOE1.jpg',
    'XSHOE1a23.jpg',
    'SHOE12345678x.jpg',
    '.jpg',
    '',
  ])('finds nothing in %j', (name) => {
    expect(extract(name)).toEqual([]);
  });

  it('does not take a number glued to more letters or digits, and ignores the suffix', () => {
    expect(extract('XYZSHOE123Q.jpg')).toEqual([]);
    // The suffix is not part of the name: `AB.mp45` would otherwise look like an article number.
    expect(extract('poster.ab45')).toEqual([]);
  });

  it('takes at most ten article numbers from one name', () => {
    const name = `${Array.from({ length: 14 }, (_, i) => `AB${100 + i}`).join('_')}.jpg`;
    expect(extract(name)).toHaveLength(10);
  });
});

describe('season codes and short codes are not article numbers (default ART_NUM_PATTERN)', () => {
  // Issue 39: `SS26_lookbook_3pages.pdf` was read as article SS26 and flagged "not in the SKU data".
  it.each([
    'SS26_lookbook_3pages.pdf',
    'FW2026-campaign.jpg',
    'AW25_banner.png',
    'PRE-SS27_drop.jpg',
    'ss26 lookbook.jpg',
    'SP26.jpg',
    'SU2025_beach.jpg',
    'HO25-gifting.png',
    'FW26-01_look.jpg',
    'AB12.jpg',
    'US10_fit.jpg',
  ])('finds nothing in %j', (name) => {
    expect(extract(name)).toEqual([]);
  });

  it.each([
    ['SHOE123-01_SS26.jpg', ['SHOE123-01']],
    ['FW2026_CW2288-111_lookbook.jpg', ['CW2288-111']],
    ['SHOE123-01_EU42.jpg', ['SHOE123-01']],
    // adidas numbers share the FW prefix: four digits that are no year are still an article number.
    ['FW3273_side.jpg', ['FW3273']],
    ['SS2601-02.jpg', ['SS2601-02']],
    ['ABC12.jpg', ['ABC12']],
  ])('%s → %j', (name, expected) => {
    expect(extract(name)).toEqual(expected);
  });
});

describe('a configured ART_NUM_PATTERN', () => {
  it('can match purely numeric styles', () => {
    const puma = compileArtNumPattern('\\d{6}-\\d{2}');
    expect(extract('374915-01_side.jpg', puma)).toEqual(['374915-01']);
    expect(extract('1374915-01.jpg', puma)).toEqual([]);
  });

  it('uses the named group artNum when there is one', () => {
    const prefixed = compileArtNumPattern('ART-(?<artNum>[A-Z]\\d{4})');
    expect(extract('ART-K1234_front.jpg', prefixed)).toEqual(['K1234']);
  });

  it('refuses a pattern that does not compile, or matches the empty string', () => {
    expect(artNumPatternProblem('[A-Z')).toMatch(/Invalid regular expression/);
    expect(artNumPatternProblem('a)|(b')).toMatch(/Invalid regular expression/);
    expect(artNumPatternProblem('[A-Z]*')).toBe('must not match an empty string');
    expect(artNumPatternProblem(DEFAULT_ART_NUM_PATTERN)).toBeNull();
  });

  it('is validated at start-up: the configuration names it and the engine says why', () => {
    expect(() => loadConfig({ ART_NUM_PATTERN: '([A-Z]+' })).toThrow(/^\s*ART_NUM_PATTERN: must be a valid/m);
    expect(() => loadConfig({ ART_NUM_PATTERN: '\\d*' })).toThrow(/ART_NUM_PATTERN: .*empty string/);
    expect(loadConfig({}).ART_NUM_PATTERN).toBe(DEFAULT_ART_NUM_PATTERN);
    expect(loadConfig({ ART_NUM_PATTERN: '\\d{6}' }).ART_NUM_PATTERN).toBe('\\d{6}');
  });
});
