import { sql } from 'kysely';
import type { DatabaseHandle } from '../../db/database';
import { JOB_SCHEMA } from '../../jobs/queue';

export interface QueueCount {
  queue: string;
  waiting: number;
  deferred: number;
  active: number;
  failed: number;
}

/** A scrape waits this long for the counts at most; Prometheus's own default timeout is 10 s. */
export const QUEUE_COUNT_TIMEOUT_MS = 2_000;

/**
 * Counts the jobs of every queue pg-boss knows, by state, straight from its job table (pg-boss's
 * own queue counts are refreshed by its monitor pass only now and then). Completed and cancelled
 * jobs are not read. The statement may run QUEUE_COUNT_TIMEOUT_MS (statement_timeout on
 * PostgreSQL; a scrape waits no longer on either database). Scrapes that come while a count runs
 * share it. Resolves null when the count failed or took too long.
 */
export function queueCounter(database: DatabaseHandle): () => Promise<QueueCount[] | null> {
  let running: Promise<QueueCount[] | null> | null = null;
  const count = async (): Promise<QueueCount[]> => {
    const schema = sql.id(JOB_SCHEMA);
    return database.db.transaction().execute(async (trx) => {
      if (database.kind === 'postgres')
        await sql`SET LOCAL statement_timeout = ${sql.lit(QUEUE_COUNT_TIMEOUT_MS)}`.execute(trx);
      const { rows } = await sql<QueueCount>`
        SELECT q.name AS queue,
          count(j.id) FILTER (WHERE j.state < 'active' AND j.start_after <= ${schema}.job_now())::int AS waiting,
          count(j.id) FILTER (WHERE j.state < 'active' AND j.start_after > ${schema}.job_now())::int AS deferred,
          count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
          count(j.id) FILTER (WHERE j.state = 'failed')::int AS failed
        FROM ${schema}.queue q
        LEFT JOIN ${schema}.job j ON j.name = q.name AND j.state IN ('created', 'retry', 'active', 'failed')
        GROUP BY q.name
        ORDER BY q.name`.execute(trx);
      return rows;
    });
  };
  return async () => {
    // A count that outlives a scrape goes on, and the next scrapes wait on it instead of adding more.
    running ??= count()
      .catch(() => null)
      .finally(() => {
        running = null;
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), QUEUE_COUNT_TIMEOUT_MS);
      timer.unref();
    });
    try {
      return await Promise.race([running, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
