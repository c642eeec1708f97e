import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { RateLimitRepository } from './repository';

/** One limit: at most `max` attempts on `key` per fixed window of `windowMs`. */
export interface RateLimitRule {
  key: string;
  max: number;
  windowMs: number;
  /** What this attempt counts for (1 when absent): a call checking 200 files counts 200. */
  cost?: number;
}

/** Attempts taken by `RateLimiter.take`; `refund` gives them back (the attempt succeeded). */
export interface TakenAttempt {
  refund(): Promise<void>;
}

/**
 * The SE_429 of `RateLimiter.take`: `retryAfterMs` is when the latest of the windows over their
 * limit ends; the answer carries it as `retry-after` (whole seconds, rounded up).
 */
export class RateLimited extends AppError {
  constructor(readonly retryAfterMs: number) {
    super('SE_429');
    this.withHeaders({ 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });
  }
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
   * process, from slipping through together. Over a limit it throws `RateLimited` (SE_429 with
   * `retryAfterMs` and a `retry-after` header).
   */
  async take(rules: RateLimitRule[]): Promise<TakenAttempt> {
    const now = this.clock.now().getTime();
    await this.sweepNow(now);
    const counted: Array<{ key: string; windowStart: Date; cost: number }> = [];
    // When the last window over its limit ends (none over: -1).
    let retryAfterMs = -1;
    for (const rule of rules) {
      if (rule.windowMs <= 0 || rule.windowMs > MAX_WINDOW_MS) throw new Error(`bad window ${rule.windowMs}`);
      const windowStart = new Date(Math.floor(now / rule.windowMs) * rule.windowMs);
      const cost = Math.max(1, Math.floor(rule.cost ?? 1));
      const count = await this.repo.increment(rule.key, windowStart, cost);
      counted.push({ key: rule.key, windowStart, cost });
      if (count > rule.max)
        retryAfterMs = Math.max(retryAfterMs, windowStart.getTime() + rule.windowMs - now);
    }
    if (retryAfterMs >= 0) throw new RateLimited(retryAfterMs);
    return {
      refund: async () => {
        for (const { key, windowStart, cost } of counted) await this.repo.decrement(key, windowStart, cost);
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
