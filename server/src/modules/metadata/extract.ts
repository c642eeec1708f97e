import {
  type EmbeddedMetadata,
  METADATA_KEYWORD_MAX,
  METADATA_KEYWORDS_MAX,
  METADATA_TEXT_MAX,
} from '@dam/contract';
import { offsetFromPosition } from './capture-zone';

/** What a download of ours wrote into a file (XMP-skdam), read back when it is uploaded again. */
export interface PlatformMarks {
  fileId: string | null;
  articleNumbers: string[];
  signature: string | null;
}

export interface ExtractedMetadata {
  metadata: EmbeddedMetadata;
  /** The capture time split as stored: the wall clock and its offset (minutes), when known. */
  captured: { local: string; offsetMinutes: number | null } | null;
  platform: PlatformMarks;
}

/** Characters PostgreSQL refuses in text (NUL) and other controls a hostile file may carry. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it removes
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** A field's text: trimmed, without control characters, at most `max` characters, or null. */
function text(value: unknown, max = METADATA_TEXT_MAX): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return text(value.map((part) => String(part)).join('; '), max);
  if (typeof value === 'object') return null;
  const cleaned = String(value).replace(CONTROLS, '').trim();
  return cleaned ? [...cleaned].slice(0, max).join('') : null;
}

function first(...values: unknown[]): string | null {
  for (const value of values) {
    const found = text(value);
    if (found) return found;
  }
  return null;
}

function numberOf(value: unknown): number | null {
  const found = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(found) ? found : null;
}

function intIn(value: unknown, min: number, max: number): number | null {
  const found = numberOf(value);
  return found !== null && Number.isInteger(found) && found >= min && found <= max ? found : null;
}

function list(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  const seen = new Set<string>();
  for (const item of items) {
    const keyword = text(item, METADATA_KEYWORD_MAX);
    if (keyword) seen.add(keyword);
    if (seen.size >= METADATA_KEYWORDS_MAX) break;
  }
  return [...seen];
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** ExifTool's date text: `YYYY:MM:DD[ HH:MM[:SS[.fff]]][Z|±HH:MM]` (XMP may give the date alone). */
const EXIF_DATE =
  /^(\d{4})[:-](\d{2})[:-](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/** `+08:00`, `-0530` or `Z` in minutes from UTC, or null when it is none of those. */
function offsetMinutesOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  if (value.trim() === 'Z') return 0;
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const minutes = (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
  return Math.abs(minutes) <= 1080 ? minutes : null;
}

/**
 * A date tag as ExifTool writes it: the wall clock, and the offset where the text has one or
 * `offset` (the EXIF OffsetTime* tag beside it) gives it. Zero dates and text that is no date
 * are none.
 */
function capturedOf(value: unknown, offset?: unknown): ExtractedMetadata['captured'] {
  if (typeof value !== 'string') return null;
  const match = EXIF_DATE.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1800 || year > 2200 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const [hour, minute, second] = [match[4], match[5], match[6]].map((part) => Number(part ?? 0));
  if (hour! > 23 || minute! > 59 || second! > 60) return null;
  const local = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour!)}:${pad(minute!)}:${pad(Math.min(second!, 59))}`;
  return { local, offsetMinutes: offsetMinutesOf(match[7]) ?? offsetMinutesOf(offset) };
}

export function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const whole = Math.abs(minutes);
  return `${sign}${pad(Math.floor(whole / 60))}:${pad(whole % 60)}`;
}

/** `Canon` + `Canon EOS R5` is "Canon EOS R5", not "Canon Canon EOS R5". */
function cameraOf(make: string | null, model: string | null): string | null {
  if (!model) return make;
  if (!make || model.toLowerCase().startsWith(make.toLowerCase())) return model;
  return `${make} ${model}`;
}

/**
 * The fields the platform keeps from what ExifTool read (exiftool.ts READ_TAGS; MWG composites
 * first). Every text is bounded: the file is a stranger's.
 */
export function extractMetadata(t: Record<string, unknown>): ExtractedMetadata {
  const captured =
    capturedOf(t.SubSecDateTimeOriginal, t.OffsetTimeOriginal) ??
    capturedOf(t.DateTimeOriginal, t.OffsetTimeOriginal) ??
    capturedOf(t.CreateDate, t.OffsetTimeDigitized) ??
    capturedOf(t.DateCreated) ??
    capturedOf(t.MediaCreateDate);
  const latitude = numberOf(t.GPSLatitude);
  const longitude = numberOf(t.GPSLongitude);
  const gps =
    latitude !== null &&
    longitude !== null &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180 &&
    !(latitude === 0 && longitude === 0)
      ? { latitude, longitude }
      : null;
  // No offset in the file: the time zone where its GPS position is (daylight saving included).
  if (captured && captured.offsetMinutes === null && gps)
    captured.offsetMinutes = offsetFromPosition(captured.local, gps.latitude, gps.longitude);
  const keywords = list(t.Keywords);
  const metadata: EmbeddedMetadata = {
    camera: cameraOf(text(t.Make), text(t.Model)),
    lens: first(t.LensModel, t.LensID, t.Lens),
    capturedAt: captured
      ? `${captured.local}${captured.offsetMinutes === null ? '' : offsetText(captured.offsetMinutes)}`
      : null,
    orientation: intIn(t.Orientation, 1, 8),
    gps,
    title: first(t.Title, t.ObjectName),
    description: first(t.Description, t.ImageDescription, t['Caption-Abstract']),
    creator: first(t.Creator, t.Artist, t['By-line'], t.Author),
    copyright: first(t.Copyright, t.Rights, t.CopyrightNotice),
    usageTerms: first(t.UsageTerms),
    keywords: keywords.length > 0 ? keywords : list(t.Subject),
    rating: intIn(t.Rating, -1, 5),
    label: first(t.Label),
    iccProfile: first(t.ProfileDescription),
    colourSpace: first(t.ColorSpaceData, t.ColorMode),
    layerCount: intIn(t.LayerCount, 0, 1_000_000),
    pageCount: intIn(t.PageCount, 0, 10_000_000),
    duration: numberOf(t.Duration),
    videoCodec: first(t.CompressorID, t.CodecID, t.VideoCodec, t.CompressorName),
    frameRate: numberOf(t.VideoFrameRate),
  };
  return {
    metadata,
    captured,
    platform: {
      fileId: text(t.DamFileId, 40),
      articleNumbers: list(t.DamArticleNumber).slice(0, 50),
      signature: text(t.DamSignature, 200),
    },
  };
}
