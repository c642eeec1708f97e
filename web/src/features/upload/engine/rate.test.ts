import { describe, expect, it } from 'vitest';
import { RATE_WINDOW_MS, RateMeter } from './rate';

describe('upload speed and time left (moving average)', () => {
  it('averages over the recent window and follows a change of speed', () => {
    const meter = new RateMeter();
    meter.add(0, 0);
    expect(meter.rate()).toBeNull();
    // 1 MB/s for 10 s …
    for (let s = 1; s <= 10; s += 1) meter.add(s * 1000, s * 1_000_000);
    expect(meter.rate()).toBeCloseTo(1_000_000, -3);
    expect(meter.secondsLeft(5_000_000)).toBe(5);
    // … then 3 MB/s: once the window has passed, the old speed no longer counts.
    let bytes = 10_000_000;
    for (let s = 11; s <= 10 + RATE_WINDOW_MS / 1000 + 1; s += 1) {
      bytes += 3_000_000;
      meter.add(s * 1000, bytes);
    }
    expect(meter.rate()).toBeCloseTo(3_000_000, -3);
  });

  it('starts over when the total drops (a task was cancelled), and knows no time left at no speed', () => {
    const meter = new RateMeter();
    meter.add(0, 5_000_000);
    meter.add(2000, 7_000_000);
    meter.add(3000, 1_000_000);
    expect(meter.rate()).toBeNull();
    meter.add(5000, 1_000_000);
    expect(meter.secondsLeft(100)).toBeNull();
  });
});
