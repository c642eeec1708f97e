import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';

/**
 * The advisory lock between object deletions (shared) and a backup (exclusive) on PostgreSQL:
 * while a backup copies the objects its snapshot references, no process deletes an object
 * (docs/decisions.md "Backups and object deletions"). A constant of this application's own.
 */
export const BACKUP_LOCK_KEY = 0x44_41_4d_42; // "DAMB"

export const DEFERRED = Symbol('deferred by a backup');

/**
 * Keeps object deletions and backups apart. A deletion runs inside `run`, which answers DEFERRED
 * instead when a backup holds the gate: the outbox row stays and the storage maintenance pass
 * sends it again later (STALE_DELETION_MS). A backup in this process `hold`s the gate: it waits
 * for the deletions already running, then holds new ones off until released. On PostgreSQL a
 * backup in another process (`npm run backup`, a worker) holds BACKUP_LOCK_KEY exclusively, and
 * every deletion takes it shared for its duration, on the connection its queries use.
 */
export class DeletionGate {
  private holds = 0;
  private running = 0;
  private idle: Array<() => void> = [];

  constructor(private readonly db: Db | null) {}

  async run<T>(deletion: (db: Kysely<Database> | null) => Promise<T>): Promise<T | typeof DEFERRED> {
    if (this.holds > 0) return DEFERRED;
    this.running += 1;
    try {
      if (!this.db) return await deletion(null);
      return await this.db.connection().execute(async (connection) => {
        const { rows } = await sql<{ ok: boolean }>`
          SELECT pg_try_advisory_lock_shared(${BACKUP_LOCK_KEY}) AS ok`.execute(connection);
        if (!rows[0]?.ok) return DEFERRED;
        try {
          return await deletion(connection);
        } finally {
          await sql`SELECT pg_advisory_unlock_shared(${BACKUP_LOCK_KEY})`.execute(connection);
        }
      });
    } finally {
      this.running -= 1;
      if (this.running === 0) for (const wake of this.idle.splice(0)) wake();
    }
  }

  /** Holds deletions in this process off; resolves once none is running. Call the answer to release. */
  async hold(): Promise<() => void> {
    this.holds += 1;
    if (this.running > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
    };
  }
}

/**
 * Takes BACKUP_LOCK_KEY exclusively on `client` (waiting for deletions in flight in every
 * process); answers its release.
 */
export async function holdDeletionsOnPostgres(client: pg.Client): Promise<() => Promise<void>> {
  await client.query('SELECT pg_advisory_lock($1)', [BACKUP_LOCK_KEY]);
  return async () => {
    await client.query('SELECT pg_advisory_unlock($1)', [BACKUP_LOCK_KEY]);
  };
}
