import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import { readPsdComposite } from '../src/modules/media/psd';
import { readWithExiftool } from './exiftool-cli';

/** The decoded pixels of an image: a PSD's composite (ag-psd), anything else through libvips. */
async function pixelsOf(bytes: Buffer, extension: string): Promise<Buffer> {
  if (extension === 'psd') {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-pixels-'));
    try {
      await fsp.writeFile(path.join(dir, 'file.psd'), bytes);
      return Buffer.from((await readPsdComposite(path.join(dir, 'file.psd'), null)).data);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }
  return sharp(bytes).raw().toBuffer();
}

/**
 * `actual` is the `original` a download sent with the platform's metadata written in (issue 42):
 * the same pixels, and the file id the platform's namespace carries, as Debian's ExifTool reads it.
 */
export async function expectOriginalWithMarks(
  actual: Buffer | undefined,
  original: Buffer,
  extension: string,
  fileId?: number,
): Promise<void> {
  expect(actual, 'the entry is there').toBeDefined();
  const tags = await readWithExiftool(actual as Buffer, extension);
  if (fileId === undefined) expect(tags['XMP-skdam:DamFileId']).toBeDefined();
  else expect(String(tags['XMP-skdam:DamFileId'])).toBe(String(fileId));
  expect((await pixelsOf(actual as Buffer, extension)).equals(await pixelsOf(original, extension))).toBe(
    true,
  );
}
