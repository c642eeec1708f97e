import os from 'node:os';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { migrations } from '../../db/migrations';
import type { ObjectStorage } from '../../storage/storage';

export type ReadinessChecks = { database: boolean; migrations: boolean; storage: boolean };

/** A check that has not answered in this time counts as failed: a probe must never hang. */
const CHECK_TIMEOUT_MS = 3000;
/**
 * Answers are reused this long: the probe is unauthenticated and the storage check writes an
 * object, so a stranger polling it costs at most one write per process per interval.
 */
const REUSE_MS = 5000;

function withinTime(check: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([
    check.then(
      () => true,
      () => false,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

/**
 * Whether this process can do its work: the database answers, every migration this version
 * carries has run (a process started beside an older schema is not ready), and the object storage
 * takes a write and a delete.
 */
export class Readiness {
  private last: { at: number; answer: Promise<ReadinessChecks> } | null = null;
  private readonly probeKey = `health-probe/${os.hostname()}-${process.pid}`;

  constructor(
    private readonly db: Db,
    private readonly storage: ObjectStorage,
    private readonly now: () => number = Date.now,
  ) {}

  check(): Promise<ReadinessChecks> {
    const at = this.now();
    if (this.last && at - this.last.at < REUSE_MS) return this.last.answer;
    const answer = this.run();
    this.last = { at, answer };
    return answer;
  }

  private async run(): Promise<ReadinessChecks> {
    const [database, migrationsDone, storage] = await Promise.all([
      withinTime(sql`SELECT 1`.execute(this.db)),
      withinTime(this.migrationsDone()),
      withinTime(this.storageWritable()),
    ]);
    return { database, migrations: migrationsDone, storage };
  }

  private async migrationsDone(): Promise<void> {
    const { rows } = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(this.db);
    const done = new Set(rows.map((row) => row.name));
    const missing = Object.keys(migrations).filter((name) => !done.has(name));
    if (missing.length > 0) throw new Error(`migrations not run: ${missing.join(', ')}`);
  }

  private async storageWritable(): Promise<void> {
    await this.storage.write(this.probeKey, Buffer.from('ready'), 'text/plain');
    await this.storage.delete(this.probeKey);
  }
}
