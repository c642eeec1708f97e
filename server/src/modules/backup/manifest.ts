import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * What a backup directory holds (docs/backup.md): `manifest.json` (this shape), `SHA256SUMS`
 * (`sha256sum -c` reads it), the database (`database.tar`, a PGlite data directory, or
 * `database.pgdump`, pg_dump's custom format), `objects.json` (every object of the snapshot: key,
 * size, ETag on S3, SHA-256 when its bytes are in the backup) and the objects' bytes under
 * `objects/<key>`. The manifest is written last: a directory without one is not a backup.
 */
export const MANIFEST_FILE = 'manifest.json';
export const CHECKSUMS_FILE = 'SHA256SUMS';
export const OBJECTS_FILE = 'objects.json';
export const OBJECTS_DIR = 'objects';
export const BACKUP_FORMAT = 'dam-backup';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupFile {
  /** Relative to the backup directory, with `/`. */
  path: string;
  size: number;
  sha256: string;
}

export interface BackupObject {
  key: string;
  size: number;
  /** The store's ETag (S3). */
  etag?: string;
  /** Set when the object's bytes are in the backup (`objects/<key>`). */
  sha256?: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  appVersion: string;
  runtime: { node: string; platform: string; arch: string };
  database: {
    kind: 'pglite' | 'postgres';
    file: string;
    /** The last migration applied in the snapshot (schema_migrations). */
    schemaVersion: string | null;
    serverVersion: string;
  };
  storage: {
    kind: 'local' | 's3';
    bucket?: string;
    /** Whether the objects' bytes are in the backup (always for local storage). */
    objectsIncluded: boolean;
    objectCount: number;
    objectBytes: number;
    /** Keys the snapshot references that the store did not have (reported, not fatal). */
    missing: string[];
  };
  files: BackupFile[];
}

export class BackupError extends Error {
  override name = 'BackupError';
}

/** SHA-256 and size of a file, streamed. */
export async function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file, {
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** The path of an object's bytes in a backup; refuses keys that would leave the directory. */
export function objectFilePath(key: string): string {
  const parts = key.split('/');
  if (key === '' || key.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..'))
    throw new BackupError(`object key cannot be stored in a backup: ${key}`);
  return `${OBJECTS_DIR}/${key}`;
}

/** Writes the manifest, then SHA256SUMS over every file and the manifest itself. */
export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  const manifestPath = path.join(dir, MANIFEST_FILE);
  const tmp = `${manifestPath}.tmp`;
  await fsp.writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
  const own = await hashFile(tmp);
  const lines = [...manifest.files, { path: MANIFEST_FILE, ...own }].map((f) => `${f.sha256}  ${f.path}`);
  await fsp.writeFile(path.join(dir, CHECKSUMS_FILE), `${lines.join('\n')}\n`);
  await fsp.rename(tmp, manifestPath);
}

/**
 * Reads a backup and checks every byte of it against its checksums (SHA256SUMS for the manifest,
 * the manifest for every file) before anything is restored: a missing, truncated or altered file
 * is refused, naming it.
 */
export async function verifyBackup(dir: string): Promise<BackupManifest> {
  const manifestPath = path.join(dir, MANIFEST_FILE);
  if (!fs.existsSync(manifestPath))
    throw new BackupError(`${dir} is not a complete backup: ${MANIFEST_FILE} is missing`);
  let sums: Map<string, string>;
  try {
    const text = await fsp.readFile(path.join(dir, CHECKSUMS_FILE), 'utf8');
    sums = new Map(
      text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
          const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
          if (!match) throw new BackupError(`${CHECKSUMS_FILE} has a malformed line: ${line}`);
          return [match[2] as string, match[1] as string];
        }),
    );
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${dir} is not a complete backup: ${CHECKSUMS_FILE} cannot be read`);
  }
  const manifestSum = await hashFile(manifestPath);
  if (sums.get(MANIFEST_FILE) !== manifestSum.sha256)
    throw new BackupError(`checksum mismatch: ${MANIFEST_FILE} does not match ${CHECKSUMS_FILE}`);
  const manifest = JSON.parse(await fsp.readFile(manifestPath, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.formatVersion !== BACKUP_FORMAT_VERSION)
    throw new BackupError(`${dir} is not a backup this version can read (format ${manifest.formatVersion})`);
  for (const file of manifest.files) {
    const full = path.join(dir, ...file.path.split('/'));
    if (!path.resolve(full).startsWith(path.resolve(dir) + path.sep))
      throw new BackupError(`the manifest names a file outside the backup: ${file.path}`);
    if (sums.get(file.path) !== file.sha256)
      throw new BackupError(
        `checksum mismatch: ${file.path} differs between the manifest and ${CHECKSUMS_FILE}`,
      );
    const actual = await hashFile(full).catch(() => null);
    if (!actual) throw new BackupError(`the backup is incomplete: ${file.path} is missing`);
    if (actual.size !== file.size || actual.sha256 !== file.sha256)
      throw new BackupError(`checksum mismatch: ${file.path} is damaged (SHA-256 or size differs)`);
  }
  return manifest;
}
