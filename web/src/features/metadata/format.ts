import type { EmbeddedMetadata } from '@dam/contract';

/**
 * How the metadata section writes what was read (issue 42): pure, so the unit tests check them
 * without a page.
 */

/**
 * The section's lines, in the order shown (MetadataFields): who made it, who owns it and what took
 * it first (what a person opening the panel looks for, visible without scrolling at 1366×768), then
 * how it may be used and what it is about, then where, then the file's make-up.
 */
export const METADATA_FIELDS = [
  'title',
  'creator',
  'copyright',
  'camera',
  'lens',
  'capturedAt',
  'usageTerms',
  'description',
  'keywords',
  'rating',
  'label',
  'gps',
  'orientation',
  'colour',
  'layers',
  'pages',
  'duration',
  'videoCodec',
  'frameRate',
] as const;
export type MetadataField = (typeof METADATA_FIELDS)[number];

/** The capture time as the camera's clock said it, and its offset from UTC when the file gave one. */
export function captureTimeOf(capturedAt: string): { wallClock: string; offset: string | null } {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(Z|[+-]\d{2}:\d{2})?$/.exec(capturedAt);
  // Not the server's shape (an older row, a future one): shown as it came rather than dropped.
  if (!match) return { wallClock: capturedAt, offset: null };
  const [, date, time, zone] = match;
  // Kept on the camera's own clock, not turned into the reader's zone: "10:20 in Shanghai" is what
  // the photographer saw, and a file without an offset could not be turned anyway.
  return { wallClock: `${date} ${time}`, offset: zone ? (zone === 'Z' ? '+00:00' : zone) : null };
}

/** Latitude and longitude as signed decimal degrees, six places (about 10 cm), as map tools take them. */
export function coordinatesOf(gps: { latitude: number; longitude: number }): string {
  return `${gps.latitude.toFixed(6)}, ${gps.longitude.toFixed(6)}`;
}

/** A video's length: "0:42", "12:05", "1:02:03". */
export function durationOf(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Frames a second without noise: 25, 29.97, 23.976. */
export function frameRateOf(rate: number): string {
  return String(Math.round(rate * 1000) / 1000);
}

/** The colour labels Adobe's and most tools' write, with the tag colour each is shown in. */
export const LABEL_COLOURS = {
  red: 'red',
  yellow: 'gold',
  green: 'green',
  blue: 'blue',
  purple: 'purple',
} as const;
export type KnownLabel = keyof typeof LABEL_COLOURS;

/** A label the interface has a name for ("Red" → red), else null: shown as the file wrote it. */
export function knownLabelOf(label: string): KnownLabel | null {
  const key = label.trim().toLowerCase();
  return key in LABEL_COLOURS ? (key as KnownLabel) : null;
}

/** EXIF orientations other than "upright" (1), the only ones worth a line: the previews are upright. */
export const SHOWN_ORIENTATIONS = [2, 3, 4, 5, 6, 7, 8] as const;
export const orientationShown = (orientation: number | null): boolean =>
  orientation !== null && (SHOWN_ORIENTATIONS as readonly number[]).includes(orientation);

/** XMP's 0 is "not rated" and is not shown; -1 is "rejected". */
export const ratingShown = (rating: number | null): boolean => rating !== null && rating !== 0;

/** Whether the section has a single line to show of this record's metadata. */
export function hasAnything(m: EmbeddedMetadata): boolean {
  const { keywords, orientation, rating, ...rest } = m;
  return (
    keywords.length > 0 ||
    orientationShown(orientation) ||
    ratingShown(rating) ||
    Object.values(rest).some((value) => value !== null && value !== '')
  );
}
