import {
  type FamilyShare,
  FINGERPRINT_SIDE,
  type FingerprintResult,
  familySharesOf,
  fingerprintOf,
} from '@dam/contract';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { SNIFF_BYTES, sniffContent, UndecodableContentError } from './sniff';

/**
 * The server's side of the near-duplicate fingerprint (issue 17, plan §2.1): sharp scales the
 * media job's 500-px thumbnail raster to fit 256 px and hands its bytes to the shared
 * `fingerprintOf` (packages/contract/src/fingerprint.ts), which the upload dialog's worker also
 * runs on a canvas. Only that 256-px downscale differs between the two sides.
 */

/** A raster already decoded to bytes, as `sharp(…).raw().toBuffer({ resolveWithObject: true })` gives it. */
export interface RawRaster {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/**
 * The media job's one raster of a decoded image, at most `side` px, transparency on white, 8-bit
 * sRGB: the thumbnail is encoded from it and the fingerprint taken of it. The colours go through
 * the embedded profile into sRGB (perceptual, media/icc.ts): `toColourspace` alone left a 16-bit
 * tagged source in sharp's P3 working space, P3 numbers read as sRGB. `withIccProfile` keeps
 * JPEG shrink-on-load, which `pipelineColourspace` would turn off.
 */
export async function thumbnailRaster(image: Sharp, side: number): Promise<RawRaster> {
  const made = await image
    .clone()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .withIccProfile('srgb', { attach: false })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return {
    data: made.data,
    info: { width: made.info.width, height: made.info.height, channels: made.info.channels },
  };
}

/** The original's upright size: an original under 32 px is `tooSmall` whatever its raster. */
export interface SourceSize {
  width: number;
  height: number;
}

/** A fingerprint with the picture's colour-family shares (issue 39), whatever its status. */
export type RasterFingerprint = FingerprintResult & { families: FamilyShare[] };

/**
 * The fingerprint of the thumbnail raster, with its colour-family shares (`familySharesOf`: a
 * blank or tiny picture has colours too, a plain green sheet is green). Pass the raster itself (a `Buffer` of an encoded image,
 * the raw bytes with their info, or a `sharp` instance *without a resize of its own*: sharp keeps
 * one resize a pipeline, so a chained 500-px resize would be replaced by this 256-px one and the
 * hash would no longer be the thumbnail's).
 */
export async function fingerprintOfRaster(
  raster: Sharp | Buffer | RawRaster,
  source: SourceSize,
): Promise<RasterFingerprint> {
  const { data, info } = await pipelineOf(raster)
    // White again, harmlessly: the raster should already be flat, and transparency must never
    // hash as black (sharp's JPEG of alpha 0 is black).
    .flatten({ background: '#ffffff' })
    .resize(FINGERPRINT_SIDE, FINGERPRINT_SIDE, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    // Three 8-bit channels whatever the source: grey, CMYK and 16-bit rasters included.
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const bytes = { pixels: data, width: info.width, height: info.height, channels: info.channels };
  return {
    ...fingerprintOf({ ...bytes, sourceWidth: source.width, sourceHeight: source.height }),
    families: familySharesOf(bytes),
  };
}

/** A fresh pipeline over the raster; a caller's sharp instance is cloned, not changed. */
function pipelineOf(raster: Sharp | Buffer | RawRaster): Sharp {
  if (Buffer.isBuffer(raster)) {
    // Encoded bytes (a stored thumbnail): decoded only as the raster they say they are.
    const content = sniffContent(raster.subarray(0, SNIFF_BYTES));
    if (content.kind !== 'raster') throw new UndecodableContentError(content);
    return sharp(raster);
  }
  if ('info' in raster) return sharp(raster.data, { raw: raster.info });
  return raster.clone();
}

/** Formats whose extra pages are frames of an animation (a multi-page TIFF or PDF is not animated). */
const ANIMATED_FORMATS = new Set(['gif', 'webp', 'png']);

/**
 * Whether a source is animated (GIF, WebP, APNG where libvips reads its frames): such files are
 * not compared, since the first frame is often a title card (plan §1.4).
 */
export function animatedOf(metadata: Pick<Metadata, 'pages' | 'format'>): boolean {
  return (metadata.pages ?? 1) > 1 && ANIMATED_FORMATS.has(metadata.format ?? '');
}
