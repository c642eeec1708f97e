import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { UploadStatus } from '@dam/contract';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { MAX_RENDERED_PAGES, pageKeyOf } from '../../storage/document-pages';
import { holdDeletionsOnPostgres } from './deletion-gate';
import { BackupError } from './manifest';

/** An object key the snapshot references; `required` when the object must exist (a finished record's). */
export interface ReferencedKey {
  key: string;
  required: boolean;
}

/** A database snapshot written to a file, with the object keys it references read from the same snapshot. */
export interface DatabaseSnapshot {
  schemaVersion: string | null;
  serverVersion: string;
  /** The referenced keys, in pages, read from the snapshot. */
  keys(): AsyncIterable<ReferencedKey[]>;
  /** Ends the snapshot (and, on PostgreSQL, lets object deletions run again). */
  release(): Promise<void>;
}

type Query = (text: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

const PAGE = 500;
const SCHEMA_VERSION_SQL = 'SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1';
const UPLOADS_SQL = `SELECT id, storage_key, status, thumb_key, preview_key, play_key, page_count
  FROM uploads WHERE status <> ${UploadStatus.cancelled} AND id > $1 ORDER BY id LIMIT ${PAGE}`;
// Other keys the schema holds: a folder's cover (a thumbnail) and the templates' fixed images.
const OTHER_KEYS_SQL = `SELECT cover_key AS key FROM items WHERE cover_key IS NOT NULL AND id > $1
  UNION SELECT storage_key FROM composite_assets WHERE id > $1`;

/**
 * Every object key of the snapshot, page by page: the originals and renditions of every record
 * not cancelled (an unfinished record's original need not exist yet), covers and template images.
 * New columns holding storage keys belong here.
 */
async function* referencedKeys(query: Query): AsyncIterable<ReferencedKey[]> {
  let after = 0;
  for (;;) {
    const rows = await query(UPLOADS_SQL, [after]);
    if (rows.length === 0) break;
    const page: ReferencedKey[] = [];
    for (const row of rows) {
      const storageKey = String(row.storage_key);
      page.push({ key: storageKey, required: Number(row.status) === UploadStatus.done });
      for (const column of ['thumb_key', 'preview_key', 'play_key'])
        if (row[column]) page.push({ key: String(row[column]), required: true });
      const pages = Math.min(Number(row.page_count ?? 0), MAX_RENDERED_PAGES);
      for (let n = 1; n <= pages; n += 1) page.push({ key: pageKeyOf(storageKey, n), required: true });
      after = Number(row.id);
    }
    yield page;
  }
  const others = await query(OTHER_KEYS_SQL, [0]);
  if (others.length > 0) yield others.map((row) => ({ key: String(row.key), required: true }));
}

/**
 * The embedded database's snapshot: in one PGlite transaction (which excludes every other query
 * of the process: the application's and the job queue's transactions take the same lock) the
 * referenced keys are read and the data directory is dumped (`dumpDataDir`, a checkpointed copy
 * of its files). Nothing commits between the two, so the keys are exactly the dump's.
 */
export async function snapshotEmbedded(pglite: PGlite, dumpFile: string): Promise<DatabaseSnapshot> {
  let dump: Blob | undefined;
  const keys: ReferencedKey[][] = [];
  let schemaVersion: string | null = null;
  let serverVersion = '';
  await pglite.transaction(async (tx) => {
    const query: Query = async (text, params) => (await tx.query<Record<string, unknown>>(text, params)).rows;
    serverVersion = String((await query('SHOW server_version', []))[0]?.server_version);
    schemaVersion = ((await query(SCHEMA_VERSION_SQL, []))[0]?.name as string | undefined) ?? null;
    for await (const page of referencedKeys(query)) keys.push(page);
    await tx.exec('CHECKPOINT');
    dump = await pglite.dumpDataDir('none');
  });
  if (!dump) throw new BackupError('the embedded database gave no dump');
  await fs.promises.writeFile(dumpFile, dump.stream() as unknown as AsyncIterable<Uint8Array>);
  return {
    schemaVersion,
    serverVersion: `PGlite (PostgreSQL ${serverVersion})`,
    keys: async function* () {
      yield* keys;
    },
    release: async () => {},
  };
}

/** The connection settings of a URL, the password moved to PGPASSWORD (not on a command line). */
function clientEnv(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

/** Runs a PostgreSQL client tool; throws its message, or a clear one when it is not installed. */
export async function runClientTool(
  tool: 'pg_dump' | 'pg_restore',
  args: string[],
  url: string,
): Promise<void> {
  const { dbname, env } = clientEnv(url);
  const child = spawn(tool, [...args, `--dbname=${dbname}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const [code] = (await Promise.race([
    once(child, 'exit'),
    once(child, 'error').then(([error]) => {
      throw (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? new BackupError(
            `${tool} is not installed: install the PostgreSQL client (Debian: postgresql-client)`,
          )
        : error;
    }),
  ])) as [number | null];
  if (code !== 0) throw new BackupError(`${tool} failed (exit code ${code}): ${stderr.trim()}`);
}

/** The major version of an installed client tool, or null when it is missing. */
async function clientMajor(tool: string): Promise<number | null> {
  const child = spawn(tool, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const result = await Promise.race([once(child, 'exit'), once(child, 'error').then(() => null)]);
  if (!result) return null;
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(out);
  return match ? Number(match[1]) : null;
}

/**
 * PostgreSQL's snapshot: object deletions are held off in every process (an exclusive advisory
 * lock, taken once deletions in flight end), a REPEATABLE READ transaction exports its snapshot,
 * pg_dump dumps exactly that snapshot (`--snapshot`), and the referenced keys are read from it
 * page by page while the objects are copied. `release` ends the transaction and the lock.
 */
export async function snapshotPostgres(url: string, dumpFile: string): Promise<DatabaseSnapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let releaseDeletions: (() => Promise<void>) | null = null;
  const release = async () => {
    try {
      await client.query('COMMIT').catch(() => {});
      await releaseDeletions?.();
    } finally {
      await client.end();
    }
  };
  try {
    const serverNum = Number((await client.query('SHOW server_version_num')).rows[0]?.server_version_num);
    const serverVersion = String((await client.query('SHOW server_version')).rows[0]?.server_version);
    const major = await clientMajor('pg_dump');
    if (major === null)
      throw new BackupError(
        'pg_dump is not installed: install the PostgreSQL client (Debian: postgresql-client)',
      );
    if (major < Math.floor(serverNum / 10000))
      throw new BackupError(
        `pg_dump ${major} cannot dump PostgreSQL ${serverVersion}: install the client of version ${Math.floor(serverNum / 10000)} or newer`,
      );
    releaseDeletions = await holdDeletionsOnPostgres(client);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = String((await client.query('SELECT pg_export_snapshot() AS s')).rows[0]?.s);
    const query: Query = async (text, params) => (await client.query(text, params)).rows;
    const schemaVersion = ((await query(SCHEMA_VERSION_SQL, []))[0]?.name as string | undefined) ?? null;
    await runClientTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${dumpFile}`], url);
    return {
      schemaVersion,
      serverVersion: `PostgreSQL ${serverVersion}`,
      keys: () => referencedKeys(query),
      release,
    };
  } catch (error) {
    await release();
    throw error;
  }
}
