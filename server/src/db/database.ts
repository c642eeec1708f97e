import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrations } from './migrations/index';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PGlite instance when embedded (the job queue shares it). */
  pglite: PGlite | null;
  /** The PostgreSQL connection string, when not embedded (the job queue opens its own pool). */
  url: string | null;
  /** The connection pool on PostgreSQL (its use is reported as metrics: modules/metrics). */
  pool?: pg.Pool;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** Directory of the embedded database; `null` keeps it in memory (tests). */
  pgliteDir: string | null;
  /** shared_buffers of the embedded database in MB (PGlite's own default, 128, when absent). */
  pgliteCacheMb?: number;
  /** A dump of an embedded database (PGlite `dumpDataDir`) to start from instead of a new one. */
  pgliteDump?: Blob;
  poolSize?: number;
}

/**
 * bigint (ids, counts, sizes) as JS numbers: exact up to 2^53, far beyond any id or byte count
 * here; dates (validity) as their YYYY-MM-DD text, free of time-zone shifts.
 */
const INT8_OID = 20;
const DATE_OID = 1082;
const parseInt8 = (value: string) => Number(value);
const keepText = (value: string) => value;
pg.types.setTypeParser(INT8_OID, parseInt8);
pg.types.setTypeParser(DATE_OID, keepText);

/** Opens PostgreSQL or the embedded PGlite; both speak the same SQL dialect. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // TCP keep-alive finds connections that died silently (a network partition, a failover
      // without a goodbye) instead of a request hanging on them.
      keepAlive: true,
    });
    // A connection the server drops (restart, failover, pg_terminate_backend) must not crash the
    // process. pg emits 'error' on the Client, and pg-pool listens only while the client is idle:
    // a checked-out client needs a listener of its own for all of its life. The query in flight
    // fails (the request answers SE_500), the pool discards the dead client when it is released
    // (it is no longer queryable) and the next query opens a fresh connection. One warning per
    // lost connection (a terminated backend reports its FATAL message, then the closed socket).
    const reported = new WeakSet<pg.PoolClient>();
    const lost = (error: Error, client: pg.PoolClient) => {
      if (reported.has(client)) return;
      reported.add(client);
      process.emitWarning(`PostgreSQL connection lost: ${error.message}`, { code: 'DAM_DB_CONNECTION_LOST' });
    };
    pool.on('connect', (client) => client.on('error', (error) => lost(error, client)));
    pool.on('error', lost);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', pglite: null, url: options.url, pool, close: () => db.destroy() };
  }
  if (options.pgliteDir) fs.mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  const pglite = await PGlite.create({
    ...(options.pgliteDir ? { dataDir: options.pgliteDir } : {}),
    ...(options.pgliteDump ? { loadDataDir: options.pgliteDump } : {}),
    extensions: { pg_trgm },
    parsers: { [INT8_OID]: parseInt8, [DATE_OID]: keepText },
    postgresqlconf: embeddedConf(options.pgliteCacheMb),
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return { db, kind: 'pglite', pglite, url: null, close: () => db.destroy() };
}

/**
 * PGlite's postgresql.conf (it replaces the one initdb wrote). PostgreSQL's main shared memory
 * segment defaults to an anonymous mmap, which Emscripten emulates by allocating and zeroing the
 * whole region, so shared_buffers, the WAL and SLRU buffers and the lock tables were resident from
 * the first second whether used or not. As System V shared memory, PGlite allocates the segment
 * from its heap without touching it: only pages PostgreSQL uses become resident (about 20 MiB less
 * for an idle server; see decisions.md, "Embedded database memory").
 */
function embeddedConf(cacheMb: number | undefined): string {
  return ['shared_memory_type = sysv', ...(cacheMb ? [`shared_buffers = ${cacheMb}MB`] : [])].join('\n');
}

/**
 * Creates and migrates a new embedded database in a short-lived process of its own, so the
 * memory that initdb and the first migrations take in PGlite's WebAssembly heap (which never
 * shrinks) goes back to the system instead of staying with the server for its whole life: on a
 * fresh data directory the server then starts as small as on a restart. Does nothing when the
 * directory already holds a database (later migrations are small and run in the server).
 */
export async function prepareEmbeddedDatabase(dir: string, cacheMb: number): Promise<void> {
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return;
  // The entry sits beside this module: src/db/*.ts under tsx, server/dist/*.js when compiled.
  const extension = path.extname(import.meta.filename);
  const entry = path.join(import.meta.dirname, `prepare-embedded-database${extension}`);
  const child = spawn(process.execPath, [...process.execArgv, entry, dir, String(cacheMb)], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`creating the embedded database in ${dir} failed (exit code ${code})`);
}

/** Applies every pending migration; throws (stopping start-up) if one fails. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
