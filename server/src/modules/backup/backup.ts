import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config';
import type { DatabaseHandle } from '../../db/database';
import type { ObjectStorage } from '../../storage/storage';
import type { DeletionGate } from './deletion-gate';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  type BackupFile,
  type BackupManifest,
  type BackupObject,
  hashFile,
  OBJECTS_FILE,
  objectFilePath,
  writeManifest,
} from './manifest';
import { type DatabaseSnapshot, type ReferencedKey, snapshotEmbedded, snapshotPostgres } from './snapshot';

/** Files of DATA_DIR besides the database and objects that a restore needs (the open API's key). */
export const DATA_FILES = ['open-api.key'] as const;

export interface BackupSource {
  config: Config;
  database: DatabaseHandle;
  storage: ObjectStorage;
  /** The deletion gate of this process (the server's, when it takes the backup in-process). */
  gate: DeletionGate | null;
  appVersion: string;
  now?: () => Date;
  progress?: (message: string) => void;
}

export interface BackupOptions {
  /** S3: copy the objects' bytes too, not only their keys, sizes and ETags. Local: always. */
  withObjects?: boolean;
}

/** How many objects are copied (or looked up) at once. */
const COPY_LANES = 8;

/** The backup directory must be new or empty: a backup never mixes with other files. */
export async function prepareOutDir(out: string): Promise<void> {
  await fsp.mkdir(out, { recursive: true });
  const entries = await fsp.readdir(out);
  if (entries.length > 0) throw new BackupError(`${out} is not empty: give a new or empty directory`);
}

/** The version in the server's package.json, found from this module in src/ or dist/. */
export function serverVersion(): string {
  for (let dir = import.meta.dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === '@dam/server') return pkg.version ?? 'unknown';
  }
  return 'unknown';
}

async function copyObject(storage: ObjectStorage, key: string, out: string): Promise<BackupFile> {
  const relative = objectFilePath(key);
  const target = path.join(out, ...relative.split('/'));
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(await storage.read(key), tap, fs.createWriteStream(target));
  return { path: relative, size, sha256: hash.digest('hex') };
}

/**
 * Takes a consistent, point-in-time backup into `out` (new or empty): the database as one
 * snapshot and, from the same snapshot, every object it references (docs/backup.md). Object
 * deletions are held off from just before the snapshot until the last object is copied, so no
 * byte the snapshot references can go meanwhile; objects stored after the snapshot are not
 * copied, since the snapshot does not reference them.
 */
export async function takeBackup(
  source: BackupSource,
  out: string,
  options: BackupOptions = {},
): Promise<BackupManifest> {
  const { config, database, storage } = source;
  const progress = source.progress ?? (() => {});
  const now = source.now ?? (() => new Date());
  await prepareOutDir(out);
  // A backup holds every file and DATA_DIR's key: readable by its owner only.
  await fsp.chmod(out, 0o700);
  const withBytes = storage.kind === 'local' || options.withObjects === true;
  const dbFile = database.kind === 'pglite' ? 'database.tar' : 'database.pgdump';
  const files: BackupFile[] = [];
  const objects: BackupObject[] = [];
  const missing: string[] = [];
  const releaseGate = (await source.gate?.hold()) ?? (() => {});
  let snapshot: DatabaseSnapshot | null = null;
  const createdAt = now().toISOString();
  try {
    progress(`taking the database snapshot (${database.kind})`);
    snapshot =
      database.kind === 'pglite' && database.pglite
        ? await snapshotEmbedded(database.pglite, path.join(out, dbFile))
        : await snapshotPostgres(database.url as string, path.join(out, dbFile));
    progress(
      withBytes
        ? 'copying the objects the snapshot references'
        : 'listing the objects the snapshot references',
    );
    const seen = new Set<string>();
    const handle = async ({ key, required }: ReferencedKey) => {
      const info = await storage.stat(key);
      if (!info) {
        if (required) missing.push(key);
        return;
      }
      const entry: BackupObject = { key, size: info.size, ...(info.etag ? { etag: info.etag } : {}) };
      if (withBytes) {
        const file = await copyObject(storage, key, out);
        files.push(file);
        entry.size = file.size;
        entry.sha256 = file.sha256;
      }
      objects.push(entry);
    };
    for await (const page of snapshot.keys()) {
      const fresh = page.filter(({ key }) => !seen.has(key) && seen.add(key));
      for (let i = 0; i < fresh.length; i += COPY_LANES)
        await Promise.all(fresh.slice(i, i + COPY_LANES).map(handle));
    }
  } finally {
    await snapshot?.release();
    releaseGate();
  }
  for (const name of DATA_FILES) {
    const from = path.join(config.DATA_DIR, name);
    if (!fs.existsSync(from)) continue;
    await fsp.mkdir(path.join(out, 'data'), { recursive: true });
    await fsp.copyFile(from, path.join(out, 'data', name));
    await fsp.chmod(path.join(out, 'data', name), 0o600);
    files.push({ path: `data/${name}`, ...(await hashFile(path.join(out, 'data', name))) });
  }
  objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  await fsp.writeFile(path.join(out, OBJECTS_FILE), `${JSON.stringify(objects)}\n`);
  files.unshift(
    { path: dbFile, ...(await hashFile(path.join(out, dbFile))) },
    { path: OBJECTS_FILE, ...(await hashFile(path.join(out, OBJECTS_FILE))) },
  );
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt,
    appVersion: source.appVersion,
    runtime: { node: process.version, platform: process.platform, arch: process.arch },
    database: {
      kind: database.kind,
      file: dbFile,
      schemaVersion: snapshot.schemaVersion,
      serverVersion: snapshot.serverVersion,
    },
    storage: {
      kind: storage.kind,
      ...(config.S3_BUCKET ? { bucket: config.S3_BUCKET } : {}),
      objectsIncluded: withBytes,
      objectCount: objects.length,
      objectBytes: objects.reduce((sum, o) => sum + o.size, 0),
      missing: missing.sort(),
    },
    files,
  };
  await writeManifest(out, manifest);
  progress(
    `backup written to ${out}: ${objects.length} objects, ${files.length} files` +
      (missing.length > 0 ? `; ${missing.length} referenced objects were missing from storage` : ''),
  );
  return manifest;
}
