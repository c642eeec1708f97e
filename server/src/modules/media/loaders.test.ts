import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restrictImageLoaders } from './loaders';
import { SHARP_RASTERS } from './sniff';

/**
 * The start-up guard of main.ts and worker.ts: once called, libvips runs no loader but those of the
 * allowed rasters, whatever a file's bytes are. Process-wide, so given back after this file (the
 * fixtures of other tests draw with the SVG loader).
 */
describe('restrictImageLoaders', () => {
  beforeAll(() => {
    restrictImageLoaders();
  });
  afterAll(() => {
    sharp.unblock({ operation: ['VipsForeignLoad'] });
  });

  const square = () => sharp({ create: { width: 8, height: 6, channels: 3, background: '#808080' } });

  it('leaves every raster the sniff lets through readable, from a file or a buffer', async () => {
    const encoders = {
      jpeg: () => square().jpeg(),
      png: () => square().png(),
      gif: () => square().gif(),
      webp: () => square().webp(),
      tiff: () => square().tiff(),
      heif: () => square().avif(),
    } as const;
    expect(Object.keys(encoders).sort()).toEqual([...SHARP_RASTERS].sort());
    for (const [format, encode] of Object.entries(encoders)) {
      const bytes = await encode().toBuffer();
      expect((await sharp(bytes).metadata()).format, format).toBe(format);
      expect((await sharp(bytes).raw().toBuffer({ resolveWithObject: true })).info.width, format).toBe(8);
    }
  });

  it('refuses SVG and PDF input outright', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
    );
    await expect(sharp(svg).metadata()).rejects.toThrow(/unsupported image format/);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n');
    await expect(sharp(pdf).metadata()).rejects.toThrow(/unsupported image format/);
  });
});
