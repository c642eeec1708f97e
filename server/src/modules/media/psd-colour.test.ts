import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writePsd } from 'ag-psd';
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
import { writeTestPsd } from '../../../test/colour/psd';
import { decodeImage } from './decode';
import { describeIcc } from './icc';
import { readPsdComposite } from './psd';

const SWOP = '/usr/share/color/icc/ghostscript/default_cmyk.icc';
const ADOBE_RGB = '/usr/share/color/argyll/ref/ClayRGB1998.icm';
const GREY = '/usr/share/color/icc/ghostscript/sgray.icc';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-psd-colour-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const tificc = await hasTificc();
if (!tificc) console.warn('psd-colour.test.ts: the LittleCMS comparison is skipped, tificc is not installed');

let files = 0;
function saved(bytes: Buffer): string {
  const file = path.join(dir, `${++files}.psd`);
  fs.writeFileSync(file, bytes);
  return file;
}

describe('PSD colours: the embedded profile and CMYK numbers reach libvips', () => {
  it('reads resource 1039 behind other resources, and only a profile of the file’s own space', async () => {
    const rgb = buildChart('RGB', fs.readFileSync(ADOBE_RGB));
    const tagged = await readPsdComposite(saved(writeTestPsd(rgb, { compression: 1 })), '#ffffff');
    expect(describeIcc(tagged.icc ?? undefined)?.name).toBe('Interchangeable with Adobe RGB (1998)');
    // A grey profile on an RGB composite could not convert it: left out.
    const grey = { ...rgb, icc: fs.readFileSync(GREY) };
    expect((await readPsdComposite(saved(writeTestPsd(grey, { compression: 1 })), '#ffffff')).icc).toBeNull();
    const cmyk = buildChart('CMYK', fs.readFileSync(SWOP));
    const cmykComposite = await readPsdComposite(saved(writeTestPsd(cmyk, { compression: 0 })), null);
    expect(describeIcc(cmykComposite.icc ?? undefined)?.space).toBe('CMYK');
  });

  it('decodes an 8-bit CMYK composite itself, raw and PackBits alike, as ink numbers', async () => {
    const chart = buildChart('CMYK', fs.readFileSync(SWOP));
    for (const compression of [0, 1] as const) {
      const composite = await readPsdComposite(saved(writeTestPsd(chart, { compression })), '#ffffff');
      expect(composite.space).toBe('cmyk');
      expect(Buffer.compare(composite.data as Buffer, chart.data)).toBe(0);
    }
  });

  it('hands libvips a tagged CMYK image, and an untagged one its default CMYK profile', async () => {
    for (const icc of [fs.readFileSync(SWOP), undefined]) {
      const file = saved(writeTestPsd(buildChart('CMYK', icc), { compression: 1 }));
      const image = await decodeImage(file, {
        format: 'psd',
        background: '#ffffff',
        limitInputPixels: 1e8,
        scratchDir: fs.mkdtempSync(path.join(dir, 'scratch-')),
      });
      const meta = await image.metadata();
      expect(meta.space).toBe('cmyk');
      expect(meta.channels).toBe(4);
      expect(describeIcc(meta.icc)?.name ?? null).toBe(icc ? 'Artifex CMYK SWOP Profile' : null);
      const made = await image.withIccProfile('srgb').png().toBuffer();
      expect((await sharp(made).metadata()).space).toBe('srgb');
    }
  });

  it('keeps a transparent RGB composite’s alpha and profile (a PNG download)', async () => {
    const size = 16;
    const pixels = new Uint8ClampedArray(size * size * 4);
    for (let i = 0; i < size * size; i++) pixels.set([200, 40, 40, i < (size * size) / 2 ? 255 : 0], i * 4);
    const psd = Buffer.from(
      writePsd({
        width: size,
        height: size,
        imageData: { width: size, height: size, data: pixels } as never,
        children: [],
      }),
    );
    // ag-psd writes no profile: resource 1039 is put in front of its image resources.
    const withProfile = injectIcc(psd, fs.readFileSync(ADOBE_RGB));
    const png = await downloadConversion(dir, withProfile, 'png', 'srgb', 'psd');
    const meta = await sharp(png).metadata();
    expect(meta.hasAlpha).toBe(true);
    const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    // Adobe RGB (200, 40, 40) is a stronger red than sRGB's: converted, its red channel rises.
    expect(data[0]).toBeGreaterThan(215);
    expect(data[3]).toBe(255);
    expect(data[(size * size - 1) * 4 + 3]).toBe(0);
  });

  it('refuses a PackBits row that decodes to the wrong length', async () => {
    const damaged = writeTestPsd(buildChart('CMYK'), { compression: 1 });
    // Header, no colour mode data, the resources, no layers: then compression and the row table.
    const imageAt = 30 + 4 + damaged.readUInt32BE(30) + 4;
    expect(damaged.readUInt16BE(imageAt)).toBe(1);
    // Row 1 takes 2 bytes of row 2 (the total stays): both decode to the wrong length.
    damaged.writeUInt16BE(damaged.readUInt16BE(imageAt + 2) + 2, imageAt + 2);
    damaged.writeUInt16BE(damaged.readUInt16BE(imageAt + 4) - 2, imageAt + 4);
    await expect(readPsdComposite(saved(damaged), '#ffffff')).rejects.toThrow(/damaged PSD composite/);
  });
});

describe.skipIf(!tificc)('PSD downloads against LittleCMS (ΔE2000)', { timeout: 60_000 }, () => {
  it.each([...COLOUR_CASES.slice(0, 3), UNTAGGED_CMYK_CASE])('$label as a PSD', async (colourCase) => {
    const result = await measureCase(colourCase, 'psd');
    console.info(
      `${result.label}: PNG mean ΔE ${result.png.mean.toFixed(3)} max ${result.png.max.toFixed(3)}`,
    );
    // The same numbers as the TIFF of the chart (colour-management.test.ts): untagged CMYK included.
    const tiff = await measureCase(colourCase);
    expect(result.png.mean).toBeCloseTo(tiff.png.mean, 6);
    expect(result.png.max).toBeCloseTo(tiff.png.max, 6);
    if (colourCase.profile) {
      expect(result.png.mean).toBeLessThan(1);
      expect(result.png.max).toBeLessThan(3);
    }
  });

  // 16-bit composites are a tagged RGB16 `.v` (sharp's P3 working space, then sRGB): two transforms.
  it.each(COLOUR_CASES.slice(1, 3))('$label as a 16-bit PSD', async (colourCase) => {
    const result = await measureCase(colourCase, 'psd16');
    console.info(
      `${result.label}: PNG mean ΔE ${result.png.mean.toFixed(3)} max ${result.png.max.toFixed(3)}`,
    );
    expect(result.png.mean).toBeLessThan(1);
    expect(result.png.max).toBeLessThan(3);
    expect(result.unmanaged.max).toBeGreaterThan(3);
  });
});

/** The PSD with an ICC profile resource (1039) put first in its image resources section. */
function injectIcc(psd: Buffer, icc: Buffer): Buffer {
  const resourcesAt = 26 + 4 + psd.readUInt32BE(26);
  const length = psd.readUInt32BE(resourcesAt);
  const block = Buffer.alloc(12);
  block.write('8BIM', 0, 'latin1');
  block.writeUInt16BE(1039, 4);
  block.writeUInt32BE(icc.length, 8); // an empty name takes 2 bytes (6–7)
  const padded = Buffer.concat([block, icc, Buffer.alloc(icc.length % 2)]);
  const newLength = Buffer.alloc(4);
  newLength.writeUInt32BE(length + padded.length, 0);
  return Buffer.concat([psd.subarray(0, resourcesAt), newLength, padded, psd.subarray(resourcesAt + 4)]);
}
