import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../../config';
import { openDatabase } from '../../db/database';
import { migrations } from '../../db/migrations/index';
import { createStorage } from '../../storage/index';
import { DATA_FILES } from './backup';
import {
  BackupError,
  type BackupManifest,
  type BackupObject,
  OBJECTS_FILE,
  objectFilePath,
  verifyBackup,
} from './manifest';
import { runClientTool } from './snapshot';

export interface RestoreOptions {
  /** Restore over a database / DATA_DIR / bucket that is not empty (what is there is replaced). */
  force?: boolean;
  progress?: (message: string) => void;
}

export interface RestoreReport {
  manifest: BackupManifest;
  objectsWritten: number;
  /** S3 backups without bytes: keys the bucket lacks or holds with another ETag. */
  objectsMissing: string[];
}

const USER_SCHEMAS_SQL = `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
    AND n.nspname NOT LIKE 'pg\\_temp%'`;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function nonEmptyDir(dir: string): Promise<boolean> {
  try {
    return (await fsp.readdir(dir)).length > 0;
  } catch {
    return false;
  }
}

/** What of the target is not empty (an empty list: nothing), checked before anything is written. */
async function occupiedTargets(config: Config, manifest: BackupManifest): Promise<string[]> {
  const occupied: string[] = [];
  if (config.DATABASE_URL) {
    const tables = await withClient(
      config.DATABASE_URL,
      async (c) => (await c.query(USER_SCHEMAS_SQL)).rows[0]?.n,
    );
    if (Number(tables) > 0)
      occupied.push(`the database of DATABASE_URL holds ${tables} tables, sequences or indexes`);
  } else if (await nonEmptyDir(path.join(config.DATA_DIR, 'db'))) {
    occupied.push(`${path.join(config.DATA_DIR, 'db')} holds a database`);
  }
  if (!config.S3_BUCKET && (await nonEmptyDir(path.join(config.DATA_DIR, 'objects'))))
    occupied.push(`${path.join(config.DATA_DIR, 'objects')} holds objects`);
  if (config.S3_BUCKET && manifest.storage.objectsIncluded) {
    const storage = createStorage(config, () => '');
    for await (const page of storage.list()) {
      if (page.length > 0) occupied.push(`the bucket ${config.S3_BUCKET} holds objects`);
      break;
    }
  }
  for (const name of DATA_FILES)
    if (fs.existsSync(path.join(config.DATA_DIR, name)))
      occupied.push(`${path.join(config.DATA_DIR, name)} exists`);
  return occupied;
}

/** Restores the database dump into the configured database (empty, or emptied with force). */
async function restoreDatabase(
  config: Config,
  dir: string,
  manifest: BackupManifest,
  force: boolean,
): Promise<void> {
  const dump = path.join(dir, manifest.database.file);
  if (manifest.database.kind === 'pglite') {
    const target = path.join(config.DATA_DIR, 'db');
    if (force) await fsp.rm(target, { recursive: true, force: true });
    const handle = await openDatabase({
      pgliteDir: target,
      pgliteDump: new Blob([await fsp.readFile(dump)]),
      pgliteCacheMb: config.EMBEDDED_DB_CACHE_MB,
    });
    await handle.close();
    return;
  }
  const url = config.DATABASE_URL as string;
  if (force)
    await withClient(url, async (c) => {
      await c.query('DROP SCHEMA IF EXISTS pgboss CASCADE');
      await c.query('DROP SCHEMA IF EXISTS public CASCADE');
      await c.query('CREATE SCHEMA public');
    });
  await runClientTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', dump],
    url,
  );
}

/**
 * `npm run restore`: checks every checksum of the backup, then that the target (the database and
 * objects the environment names, as the server would use them) is empty, and only then restores:
 * the database, the objects' bytes (local, or S3 when they are in the backup) and DATA_DIR's key
 * file. An S3 backup without bytes is checked against the bucket instead: keys it lacks are reported.
 */
export async function restoreBackup(
  config: Config,
  dir: string,
  options: RestoreOptions = {},
): Promise<RestoreReport> {
  const progress = options.progress ?? (() => {});
  progress(`checking the backup in ${dir}`);
  const manifest = await verifyBackup(dir);
  const wantedKind = config.DATABASE_URL ? 'postgres' : 'pglite';
  if (manifest.database.kind !== wantedKind)
    throw new BackupError(
      `the backup holds a ${manifest.database.kind === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL'} database, ` +
        `but the environment names ${wantedKind === 'pglite' ? 'the embedded one (DATABASE_URL is unset)' : 'PostgreSQL (DATABASE_URL)'}`,
    );
  const wantedStorage = config.S3_BUCKET ? 's3' : 'local';
  if (manifest.storage.kind === 'local' && wantedStorage === 's3' && !manifest.storage.objectsIncluded)
    throw new BackupError('the backup has no object bytes to put into the bucket');
  if (manifest.storage.kind === 's3' && wantedStorage === 'local' && !manifest.storage.objectsIncluded)
    throw new BackupError(
      'the backup lists S3 objects without their bytes: restore it with the S3_* settings of its bucket',
    );
  const known = Object.keys(migrations);
  if (manifest.database.schemaVersion && !known.includes(manifest.database.schemaVersion))
    throw new BackupError(
      `the backup's schema (${manifest.database.schemaVersion}) is newer than this version knows: restore it with version ${manifest.appVersion} or later`,
    );
  const occupied = await occupiedTargets(config, manifest);
  if (occupied.length > 0 && !options.force)
    throw new BackupError(
      `the target is not empty, nothing was changed:\n  ${occupied.join('\n  ')}\nRestore into an empty DATA_DIR / database, or pass --force to replace what is there`,
    );
  progress(
    `restoring the ${manifest.database.kind} database (schema ${manifest.database.schemaVersion ?? 'empty'})`,
  );
  await restoreDatabase(config, dir, manifest, options.force === true);
  const objects = JSON.parse(await fsp.readFile(path.join(dir, OBJECTS_FILE), 'utf8')) as BackupObject[];
  const storage = createStorage(config, () => '');
  let objectsWritten = 0;
  const objectsMissing: string[] = [];
  if (manifest.storage.objectsIncluded) {
    progress(`restoring ${objects.length} objects`);
    for (const object of objects) {
      const file = path.join(dir, ...objectFilePath(object.key).split('/'));
      await storage.writeFile(object.key, file, 'application/octet-stream');
      objectsWritten += 1;
    }
  } else {
    progress(`checking ${objects.length} objects in the bucket ${config.S3_BUCKET}`);
    for (const object of objects) {
      const info = await storage.stat(object.key);
      if (!info || info.size !== object.size || (object.etag && info.etag && info.etag !== object.etag))
        objectsMissing.push(object.key);
    }
  }
  for (const name of DATA_FILES) {
    const from = path.join(dir, 'data', name);
    if (!fs.existsSync(from)) continue;
    await fsp.mkdir(config.DATA_DIR, { recursive: true });
    await fsp.copyFile(from, path.join(config.DATA_DIR, name));
    await fsp.chmod(path.join(config.DATA_DIR, name), 0o600);
  }
  progress(
    `restored: ${objectsWritten} objects written` +
      (objectsMissing.length > 0
        ? `; ${objectsMissing.length} objects of the backup are not in the bucket`
        : ''),
  );
  return { manifest, objectsWritten, objectsMissing };
}
