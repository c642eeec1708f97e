import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { RateLimitRepository } from './repository';

/** One limit: at most `max` attempts on `key` per fixed window of `windowMs`. */
export interface RateLimitRule {
  key: string;
  max: number;
  windowMs: number;
}

/** Attempts taken by `RateLimiter.take`; `refund` gives them back (the attempt succeeded). */
export interface TakenAttempt {
  refund(): Promise<void>;
}

/** The longest window a rule may use: counters older than this are swept. */
export const MAX_WINDOW_MS = 60 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Attempt limits shared by every server process: the counters live in the database (fixed
 * windows by the injected clock, counted with one atomic upsert each), so a second process or a
 * restart does not hand out a fresh allowance. Used for sign-in, share-link passwords and, later,
 * SMS codes.
 */
export class RateLimiter {
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly repo: RateLimitRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one attempt on every rule's key, then refuses with SE_429 when any of them is over its
   * limit. Counting first (rather than checking, then counting) keeps concurrent attempts, on any
   * process, from slipping through together.
   */
  async take(rules: RateLimitRule[]): Promise<TakenAttempt> {
    const now = this.clock.now().getTime();
    await this.sweepNow(now);
    const counted: Array<{ key: string; windowStart: Date }> = [];
    let over = false;
    for (const rule of rules) {
      if (rule.windowMs <= 0 || rule.windowMs > MAX_WINDOW_MS) throw new Error(`bad window ${rule.windowMs}`);
      const windowStart = new Date(Math.floor(now / rule.windowMs) * rule.windowMs);
      const count = await this.repo.increment(rule.key, windowStart);
      counted.push({ key: rule.key, windowStart });
      if (count > rule.max) over = true;
    }
    if (over) throw new AppError('SE_429');
    return {
      refund: async () => {
        for (const { key, windowStart } of counted) await this.repo.decrement(key, windowStart);
      },
    };
  }

  /** At most once a minute per process: drops the counters of windows long over. */
  private async sweepNow(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    await this.repo.sweep(new Date(now - MAX_WINDOW_MS));
  }
}
