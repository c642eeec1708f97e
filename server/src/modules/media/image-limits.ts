import fsp from 'node:fs/promises';
import sharp from 'sharp';
import { animatedOf } from './fingerprint';
import { browserShowsAsIs } from './icc';
import { type PsdLayout, psdLayout } from './psd';
import { requireDecodable, UndecodableContentError } from './sniff';

/**
 * What one process may decode (docs/decisions.md "Image limits"). Every decode (thumbnails,
 * previews, download conversions) first reads the image's header, refuses it beyond `maxPixels`,
 * estimates the memory decoding it takes, and waits until that much of `memoryBytes` is free:
 * so N uploads or N downloads at once cannot multiply memory past the budget, and one image
 * alone cannot exceed it.
 */
export interface ImageLimits {
  /** Width × height beyond which an image is not decoded at all (its header is read, nothing more). */
  maxPixels: number;
  /** Estimated decoding memory all images being worked on at once in this process may take. */
  memoryBytes: number;
}

/** An image beyond the pixel limit, or whose decoding alone would take more than the memory budget. */
export class ImageTooLargeError extends Error {
  override name = 'ImageTooLargeError';
  constructor(
    readonly width: number,
    readonly height: number,
    readonly maxPixels: number,
  ) {
    super(`image too large to convert or preview: ${width}×${height} px (at most ${maxPixels} px)`);
  }
}

/** What a decoder needs to know before decoding, read from the file's header only. */
export interface ImageHeader {
  format: string;
  width: number;
  height: number;
  /** Upright size (EXIF orientation applied). */
  uprightWidth: number;
  uprightHeight: number;
  /** Estimated bytes held while decoding it (see `decodeCost`). */
  cost: number;
  /** Frames of an animation (GIF, WebP, APNG): not compared for near-duplicates (issue 17). */
  animated: boolean;
  /**
   * Whether a browser shows the source's colours right as they stand: no profile, an sRGB or a
   * grey one (media/icc.ts `browserShowsAsIs`). False for CMYK and wide-gamut RGB, and for PSDs.
   */
  srgbAsIs: boolean;
}

const MB = 1024 * 1024;
const BYTES_PER_SAMPLE: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

/**
 * Memory decoding one image takes, measured with libvips 8.18 (sharp 0.35) and ag-psd 31:
 * - libvips streams baseline JPEG, non-interlaced PNG and WebP/TIFF strips through a resize, a
 *   few hundred rows at a time: about 2,048 rows of the image's width (a 400 MP PNG took 150 MB).
 * - Interlaced PNG, GIF, HEIC/AVIF and BMP are decoded whole (5.4 bytes a pixel for RGBA PNG);
 *   progressive JPEG keeps every DCT coefficient (6.9 bytes a pixel at 4:4:4).
 * - TIFF is read a strip (or a row of tiles) at a time: a file written as one strip is decoded
 *   in one piece, so its header's RowsPerStrip/TileLength decides.
 * - A PSD's composite (its layers are skipped on disk, media/psd.ts) is decoded by ag-psd into
 *   RGBA, flattened and written to a temporary file libvips streams: its compressed bytes plus
 *   4 bytes a pixel (sharp would copy a raw buffer: 10 bytes a pixel measured that way).
 */
export function decodeCost(facts: {
  format: string;
  width: number;
  height: number;
  channels: number;
  bytesPerSample: number;
  progressive: boolean;
  /** Bytes the decoder reads into memory first (PSD: the composite image section). */
  fileSize: number;
  /** TIFF: rows decoded in one piece (a strip or a row of tiles); unknown = the whole height. */
  rowsPerPiece?: number | null;
}): number {
  const { width, height, channels, bytesPerSample } = facts;
  const pixels = width * height;
  const row = width * Math.max(channels, 3) * bytesPerSample;
  const whole = 16 * MB + pixels * Math.max(channels, 3) * bytesPerSample * 1.5;
  const streamed = Math.min(whole, 16 * MB + row * 2048);
  switch (facts.format) {
    case 'psd':
      // The composite's bytes and its RGBA pixels (8-bit ones then stream from disk, media/psd.ts);
      // deeper ones are copied by sharp and flattened by libvips.
      return 16 * MB + facts.fileSize + pixels * 4 * bytesPerSample * (bytesPerSample === 1 ? 1.25 : 3.5);
    case 'jpeg':
      return facts.progressive ? 16 * MB + pixels * channels * 2.5 : streamed;
    case 'png':
      return facts.progressive ? whole : streamed;
    case 'webp':
      return streamed;
    case 'tiff':
      return Math.min(whole, streamed + row * Math.min(facts.rowsPerPiece ?? height, height) * 1.5);
    default:
      return whole;
  }
}

/** Memory writing an image `width` pixels wide takes: libvips' JPEG (unoptimised) and PNG writers stream rows. */
export const encodeCost = (width: number): number => 16 * MB + width * 4 * 2048;

/**
 * Rows of a TIFF decoded in one piece: TileLength when tiled, else RowsPerStrip (whose default
 * is "the whole image"), from the first IFD (wherever it is in the file: libtiff writes it last);
 * null when the header cannot be read.
 */
export async function tiffRowsPerPiece(handle: fsp.FileHandle): Promise<number | null> {
  const read = async (position: number, length: number) => {
    const bytes = Buffer.alloc(length);
    const { bytesRead } = await handle.read(bytes, 0, length, position);
    return bytes.subarray(0, bytesRead);
  };
  const head = await read(0, 16);
  if (head.length < 16) return null;
  const order = head.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const le = order === 'II';
  const u16 = (b: Buffer, at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (b: Buffer, at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const u64 = (b: Buffer, at: number) => Number(le ? b.readBigUInt64LE(at) : b.readBigUInt64BE(at));
  const big = u16(head, 2) === 43;
  if (!big && u16(head, 2) !== 42) return null;
  const ifd = big ? u64(head, 8) : u32(head, 4);
  const countBytes = await read(ifd, big ? 8 : 2);
  if (countBytes.length < (big ? 8 : 2)) return null;
  const count = Math.min(big ? u64(countBytes, 0) : u16(countBytes, 0), 4096);
  const entrySize = big ? 20 : 12;
  const entries = await read(ifd + (big ? 8 : 2), count * entrySize);
  let rows: number | null = null;
  for (let at = 0; at + entrySize <= entries.length; at += entrySize) {
    const tag = u16(entries, at);
    if (tag !== 278 && tag !== 323) continue;
    const value = at + (big ? 12 : 8);
    const n = u16(entries, at + 2) === 3 ? u16(entries, value) : u32(entries, value);
    if (tag === 323) return n;
    rows = n;
  }
  return rows ?? 2 ** 32 - 1;
}

/**
 * Width, height and decoding cost of an image file, from its header only; throws on what is no
 * image. `format` is what the caller expects (`psd`, or any raster); the bytes decide what is read:
 * anything but a PSD or one of sharp's rasters (media/sniff.ts) throws UndecodableContentError
 * before a decoder sees it, and a raster libvips reads as another format than its bytes say too.
 */
export async function readImageHeader(file: string, format: string): Promise<ImageHeader> {
  const content = await requireDecodable(file, format === 'psd' ? 'psd' : 'image');
  const { size: fileSize } = await fsp.stat(file);
  if (content.kind === 'psd') {
    const handle = await fsp.open(file, 'r');
    let psd: PsdLayout;
    try {
      psd = await psdLayout(handle);
    } finally {
      await handle.close();
    }
    return {
      format: 'psd',
      width: psd.width,
      height: psd.height,
      uprightWidth: psd.width,
      uprightHeight: psd.height,
      animated: false,
      srgbAsIs: false,
      cost: decodeCost({
        format: 'psd',
        width: psd.width,
        height: psd.height,
        channels: psd.channels,
        bytesPerSample: psd.depth <= 8 ? 1 : psd.depth / 8,
        progressive: false,
        fileSize: psd.fileSize - psd.imageAt,
      }),
    };
  }
  const meta = await sharp(file, { limitInputPixels: false }).metadata();
  if (meta.format !== content.format) throw new UndecodableContentError(content);
  let rowsPerPiece: number | null = null;
  if (meta.format === 'tiff') {
    const handle = await fsp.open(file, 'r');
    try {
      rowsPerPiece = await tiffRowsPerPiece(handle);
    } finally {
      await handle.close();
    }
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const channels = meta.channels ?? 3;
  const bytesPerSample = BYTES_PER_SAMPLE[meta.depth ?? 'uchar'] ?? 1;
  const cost = decodeCost({
    format: meta.format ?? format,
    width,
    height,
    channels,
    bytesPerSample,
    progressive: meta.isProgressive ?? false,
    fileSize,
    rowsPerPiece,
  });
  // Turning by 90° (EXIF orientation 5–8) needs the whole image at once.
  const turned = (meta.orientation ?? 1) >= 5;
  return {
    format: meta.format ?? format,
    width,
    height,
    uprightWidth: meta.autoOrient?.width ?? width,
    uprightHeight: meta.autoOrient?.height ?? height,
    animated: animatedOf(meta),
    srgbAsIs: browserShowsAsIs(meta.space, meta.icc),
    cost: turned ? Math.max(cost, width * height * Math.max(channels, 3) * bytesPerSample) : cost,
  };
}

/** The limits set by MAX_IMAGE_PIXELS and IMAGE_MEMORY_MB. */
export const imageLimitsOf = (config: {
  MAX_IMAGE_PIXELS: number;
  IMAGE_MEMORY_MB: number;
}): ImageLimits => ({
  maxPixels: config.MAX_IMAGE_PIXELS,
  memoryBytes: config.IMAGE_MEMORY_MB * MB,
});

/**
 * The process's image work: checks the limits and runs decodes within the memory budget, first
 * come first served (a large image waits for room rather than being overtaken forever).
 */
export class ImageWork {
  private used = 0;
  private readonly waiting: Array<{ cost: number; start: () => void }> = [];

  constructor(readonly limits: ImageLimits) {
    // libvips' operation cache only helps repeated work on the same image, which ours never is,
    // and it would hold decoded pixels beyond the memory budget. Process-wide, like this budget.
    sharp.cache(false);
  }

  /** Throws ImageTooLargeError for an image this process will not decode. */
  check(
    header: Pick<ImageHeader, 'width' | 'height' | 'cost'> &
      Partial<Pick<ImageHeader, 'uprightWidth' | 'uprightHeight'>>,
  ): void {
    if (
      header.width * header.height > this.limits.maxPixels ||
      header.cost > this.limits.memoryBytes ||
      header.width <= 0 ||
      header.height <= 0
    )
      throw new ImageTooLargeError(
        header.uprightWidth ?? header.width,
        header.uprightHeight ?? header.height,
        this.limits.maxPixels,
      );
  }

  /** Runs `work` once `cost` bytes of the budget are free; the budget is given back when it ends. */
  async run<T>(cost: number, work: () => Promise<T>): Promise<T> {
    const share = Math.min(Math.max(cost, 0), this.limits.memoryBytes);
    if (this.waiting.length > 0 || this.used + share > this.limits.memoryBytes) {
      await new Promise<void>((start) => this.waiting.push({ cost: share, start }));
    } else {
      this.used += share;
    }
    try {
      return await work();
    } finally {
      this.used -= share;
      this.wake();
    }
  }

  /** Work running and waiting, for tests and the benchmark. */
  get activity(): { usedBytes: number; waiting: number } {
    return { usedBytes: this.used, waiting: this.waiting.length };
  }

  private wake(): void {
    for (let next = this.waiting[0]; next; next = this.waiting[0]) {
      if (this.used + next.cost > this.limits.memoryBytes) return;
      this.waiting.shift();
      this.used += next.cost;
      next.start();
    }
  }
}
