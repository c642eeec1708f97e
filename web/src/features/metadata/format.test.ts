import { describe, expect, it } from 'vitest';
import { emptyMetadata } from '../../test/metadataFixtures';
import { captureTimeOf, coordinatesOf, durationOf, frameRateOf, hasAnything, knownLabelOf } from './format';

describe('how the metadata section writes what was read', () => {
  it('keeps the capture time on the camera clock, with its offset or none', () => {
    expect(captureTimeOf('2026-05-04T10:20:30+08:00')).toEqual({
      wallClock: '2026-05-04 10:20:30',
      offset: '+08:00',
    });
    expect(captureTimeOf('2026-05-04T10:20:30-03:30').offset).toBe('-03:30');
    expect(captureTimeOf('2026-05-04T10:20:30Z').offset).toBe('+00:00');
    expect(captureTimeOf('2026-05-04T10:20:30')).toEqual({ wallClock: '2026-05-04 10:20:30', offset: null });
    expect(captureTimeOf('yesterday')).toEqual({ wallClock: 'yesterday', offset: null });
  });

  it('writes positions, durations, frame rates and labels', () => {
    expect(coordinatesOf({ latitude: 31.2304, longitude: -121.4737 })).toBe('31.230400, -121.473700');
    expect(durationOf(4.4)).toBe('0:04');
    expect(durationOf(725)).toBe('12:05');
    expect(durationOf(3723)).toBe('1:02:03');
    expect(frameRateOf(29.97002997)).toBe('29.97');
    expect(frameRateOf(25)).toBe('25');
    expect(knownLabelOf(' Red ')).toBe('red');
    expect(knownLabelOf('Approved')).toBeNull();
  });

  it('counts a record with nothing but "upright" or "not rated" as empty', () => {
    expect(hasAnything(emptyMetadata)).toBe(false);
    expect(hasAnything({ ...emptyMetadata, orientation: 1, rating: 0 })).toBe(false);
    expect(hasAnything({ ...emptyMetadata, orientation: 6 })).toBe(true);
    expect(hasAnything({ ...emptyMetadata, rating: -1 })).toBe(true);
    expect(hasAnything({ ...emptyMetadata, keywords: ['shoe'] })).toBe(true);
    expect(hasAnything({ ...emptyMetadata, layerCount: 3 })).toBe(true);
  });
});
