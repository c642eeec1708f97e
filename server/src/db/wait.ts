import { sql } from 'kysely';
import type { Db } from './database';

export type WaitOptions = {
  /** Give up after this long (0: one attempt). */
  waitMs: number;
  /** Told of each failed attempt and the pause before the next. */
  onRetry: (error: Error, retryInMs: number) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 5000;

/**
 * Resolves once the database answers, retrying with a growing pause: a process that starts before
 * its PostgreSQL (one compose file, a host reboot) waits for it instead of exiting. Throws the
 * last error when `waitMs` has passed.
 */
export async function waitForDatabase(db: Db, options: WaitOptions): Promise<void> {
  const sleep = options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const giveUpAt = now() + options.waitMs;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      await sql`SELECT 1`.execute(db);
      return;
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      const left = giveUpAt - now();
      if (left <= 0) throw error;
      const retryInMs = Math.min(pause, left);
      options.onRetry(error, retryInMs);
      await sleep(retryInMs);
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }
}
