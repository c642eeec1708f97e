import tzLookup from '@photostructure/tz-lookup';

/** `GMT+08:00` (Intl's long offset) in minutes; `GMT` alone is 0. */
function minutesOf(longOffset: string): number {
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(longOffset);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** The offset from UTC, in minutes, of `zone` at the instant `utcMillis`. */
function zoneOffsetAt(zone: string, utcMillis: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    timeZoneName: 'longOffset',
  }).formatToParts(utcMillis);
  return minutesOf(parts.find((part) => part.type === 'timeZoneName')?.value ?? '');
}

/**
 * The offset a camera's wall clock (`local`, `YYYY-MM-DDTHH:MM:SS`) had where the picture was taken,
 * told from its GPS position (the time zone there, daylight saving included), for files that give
 * no offset themselves. Null when the position names no zone.
 */
export function offsetFromPosition(local: string, latitude: number, longitude: number): number | null {
  let zone: string;
  try {
    zone = tzLookup(latitude, longitude);
  } catch {
    return null;
  }
  const wall = Date.parse(`${local}Z`);
  if (!Number.isFinite(wall)) return null;
  // The offset at the wall clock read as UTC, then at the instant that gives: right but for the
  // hour a daylight-saving change repeats or skips.
  const first = zoneOffsetAt(zone, wall);
  return zoneOffsetAt(zone, wall - first * 60_000);
}
