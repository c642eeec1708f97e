import { type Kysely, sql } from 'kysely';

/**
 * Attempt counters of the limits (sign-in, share-link passwords, SMS codes later), in the database
 * so that every server process counts into the same window. One row per key and fixed window;
 * windows that have ended are swept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rate_limit_counters (
      -- what is counted: 'login-id:email:a@b.c', 'login-ip:10.0.0.1', 'share-pw:10.0.0.1|<code>'…
      key text NOT NULL,
      -- the start of the fixed window the attempts fall in
      window_start timestamptz NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (key, window_start)
    )`.execute(db);
  await sql`CREATE INDEX rate_limit_counters_window ON rate_limit_counters (window_start)`.execute(db);
}
