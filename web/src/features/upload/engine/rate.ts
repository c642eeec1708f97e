/** The window a transfer rate is averaged over: steady enough to read, quick to follow a change. */
export const RATE_WINDOW_MS = 8_000;

/**
 * A moving average of bytes per second over the last RATE_WINDOW_MS, from samples of the total
 * sent so far: what the upload panel shows as speed and turns into time left.
 */
export class RateMeter {
  private samples: Array<{ at: number; bytes: number }> = [];

  add(at: number, bytes: number): void {
    const last = this.samples.at(-1);
    // Sent bytes only grow; a smaller total means the work changed (a task was cancelled): start over.
    if (last && bytes < last.bytes) this.samples = [];
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && (this.samples[0] as { at: number }).at < at - RATE_WINDOW_MS) {
      this.samples.shift();
    }
  }

  /** Bytes per second, or null until there is a second's worth of samples. */
  rate(): number | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < 1_000) return null;
    return ((last.bytes - first.bytes) * 1000) / (last.at - first.at);
  }

  /** Seconds until `remaining` bytes are sent at the current rate, or null when unknown. */
  secondsLeft(remaining: number): number | null {
    const rate = this.rate();
    return rate && rate > 0 ? Math.ceil(remaining / rate) : null;
  }

  reset(): void {
    this.samples = [];
  }
}
