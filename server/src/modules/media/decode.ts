import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { readPsdComposite, writeCompositeAsVips } from './psd';
import { requireDecodable } from './sniff';

/**
 * Names of image formats libvips decodes itself, best source first when converting to JPG/PNG.
 * A name only ranks a source: what is decoded is decided by its bytes (media/sniff.ts).
 */
export const SHARP_FORMATS = ['tif', 'tiff', 'png', 'jpg', 'jpeg', 'bmp', 'webp', 'gif', 'avif', 'heic'];

export interface DecodeOptions {
  /** `psd` (PSD/PSB) is read through ag-psd's composite; `image` is anything libvips reads. */
  format: 'psd' | 'image';
  /** Fill for transparent areas (`#rrggbb`), or null to keep them. */
  background: string | null;
  /** Pixel limit handed to libvips; the header was checked against the process's limits already. */
  limitInputPixels: number;
  /** The caller's temporary folder, for a PSD composite's pixels (never beside a stored object). */
  scratchDir: string;
}

/**
 * A sharp pipeline of an image file's first image, upright. A PSD's composite is flattened onto
 * `background` and, at 8 bits, streamed from a temporary libvips file instead of a second copy of
 * its pixels in memory, with the file's ICC profile so libvips converts its colours (CMYK files
 * as their own CMYK numbers: media/psd.ts, psd-colour.ts); 16-bit composites are streamed the
 * same way and flattened by libvips; 32-bit float ones are raw input, untagged.
 * Throws what the decoders throw: the caller decides whether that means a damaged source. A file
 * whose bytes are not what `format` allows is never handed to a decoder (UndecodableContentError).
 */
export async function decodeImage(file: string, options: DecodeOptions): Promise<Sharp> {
  const { background, limitInputPixels } = options;
  await requireDecodable(file, options.format);
  let image: Sharp;
  if (options.format === 'psd') {
    const composite = await readPsdComposite(file, background);
    const flat = path.join(options.scratchDir, 'composite.v');
    if (await writeCompositeAsVips(composite, flat)) {
      const streamed = sharp(flat, { failOn: 'error', limitInputPixels, sequentialRead: true });
      // 8-bit composites were flattened while read; 16-bit ones are flattened by libvips.
      return background && !composite.flattened ? streamed.flatten({ background }) : streamed;
    }
    image = sharp(composite.data, { raw: composite.raw, limitInputPixels });
  } else {
    image = sharp(file, { failOn: 'error', limitInputPixels, sequentialRead: true }).rotate();
  }
  return background ? image.flatten({ background }) : image;
}
