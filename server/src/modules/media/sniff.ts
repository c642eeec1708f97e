import fsp from 'node:fs/promises';

/**
 * What a stored file is, told from its first bytes and never from its name (issue 38 item 2): a
 * file named `x.png` whose bytes are SVG was rendered by librsvg, which followed `<image href>` to
 * other objects beside it. Every decoder is chosen from this answer, and only formats on the
 * allow-list below are decoded at all; anything text-like (SVG, XML, MVG, PostScript, HTML,
 * playlists) or unknown is a plain file without preview.
 */
export type ContentKind =
  /** Decoded by sharp (libvips' own loaders for exactly this format). */
  | 'raster'
  /** Photoshop PSD/PSB: ag-psd reads its composite. */
  | 'psd'
  /** PDF (Illustrator files saved with PDF compatibility too): poppler renders it. */
  | 'document'
  /** A video container: ffmpeg, with its demuxer forced and nothing but the file readable. */
  | 'video'
  /** Nothing decodes it: the file has no preview. */
  | 'none';

export interface SniffedContent {
  /**
   * What the bytes are. For rasters, sharp's own name of the format (`metadata().format`); for
   * videos the container family; else a word for the logs (svg, xml, html, postscript, mvg,
   * m3u8, ffconcat, text, bmp, unknown…).
   */
  format: string;
  kind: ContentKind;
  /** Video only: the one ffmpeg demuxer allowed to read it (`-f` and `-format_whitelist`). */
  demuxer?: string;
}

/** Bytes read to tell a file's format: the magic numbers, and enough text to call it text. */
export const SNIFF_BYTES = 4096;

/** Raster formats handed to sharp, by sharp's name of them. */
export const SHARP_RASTERS: ReadonlySet<string> = new Set(['jpeg', 'png', 'gif', 'webp', 'tiff', 'heif']);

/** HEIF/AVIF brands of an ISO-BMFF `ftyp` box: still images, not videos. */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']);
/** Top-level QuickTime atoms a .mov may start with when it has no `ftyp`. */
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes).toString('latin1', from, to);
const startsWith = (bytes: Uint8Array, magic: number[], at = 0) =>
  bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b);

const none = (format: string): SniffedContent => ({ format, kind: 'none' });
const video = (format: string, demuxer: string): SniffedContent => ({ format, kind: 'video', demuxer });

/** The format of a file from its first bytes (at least SNIFF_BYTES of them when the file has that many). */
export function sniffContent(head: Uint8Array): SniffedContent {
  const tag = (from: number, to: number) => ascii(head, from, to);
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { format: 'jpeg', kind: 'raster' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { format: 'png', kind: 'raster' };
  if (tag(0, 6) === 'GIF87a' || tag(0, 6) === 'GIF89a') return { format: 'gif', kind: 'raster' };
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]))
    return { format: 'tiff', kind: 'raster' };
  // BigTIFF: libvips reads it through the same TIFF loader.
  if (startsWith(head, [0x49, 0x49, 0x2b, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2b]))
    return { format: 'tiff', kind: 'raster' };
  if (tag(0, 4) === '8BPS' && (head[5] === 1 || head[5] === 2) && head[4] === 0)
    return { format: 'psd', kind: 'psd' };
  if (tag(0, 4) === 'RIFF' && head.length >= 12) {
    if (tag(8, 12) === 'WEBP') return { format: 'webp', kind: 'raster' };
    if (tag(8, 12) === 'AVI ') return video('avi', 'avi');
  }
  if (tag(4, 8) === 'ftyp' && head.length >= 12) {
    const brand = tag(8, 12);
    if (HEIF_BRANDS.has(brand)) return { format: 'heif', kind: 'raster' };
    return video(brand === 'qt  ' ? 'mov' : 'mp4', 'mov');
  }
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]))
    return video(tag(0, Math.min(head.length, 64)).includes('webm') ? 'webm' : 'mkv', 'matroska');
  if (startsWith(head, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])) return video('asf', 'asf');
  if (tag(0, 4) === '.RMF') return video('rm', 'rm');
  if (tag(0, 3) === 'FLV' && head[3] === 1) return video('flv', 'flv');
  if (startsWith(head, [0x00, 0x00, 0x01, 0xba])) return video('mpeg', 'mpeg');
  if (startsWith(head, [0x00, 0x00, 0x01, 0xb3])) return video('mpeg', 'mpegvideo');
  if (head.length >= 377 && head[0] === 0x47 && head[188] === 0x47 && head[376] === 0x47)
    return video('mpegts', 'mpegts');
  // Illustrator's .ai files with PDF compatibility are PDFs; older PostScript ones are refused below.
  if (tag(0, 5) === '%PDF-') return { format: 'pdf', kind: 'document' };
  // libvips has no BMP loader of its own (sharp's build has no ImageMagick): no preview, as before.
  if (
    tag(0, 2) === 'BM' &&
    head.length >= 26 &&
    head[6] === 0 &&
    head[7] === 0 &&
    head[8] === 0 &&
    head[9] === 0
  )
    return none('bmp');
  if (startsWith(head, [0x1f, 0x8b])) return none('gzip');
  if (isTextLike(head)) return none(textFormatOf(head));
  // QuickTime files without `ftyp` start with a size and a known atom (checked after text, since
  // those four letters alone could begin a text file).
  if (head.length >= 8 && QUICKTIME_ATOMS.has(tag(4, 8))) return video('mov', 'mov');
  return none('unknown');
}

/** The format of a file on disk, from its first SNIFF_BYTES. */
export async function sniffFile(file: string): Promise<SniffedContent> {
  const handle = await fsp.open(file, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return sniffContent(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * Text in any of the encodings decoders accept (UTF-8 with or without BOM, UTF-16 with BOM):
 * SVG, XML, HTML, ImageMagick's MVG, PostScript/EPS, m3u8 and ffconcat playlists all are. No NUL
 * and no control character but tab, line breaks, form feed and escape; a multi-byte sequence cut
 * by the end of the sample is allowed.
 */
export function isTextLike(head: Uint8Array): boolean {
  if (head.length === 0) return true;
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return true;
  for (const byte of head) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b)
      return false;
    if (byte === 0x7f) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** A word for the logs naming what kind of text a refused file holds. */
function textFormatOf(head: Uint8Array): string {
  const text = Buffer.from(head)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (text.startsWith('%!')) return 'postscript';
  if (text.startsWith('#extm3u')) return 'm3u8';
  if (text.startsWith('ffconcat')) return 'ffconcat';
  if (text.includes('<svg')) return 'svg';
  if (text.startsWith('<!doctype html') || text.includes('<html')) return 'html';
  if (text.startsWith('<')) return 'xml';
  if (/(^|\n)\s*(push\s+graphic-context|viewbox\s)/.test(text)) return 'mvg';
  return 'text';
}

/** A file whose bytes are not what the caller may decode: it gets no preview and no conversion. */
export class UndecodableContentError extends Error {
  override name = 'UndecodableContentError';
  constructor(readonly content: SniffedContent) {
    super(`not an image this service decodes (its bytes are ${content.format})`);
  }
}

/**
 * Throws UndecodableContentError unless the file's bytes are an image the caller may decode:
 * a PSD/PSB for `psd`, one of SHARP_RASTERS for `image`. Answers what it found.
 */
export async function requireDecodable(file: string, expected: 'psd' | 'image'): Promise<SniffedContent> {
  const content = await sniffFile(file);
  const allowed = expected === 'psd' ? content.kind === 'psd' : content.kind === 'raster';
  if (!allowed) throw new UndecodableContentError(content);
  return content;
}
