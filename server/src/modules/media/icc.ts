/**
 * Colour management facts (issue 42 item 4): what an embedded ICC profile is, and the rendering
 * intent and defaults every sRGB rendition (thumbnail, preview, JPG/PNG download) is made with.
 * Pure: no sharp, no file system, so the metadata reader and the tests can use it on any bytes.
 */

/**
 * The rendering intent of every conversion: sharp (libvips `icc_transform`) hard-codes
 * perceptual and offers no other. For the matrix/TRC profiles of RGB sources (sRGB, Adobe RGB,
 * Display P3, ProPhoto) LittleCMS treats perceptual like relative colorimetric; for CMYK LUT
 * profiles it uses the profile's perceptual table (A2B0).
 */
export const RENDERING_INTENT = 'perceptual' as const;

/**
 * What an untagged CMYK source is read as: libvips' built-in CMYK profile (nip2's `cmyk.icm`, a
 * v2 LUT profile whose description is this). sharp takes no other input profile (lovell/sharp#1324).
 */
export const UNTAGGED_CMYK_PROFILE = 'Chemical proof';

/** What an untagged RGB (or grey) source is read as: sRGB, as browsers and libvips assume. */
export const UNTAGGED_RGB_PROFILE = 'sRGB';

/** An embedded profile's header facts and description. */
export interface IccDescription {
  /** The `desc` tag's text (v2 ASCII or v4 `mluc`, English preferred), or null when it has none. */
  name: string | null;
  /** The data colour space (header bytes 16–19): `RGB`, `CMYK`, `GRAY`, `Lab`, or another signature. */
  space: 'RGB' | 'CMYK' | 'GRAY' | 'Lab' | (string & {});
  /** The profile's ICC version, `major.minor` (2.1, 4.3 …). */
  version: string;
}

/** The header is 128 bytes, then the tag count; every offset below is checked against the length. */
const HEADER_LENGTH = 128;
/** Longest description kept: profile names are short; a crafted tag may claim megabytes. */
const MAX_NAME_LENGTH = 256;

/**
 * Reads an ICC profile's header and description, or null for bytes that are no profile (too
 * short, no `acsp` signature). Never throws: a damaged tag table just leaves `name` null.
 */
export function describeIcc(icc: Buffer | undefined): IccDescription | null {
  if (!icc || icc.length < HEADER_LENGTH + 4) return null;
  if (icc.toString('latin1', 36, 40) !== 'acsp') return null;
  const major = icc[8] as number;
  const minor = (icc[9] as number) >> 4;
  const signature = icc.toString('latin1', 16, 20).trim();
  return { name: descriptionOf(icc), space: signature, version: `${major}.${minor}` };
}

/** The `desc` tag's text, or null. */
function descriptionOf(icc: Buffer): string | null {
  const count = icc.readUInt32BE(HEADER_LENGTH);
  // Each tag table entry is 12 bytes: signature, offset, size.
  const entries = Math.min(count, Math.floor((icc.length - HEADER_LENGTH - 4) / 12));
  for (let i = 0; i < entries; i++) {
    const at = HEADER_LENGTH + 4 + i * 12;
    if (icc.toString('latin1', at, at + 4) !== 'desc') continue;
    const offset = icc.readUInt32BE(at + 4);
    const size = icc.readUInt32BE(at + 8);
    if (offset >= icc.length || size < 12) return null;
    const tag = icc.subarray(offset, Math.min(icc.length, offset + size));
    const type = tag.toString('latin1', 0, 4);
    const text = type === 'desc' ? asciiDescription(tag) : type === 'mluc' ? localizedDescription(tag) : null;
    return text === null || text === '' ? null : text;
  }
  return null;
}

/** v2 `textDescriptionType`: type, reserved, ASCII count (with its NUL), ASCII. */
function asciiDescription(tag: Buffer): string | null {
  const length = tag.readUInt32BE(8);
  const end = Math.min(tag.length, 12 + length, 12 + MAX_NAME_LENGTH);
  return clean(tag.toString('latin1', 12, end));
}

/**
 * v4 `multiLocalizedUnicodeType`: type, reserved, record count, record size (12), then records of
 * language, country, length and offset (from the tag's start) of UTF-16BE text. English (en-US,
 * then any en) is preferred, else the first record.
 */
function localizedDescription(tag: Buffer): string | null {
  if (tag.length < 16) return null;
  const records = tag.readUInt32BE(8);
  const recordSize = tag.readUInt32BE(12);
  if (recordSize < 12) return null;
  const available = Math.min(records, Math.floor((tag.length - 16) / recordSize));
  let chosen = -1;
  let rank = 3;
  for (let i = 0; i < available; i++) {
    const at = 16 + i * recordSize;
    const language = tag.toString('latin1', at, at + 2);
    const country = tag.toString('latin1', at + 2, at + 4);
    const mine = language === 'en' ? (country === 'US' ? 0 : 1) : 2;
    if (mine < rank) {
      rank = mine;
      chosen = at;
    }
  }
  if (chosen < 0) return null;
  const length = Math.min(tag.readUInt32BE(chosen + 4), MAX_NAME_LENGTH * 2);
  const offset = tag.readUInt32BE(chosen + 8);
  if (offset >= tag.length) return null;
  const bytes = tag.subarray(offset, Math.min(tag.length, offset + length));
  // UTF-16BE: swap into the little-endian order Node decodes.
  const swapped = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  swapped.swap16();
  return clean(swapped.toString('utf16le'));
}

/** Text up to its first NUL, without control characters or outer spaces. */
function clean(text: string): string {
  const cut = text.indexOf('\0');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  return (cut < 0 ? text : text.slice(0, cut)).replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

/**
 * Whether a browser may be shown the source itself: no profile, an sRGB profile or a grey one.
 * CMYK (Firefox's colour management has no CMYK profiles; untagged CMYK has no standard meaning)
 * and wide-gamut RGB (Adobe RGB, P3, ProPhoto; v4 profiles are off in Firefox by default) get
 * an sRGB preview made from the profile instead (docs/decisions.md, "Colour management").
 */
export function browserShowsAsIs(space: string | undefined, icc: Buffer | undefined): boolean {
  if (space === 'cmyk') return false;
  const profile = describeIcc(icc);
  if (!profile) return true;
  if (profile.space === 'CMYK') return false;
  if (profile.space !== 'RGB') return true;
  const name = profile.name ?? '';
  // `c2` is the compact sRGB profile many web tools embed.
  return /\bs\s?RGB\b/i.test(name) || name === 'c2';
}
