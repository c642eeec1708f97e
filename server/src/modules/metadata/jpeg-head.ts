import fsp from 'node:fs/promises';

/** The most a JPEG's segments before its image data may take for the in-process reader. */
export const JPEG_HEAD_MAX_BYTES = 1024 * 1024;
/** The first read: a camera's or a photographer's metadata fits in it many times over. */
const FIRST_READ_BYTES = 128 * 1024;

const SOS = 0xda;
/** Markers without a length: TEM, RST0–7, SOI, EOI. */
const standalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);

/**
 * Where a JPEG's image data starts (the end of its SOS header), or `'more'` when `bytes` end before
 * it, or null when they are no JPEG's segments.
 */
function headEnd(bytes: Buffer): number | 'more' | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  for (;;) {
    if (at + 4 > bytes.length) return 'more';
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    // 0xFF fill bytes before a marker are allowed.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (standalone(marker)) {
      at += 2;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return null;
    at += 2 + length;
    if (marker === SOS) return at <= bytes.length ? at : 'more';
  }
}

/** The APPn and other segments of a head readJpegHead gave (SOI to SOS): marker and data. */
export function jpegSegments(head: Buffer): Array<{ marker: number; data: Buffer }> {
  const segments: Array<{ marker: number; data: Buffer }> = [];
  for (let at = 2; at + 4 <= head.length; ) {
    const marker = head[at + 1]!;
    if (marker === 0xff || standalone(marker)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    const length = head.readUInt16BE(at + 2);
    segments.push({ marker, data: head.subarray(at + 4, at + 2 + length) });
    if (marker === SOS) break;
    at += 2 + length;
  }
  return segments;
}

/**
 * A JPEG's segments up to its image data (EXIF, XMP, IPTC and ICC all live there), read from
 * `file` within JPEG_HEAD_MAX_BYTES; null when the file is no JPEG or they do not fit (ExifTool,
 * in its own bounded process, reads such a file instead).
 */
export async function readJpegHead(file: string): Promise<Buffer | null> {
  const handle = await fsp.open(file, 'r');
  try {
    let size = FIRST_READ_BYTES;
    for (;;) {
      const bytes = Buffer.alloc(size);
      const { bytesRead } = await handle.read(bytes, 0, size, 0);
      const head = bytes.subarray(0, bytesRead);
      const end = headEnd(head);
      if (end === null) return null;
      if (end !== 'more') return head.subarray(0, end);
      if (bytesRead < size || size >= JPEG_HEAD_MAX_BYTES) return null;
      size = Math.min(size * 4, JPEG_HEAD_MAX_BYTES);
    }
  } finally {
    await handle.close();
  }
}
