import fsp from 'node:fs/promises';
import { initializeCanvas, readPsd } from 'ag-psd';
import sharp, { type SharpOptions } from 'sharp';
import { readAt, readCmykComposite, readPsdIcc, vipsIccExtension } from './psd-colour';

let canvasInstalled = false;

/**
 * ag-psd builds the composite image through process-wide canvas hooks; raw pixel buffers are all
 * we need, so no canvas package. Installed by the first read, not as a side effect of an import.
 */
function installRawPixelCanvas(): void {
  if (canvasInstalled) return;
  initializeCanvas(
    () => {
      throw new Error('canvas not available');
    },
    (width: number, height: number) =>
      ({ data: new Uint8ClampedArray(width * height * 4), width, height, colorSpace: 'srgb' }) as never,
  );
  canvasInstalled = true;
}

/** A PSD's composite image as raw pixels for sharp. */
export interface PsdComposite {
  /** 8-bit RGBA as a Buffer; 16/32-bit as the typed array, whose type tells sharp the depth. */
  data: Buffer | Uint16Array | Float32Array;
  raw: NonNullable<SharpOptions['raw']>;
  /** 8-bit composites are flattened onto the background here; deeper ones are left to libvips. */
  flattened: boolean;
  /** `cmyk`: `data` is interleaved CMYK (0 = no ink), an 8-bit CMYK file's own numbers. */
  space: 'srgb' | 'cmyk';
  /** The file's embedded profile (image resource 1039) when it fits the pixels, else null. */
  icc: Buffer | null;
}

/** Where a PSD/PSB's sections are, and its header's facts. */
export interface PsdLayout {
  width: number;
  height: number;
  channels: number;
  /** Bits per channel: 1, 8, 16 or 32. */
  depth: number;
  large: boolean;
  /** Colour mode (2 = indexed, whose palette is the colour mode data) and that data's length. */
  colourMode: number;
  colourLength: number;
  /** Offset of the image resources section's length field, and that length. */
  resourcesAt: number;
  resourcesLength: number;
  /** Offset of the layer and mask information section, and of the composite image data. */
  layersAt: number;
  imageAt: number;
  fileSize: number;
}

/**
 * Reads the 26-byte header of a PSD (version 1) or PSB (version 2) — signature `8BPS`, version,
 * six reserved bytes, channels, height, width, bits per channel, colour mode, all big-endian —
 * and the lengths of the colour mode data, image resources and layer sections that follow.
 */
export async function psdLayout(handle: fsp.FileHandle): Promise<PsdLayout> {
  const { size: fileSize } = await handle.stat();
  const header = await readAt(handle, 0, 26);
  if (header.toString('latin1', 0, 4) !== '8BPS') throw new Error('not a PSD file');
  const version = header.readUInt16BE(4);
  if (version !== 1 && version !== 2) throw new Error(`unknown PSD version ${version}`);
  const large = version === 2;
  const colourLength = (await readAt(handle, 26, 4)).readUInt32BE(0);
  const resourcesAt = 30 + colourLength;
  const resourcesLength = (await readAt(handle, resourcesAt, 4)).readUInt32BE(0);
  const layersAt = resourcesAt + 4 + resourcesLength;
  const layersLengthBytes = await readAt(handle, layersAt, large ? 8 : 4);
  const layersLength = large
    ? Number(layersLengthBytes.readBigUInt64BE(0))
    : layersLengthBytes.readUInt32BE(0);
  const imageAt = layersAt + layersLengthBytes.length + layersLength;
  if (imageAt > fileSize) throw new Error('truncated PSD file');
  return {
    channels: header.readUInt16BE(12),
    height: header.readUInt32BE(14),
    width: header.readUInt32BE(18),
    depth: header.readUInt16BE(22),
    colourMode: header.readUInt16BE(24),
    colourLength,
    large,
    resourcesAt,
    resourcesLength,
    layersAt,
    imageAt,
    fileSize,
  };
}

/** An indexed-colour palette: 256 RGB triplets, the only colour mode data ag-psd reads. */
const PALETTE_LENGTH = 768;

/**
 * Reads a PSD/PSB's composite image and nothing else: ag-psd is given the header, the palette
 * of an indexed-colour file, and the composite image data, with the image resources and the
 * layer and mask section left empty — they are skipped on disk, however long their 32/64-bit
 * length fields say they are (a crafted 1×1 PSD could otherwise claim gigabytes of them). Memory
 * is the composite's RGBA pixels plus its compressed bytes, in one buffer, whatever the layers.
 *
 * `background` (`#rrggbb`) flattens transparency in place for 8-bit files, which costs no
 * second copy (libvips' flatten of a raw image held one more); null keeps the alpha channel.
 */
export async function readPsdComposite(file: string, background: string | null): Promise<PsdComposite> {
  const handle = await fsp.open(file, 'r');
  let bytes: Buffer;
  let icc: Buffer | null;
  try {
    const layout = await psdLayout(handle);
    icc = await readPsdIcc(handle, layout);
    if (layout.colourMode === 4 && layout.depth === 8) {
      // Always opaque: Photoshop matted the composite onto white paper (media/psd-colour.ts).
      const data = await readCmykComposite(handle, layout);
      const raw = { width: layout.width, height: layout.height, channels: 4 as const };
      return { data, raw, flattened: true, space: 'cmyk', icc };
    }
    // ag-psd skips other modes' colour mode data (duotone's is a private format it cannot use).
    const palette = layout.colourMode === 2 ? layout.colourLength : 0;
    if (palette > PALETTE_LENGTH) throw new Error('invalid colour palette');
    const imageLength = layout.fileSize - layout.imageAt;
    // Header, colour mode data, empty image resources, empty layer and mask section, composite.
    const imageAt = 26 + 4 + palette + 4 + (layout.large ? 8 : 4);
    bytes = Buffer.alloc(imageAt + imageLength);
    (await readAt(handle, 0, 26)).copy(bytes, 0);
    bytes.writeUInt32BE(palette, 26);
    if (palette > 0) (await readAt(handle, 30, palette)).copy(bytes, 30);
    const { bytesRead } = await handle.read(bytes, imageAt, imageLength, layout.imageAt);
    if (bytesRead < imageLength) throw new Error('truncated PSD file');
  } finally {
    await handle.close();
  }
  installRawPixelCanvas();
  const composite = readPsd(bytes, {
    skipLayerImageData: true,
    skipThumbnail: true,
    useImageData: true,
  }).imageData;
  if (!composite) throw new Error('PSD without a composite image');
  const raw = { width: composite.width, height: composite.height, channels: 4 as const };
  const data = composite.data;
  // 16-bit composites are written as a tagged RGB16 `.v`; 32-bit float ones stay raw input, which
  // carries no profile (lovell/sharp#4195), and so untagged.
  if (data instanceof Uint16Array) return { data, raw, flattened: false, space: 'srgb', icc };
  if (!(data instanceof Uint8ClampedArray))
    return { data: data as Float32Array, raw, flattened: false, space: 'srgb', icc: null };
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (background) {
    const r = Number.parseInt(background.slice(1, 3), 16);
    const g = Number.parseInt(background.slice(3, 5), 16);
    const b = Number.parseInt(background.slice(5, 7), 16);
    for (let i = 0; i < buffer.length; i += 4) {
      const alpha = buffer[i + 3] as number;
      if (alpha === 255) continue;
      const keep = alpha / 255;
      buffer[i] = Math.round((buffer[i] as number) * keep + r * (1 - keep));
      buffer[i + 1] = Math.round((buffer[i + 1] as number) * keep + g * (1 - keep));
      buffer[i + 2] = Math.round((buffer[i + 2] as number) * keep + b * (1 - keep));
      buffer[i + 3] = 255;
    }
  }
  return { data: buffer, raw, flattened: background !== null, space: 'srgb', icc };
}

/**
 * Writes a flattened 8-bit composite as an uncompressed libvips image file (`.v`: a 64-byte
 * header, the RGB or CMYK pixels, then the embedded profile in libvips' XML extension block), so
 * sharp streams it from disk instead of copying the pixels into memory a second time (a raw-buffer
 * input is copied) and converts its colours from the profile (CMYK without one: libvips' default).
 * An unflattened composite keeps its alpha (4 bands RGBA, 8 or 16 bits: the caller flattens it).
 * Returns false for 32-bit float composites, which stay raw input (untagged: raw input carries no
 * profile).
 */
export async function writeCompositeAsVips(composite: PsdComposite, target: string): Promise<boolean> {
  if (composite.data instanceof Float32Array) return false;
  const deep = composite.data instanceof Uint16Array;
  const { width, height } = composite.raw;
  const cmyk = composite.space === 'cmyk';
  // CMYK, RGB, or RGB with alpha (not flattened, 16-bit): what `data` holds but the RGB of RGBA.
  const asIs = cmyk || deep || !composite.flattened;
  const bands = asIs ? 4 : 3;
  const header = Buffer.alloc(64);
  header.writeUInt32BE(0xb6a6f208, 0); // VIPS_MAGIC_INTEL: little-endian fields and pixels follow
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height, 8);
  header.writeInt32LE(bands, 12);
  header.writeInt32LE(deep ? 16 : 8, 16); // bits per band (unused by libvips)
  header.writeInt32LE(deep ? 2 : 0, 20); // VIPS_FORMAT_USHORT or _UCHAR
  header.writeInt32LE(0, 24); // VIPS_CODING_NONE
  header.writeInt32LE(cmyk ? 15 : deep ? 25 : 22, 28); // VIPS_INTERPRETATION_CMYK, _RGB16 or _sRGB
  header.writeFloatLE(1, 32); // x resolution, pixels per mm
  header.writeFloatLE(1, 36); // y resolution
  const handle = await fsp.open(target, 'w');
  try {
    await handle.write(header);
    if (asIs) {
      // In pieces: one write call takes at most 2 GiB, and may write less than it was given.
      // 16-bit samples go as the platform's (little-endian) bytes, which VIPS_MAGIC_INTEL says.
      const source = composite.data;
      const data = Buffer.isBuffer(source)
        ? source
        : Buffer.from(source.buffer, source.byteOffset, source.byteLength);
      for (let at = 0; at < data.length; ) {
        const { bytesWritten } = await handle.write(data, at, Math.min(64 * 1024 * 1024, data.length - at));
        at += bytesWritten;
      }
    } else await writeRgb(handle, composite.data as Buffer, width, height);
    if (composite.icc) await handle.write(vipsIccExtension(composite.icc, sharp.versions.vips));
  } finally {
    await handle.close();
  }
  return true;
}

/** RGBA rows written as RGB, a band of rows at a time. */
async function writeRgb(
  handle: fsp.FileHandle,
  source: Buffer,
  width: number,
  height: number,
): Promise<void> {
  const rows = Math.max(1, Math.floor((4 * 1024 * 1024) / (width * 3)));
  const chunk = Buffer.alloc(rows * width * 3);
  for (let y = 0; y < height; y += rows) {
    const count = Math.min(rows, height - y);
    let out = 0;
    for (let i = y * width * 4, end = (y + count) * width * 4; i < end; i += 4) {
      chunk[out++] = source[i] as number;
      chunk[out++] = source[i + 1] as number;
      chunk[out++] = source[i + 2] as number;
    }
    await handle.write(chunk, 0, out);
  }
}
