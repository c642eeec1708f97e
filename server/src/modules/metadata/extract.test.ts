import { describe, expect, it } from 'vitest';
import { extractMetadata } from './extract';

const capturedAt = (tags: Record<string, unknown>) => extractMetadata(tags).metadata.capturedAt;

describe('capture time from the date texts ExifTool writes', () => {
  it('keeps the wall clock and the offset the text or its OffsetTime tag gives', () => {
    expect(capturedAt({ SubSecDateTimeOriginal: '2026:05:04 10:20:30.12+08:00' })).toBe(
      '2026-05-04T10:20:30+08:00',
    );
    expect(capturedAt({ DateTimeOriginal: '2026:05:04 10:20:30', OffsetTimeOriginal: '-05:30' })).toBe(
      '2026-05-04T10:20:30-05:30',
    );
    // A video's QuickTime date, read as UTC.
    expect(capturedAt({ MediaCreateDate: '2026:01:02 03:04:05Z' })).toBe('2026-01-02T03:04:05+00:00');
    expect(capturedAt({ CreateDate: '2026:01:02 03:04:05', OffsetTimeDigitized: '+0100' })).toBe(
      '2026-01-02T03:04:05+01:00',
    );
  });

  it('takes an XMP date without a time, and no offset where none is known', () => {
    expect(capturedAt({ DateCreated: '2025:12:31' })).toBe('2025-12-31T00:00:00');
    expect(capturedAt({ DateTimeOriginal: '2025:12:31 23:59:59' })).toBe('2025-12-31T23:59:59');
  });

  it('prefers the original capture time over the file’s creation', () => {
    expect(capturedAt({ DateTimeOriginal: '2024:01:01 08:00:00', CreateDate: '2025:01:01 08:00:00' })).toBe(
      '2024-01-01T08:00:00',
    );
  });

  it('calls zero dates, impossible dates, text and numbers no date', () => {
    for (const value of [
      '0000:00:00 00:00:00',
      '2026:13:01 10:00:00',
      '2026:01:01 25:00:00',
      'yesterday',
      20260101,
    ])
      expect(capturedAt({ DateTimeOriginal: value })).toBeNull();
    expect(capturedAt({ DateTimeOriginal: '2026:01:01 10:00:00', OffsetTimeOriginal: '+99:00' })).toBe(
      '2026-01-01T10:00:00',
    );
  });

  it('tells the offset from the GPS position when the file gives none, daylight saving included', () => {
    const shanghai = { GPSLatitude: 31.2304, GPSLongitude: 121.4737 };
    expect(capturedAt({ DateTimeOriginal: '2026:05:04 10:20:30', ...shanghai })).toBe(
      '2026-05-04T10:20:30+08:00',
    );
    const newYork = { GPSLatitude: 40.7128, GPSLongitude: -74.006 };
    expect(capturedAt({ DateTimeOriginal: '2026:07:01 12:00:00', ...newYork })).toBe(
      '2026-07-01T12:00:00-04:00',
    );
    expect(capturedAt({ DateTimeOriginal: '2026:01:15 12:00:00', ...newYork })).toBe(
      '2026-01-15T12:00:00-05:00',
    );
    // What the file says wins over the position.
    expect(
      capturedAt({ DateTimeOriginal: '2026:05:04 10:20:30', OffsetTimeOriginal: '+09:00', ...shanghai }),
    ).toBe('2026-05-04T10:20:30+09:00');
  });
});
