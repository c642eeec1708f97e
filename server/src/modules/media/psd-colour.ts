import type fsp from 'node:fs/promises';
import { describeIcc } from './icc';
import type { PsdLayout } from './psd';

/** `length` bytes at `position`, or an error when the file ends first (a truncated PSD). */
export async function readAt(handle: fsp.FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead < length) throw new Error('truncated PSD file');
  return buffer;
}

/**
 * A PSD's colours (issue 42 item 4): its embedded ICC profile (image resource 1039) and, for
 * 8-bit CMYK files, the composite's CMYK numbers as they are stored — ag-psd would turn them into
 * RGB with a naive `c·k/255` formula. libvips then converts from the profile (media/psd.ts writes
 * both into the `.v` file it reads), or from its default CMYK profile for an untagged file.
 */

/** Image resource ID of the embedded ICC profile. */
const ICC_RESOURCE = 1039;
/** A profile larger than this is ignored (the largest CMYK LUT profiles are a few MB). */
export const MAX_ICC_BYTES = 8 * 1024 * 1024;
/** Resources looked at before giving up: Photoshop writes a few dozen; a crafted file millions. */
const MAX_RESOURCES = 4096;

/**
 * The embedded profile when its colour space is the file's (RGB for RGB mode 3, CMYK for mode 4):
 * a profile of another space (a grey profile on an RGB composite) cannot convert these pixels, and
 * libvips would refuse it. Null when there is none, or it is damaged or too large.
 */
export async function readPsdIcc(handle: fsp.FileHandle, layout: PsdLayout): Promise<Buffer | null> {
  const expected = layout.colourMode === 3 ? 'RGB' : layout.colourMode === 4 ? 'CMYK' : null;
  if (!expected) return null;
  const end = layout.resourcesAt + 4 + layout.resourcesLength;
  let at = layout.resourcesAt + 4;
  for (let seen = 0; seen < MAX_RESOURCES && at + 12 <= end; seen++) {
    // Signature (8BIM), ID, a Pascal name padded to an even length, data length, data (even).
    const head = await readAt(handle, at, 7);
    const id = head.readUInt16BE(4);
    const nameField = (1 + (head[6] as number) + 1) & ~1;
    const sizeAt = at + 6 + nameField;
    if (sizeAt + 4 > end) return null;
    const size = (await readAt(handle, sizeAt, 4)).readUInt32BE(0);
    const dataAt = sizeAt + 4;
    if (dataAt + size > end) return null;
    if (id === ICC_RESOURCE) {
      if (size > MAX_ICC_BYTES) return null;
      const icc = await readAt(handle, dataAt, size);
      return describeIcc(icc)?.space === expected ? icc : null;
    }
    at = dataAt + size + (size % 2);
  }
  return null;
}

/**
 * The composite image of an 8-bit CMYK PSD as interleaved CMYK, 0 = no ink (Photoshop stores
 * 255 − ink). Raw (0) and PackBits (1) compression. Extra channels (alpha, spot colours) are left
 * out: Photoshop's composite is already matted onto white paper, which is the flattening wanted.
 * Memory: the composite's compressed bytes once, plus 4 bytes a pixel.
 */
export async function readCmykComposite(handle: fsp.FileHandle, layout: PsdLayout): Promise<Buffer> {
  const { width, height } = layout;
  if (layout.depth !== 8 || layout.channels < 4) throw new Error('unsupported CMYK composite');
  const compression = (await readAt(handle, layout.imageAt, 2)).readUInt16BE(0);
  const out = Buffer.alloc(width * height * 4);
  const dataAt = layout.imageAt + 2;
  if (compression === 0) {
    // Four planes, one after another: read a band of rows of one plane at a time.
    const rows = Math.max(1, Math.floor((4 * 1024 * 1024) / width));
    for (let channel = 0; channel < 4; channel++) {
      for (let y = 0; y < height; y += rows) {
        const count = Math.min(rows, height - y);
        const band = await readAt(handle, dataAt + (channel * height + y) * width, count * width);
        for (let i = 0, o = y * width * 4 + channel; i < band.length; i++, o += 4)
          out[o] = 255 - (band[i] as number);
      }
    }
    return out;
  }
  if (compression !== 1) throw new Error(`unsupported PSD compression ${compression}`);
  // A table of every row's compressed length (2 bytes, 4 in a PSB) for every channel, then the rows.
  const lengthBytes = layout.large ? 4 : 2;
  const table = await readAt(handle, dataAt, height * layout.channels * lengthBytes);
  const lengthOf = (row: number) =>
    lengthBytes === 4 ? table.readUInt32BE(row * 4) : table.readUInt16BE(row * 2);
  let total = 0;
  for (let row = 0; row < 4 * height; row++) total += lengthOf(row);
  const rowsAt = dataAt + table.length;
  if (rowsAt + total > layout.fileSize) throw new Error('truncated PSD file');
  const packed = await readAt(handle, rowsAt, total);
  let from = 0;
  for (let channel = 0; channel < 4; channel++) {
    for (let y = 0; y < height; y++) {
      const length = lengthOf(channel * height + y);
      unpackRow(packed, from, from + length, out, y * width * 4 + channel, width);
      from += length;
    }
  }
  return out;
}

/**
 * PackBits: a control byte n, then n + 1 literal bytes (n < 128) or one byte repeated 257 − n
 * times (n > 128; 128 is nothing). Writes `width` inverted samples, 4 bytes apart; throws on a row
 * that decodes to another length.
 */
function unpackRow(packed: Buffer, from: number, end: number, out: Buffer, at: number, width: number): void {
  let written = 0;
  let i = from;
  const put = (value: number) => {
    if (written >= width) throw new Error('damaged PSD composite');
    out[at + written * 4] = 255 - value;
    written++;
  };
  while (i < end) {
    const control = packed[i++] as number;
    if (control < 128) {
      if (i + control + 1 > end) throw new Error('damaged PSD composite');
      for (let k = 0; k <= control; k++) put(packed[i++] as number);
    } else if (control > 128) {
      if (i >= end) throw new Error('damaged PSD composite');
      const value = packed[i++] as number;
      for (let k = 0; k < 257 - control; k++) put(value);
    }
  }
  if (written !== width) throw new Error('damaged PSD composite');
}

/**
 * libvips' `.v` extension block: XML after the pixels, where libvips keeps an image's metadata
 * (the same form sharp writes). Only the ICC profile is given, so libvips converts from it.
 */
export function vipsIccExtension(icc: Buffer, vipsVersion: string): Buffer {
  const xml =
    '<?xml version="1.0"?>\n' +
    `<root xmlns="http://www.vips.ecs.soton.ac.uk/vips/${vipsVersion}">\n` +
    '  <header>\n    <field type="VipsRefString" name="Hist"></field>\n  </header>\n' +
    '  <meta>\n' +
    `    <field type="VipsBlob" name="icc-profile-data">${icc.toString('base64')}</field>\n` +
    '  </meta>\n</root>\n';
  return Buffer.from(xml, 'utf8');
}
