import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** SQL of the attempt counters. The only place the limits touch the database. */
export class RateLimitRepository {
  constructor(private readonly db: Db) {}

  /** Counts one attempt on `key` in the window starting at `windowStart`; the new count, atomically. */
  async increment(key: string, windowStart: Date, by = 1): Promise<number> {
    const row = await this.db
      .insertInto('rate_limit_counters')
      .values({ key, window_start: windowStart, count: by })
      .onConflict((oc) =>
        oc
          .columns(['key', 'window_start'])
          .doUpdateSet({ count: sql`rate_limit_counters.count + ${by}::int` }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return row.count;
  }

  /** Takes one attempt back (a successful sign-in is not an attempt against anyone). */
  async decrement(key: string, windowStart: Date, by = 1): Promise<void> {
    await this.db
      .updateTable('rate_limit_counters')
      .set({ count: sql`greatest(count - ${by}::int, 0)` })
      .where('key', '=', key)
      .where('window_start', '=', windowStart)
      .execute();
  }

  /** Removes the counters of windows that started before `before`. */
  async sweep(before: Date): Promise<void> {
    await this.db.deleteFrom('rate_limit_counters').where('window_start', '<', before).execute();
  }
}
