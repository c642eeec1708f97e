import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildChart,
  COLOUR_CASES,
  downloadConversion,
  hasTificc,
  measureCase,
  UNTAGGED_CMYK_CASE,
} from '../../../test/colour/chart';
import { writeTiff } from '../../../test/colour/tiff';
import { describeIcc } from './icc';

// LittleCMS's tificc is the reference (scripts/setup-system.sh installs liblcms2-utils); without
// it the comparison cannot be made, and only that skips these tests.
const tificc = await hasTificc();
if (!tificc)
  console.warn('colour-management.test.ts skipped: tificc (Debian liblcms2-utils) is not installed');

const ADOBE_RGB = '/usr/share/color/argyll/ref/ClayRGB1998.icm';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-colour-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// A few hundred 8×8 patches through tificc and the download converter, twice per case.
describe.skipIf(!tificc)(
  'JPG/PNG downloads against LittleCMS (ΔE2000, issue 42 item 4)',
  { timeout: 60_000 },
  () => {
    // The three sources must pass; ProPhoto is measured the same way.
    it.each(COLOUR_CASES)('converts $label into sRGB as LittleCMS does', async (colourCase) => {
      const result = await measureCase(colourCase);
      console.info(
        `${result.label}: PNG mean ΔE ${result.png.mean.toFixed(3)} max ${result.png.max.toFixed(3)}; ` +
          `JPEG download mean ${result.jpeg.mean.toFixed(3)} max ${result.jpeg.max.toFixed(3)}`,
      );
      // Not passing by accident: the numbers as they stand would miss the bar.
      expect(result.unmanaged.max).toBeGreaterThan(3);
      expect(result.png.mean).toBeLessThan(1);
      expect(result.png.max).toBeLessThan(3);
      // JPEG q92 4:4:4 adds its own error on top; a patch is one 8×8 block.
      expect(result.jpeg.mean).toBeLessThan(1.5);
      expect(result.jpeg.max).toBeLessThan(5);
    });

    it('reads untagged CMYK as libvips’ default profile (figures reported, not held to the bar)', async () => {
      const result = await measureCase(UNTAGGED_CMYK_CASE);
      console.info(
        `${result.label}: PNG mean ΔE ${result.png.mean.toFixed(3)} max ${result.png.max.toFixed(3)}`,
      );
      // Far closer to LittleCMS with "Chemical proof" than a naive CMYK formula would be.
      expect(result.png.mean).toBeLessThan(2);
    });
  },
);

describe('download colour choice', () => {
  const chart = () => writeTiff(buildChart('RGB', fs.readFileSync(ADOBE_RGB)));

  it('srgb (the default) converts and attaches sRGB', async () => {
    for (const output of ['png', 'jpg'] as const) {
      const made = await downloadConversion(dir, chart(), output);
      const meta = await sharp(made).metadata();
      expect(describeIcc(meta.icc)).toMatchObject({ name: 'sRGB', space: 'RGB' });
    }
  });

  it('keep leaves the numbers and the source profile as they are', async () => {
    const source = chart();
    const made = await downloadConversion(dir, source, 'png', 'keep');
    const meta = await sharp(made).metadata();
    expect(describeIcc(meta.icc)?.name).toBe('Interchangeable with Adobe RGB (1998)');
    const numbers = (image: Buffer) => sharp(image, { ignoreIcc: true }).raw().toBuffer();
    expect((await numbers(made)).equals(await numbers(source))).toBe(true);
    const converted = await downloadConversion(dir, source, 'png');
    expect((await numbers(converted)).equals(await numbers(source))).toBe(false);
  });

  it('keep still converts CMYK to sRGB (a PNG holds no CMYK)', async () => {
    const source = writeTiff(
      buildChart('CMYK', await fsp.readFile('/usr/share/color/icc/ghostscript/default_cmyk.icc')),
    );
    for (const output of ['png', 'jpg'] as const) {
      const kept = await downloadConversion(dir, source, output, 'keep');
      const meta = await sharp(kept).metadata();
      expect(meta.space).toBe('srgb');
      expect(describeIcc(meta.icc)?.name).toBe('sRGB');
    }
  });
});
