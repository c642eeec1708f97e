import { type Kysely, sql } from 'kysely';

/**
 * The jobs screen (issue 40 item 4): function code 10 goes to the system roles, as code 9 did
 * (migration 024). A paused queue is a row of app_settings (`job-queue-paused:<queue>`), which
 * every process reads (jobs/queue-pause.ts): no table of its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE roles SET function_codes = array_append(function_codes, 10)
    WHERE is_system AND NOT (10 = ANY (function_codes))`.execute(db);
}
