import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UploadStatus } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadFiles } from '../../../test/factories';
import {
  createDriverApp,
  createPostgresDatabase,
  s3Env,
  startS3Server,
  type TestApp,
} from '../../../test/harness';
import { type Config, loadConfig } from '../../config';
import { type DatabaseHandle, openDatabase } from '../../db/database';
import { createStorage } from '../../storage/index';
import { serverVersion, takeBackup } from './backup';
import { runBackupCommand } from './commands';
import { startControlServer } from './control';
import { MANIFEST_FILE, OBJECTS_FILE } from './manifest';
import { restoreBackup } from './restore';
import { deletionGateOf } from './service';

const postgres = process.env.TEST_DB === 'postgres';
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const someFiles = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    fileName: `${prefix}-${i}-${randomBytes(3).toString('hex')}.txt`,
    bytes: randomBytes(2000 + i * 997),
  }));

/** The file tree of a directory with sizes and modification times: what "changes nothing" compares. */
function treeState(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort().map((entry) => {
    const stat = fs.statSync(path.join(dir, entry));
    return `${entry} ${stat.isFile() ? stat.size : 'dir'} ${stat.mtimeMs}`;
  });
}

describe.each(['local', 's3'] as const)('restore drill (%s storage)', (driver) => {
  let t: TestApp & { token: string };
  let backupConfig: Config;
  let control: { close(): Promise<void> } | null = null;
  const cleanups: Array<() => Promise<void> | void> = [];
  let backupDir: string;
  /** What was uploaded before the backup started: name → SHA-256. */
  const before = new Map<string, string>();
  /** Uploaded while the backup ran, and after it ended. */
  const during = new Map<string, string>();
  const after = new Map<string, string>();
  /** The installation the drill restored into. */
  let restoredTarget: Awaited<ReturnType<typeof freshTarget>> | null = null;

  /** A fresh installation: a new DATA_DIR, a new database on PostgreSQL, a new bucket on S3. */
  async function freshTarget(): Promise<{ config: Config; open(): Promise<DatabaseHandle> }> {
    const dataDir = tmp('dam-restore-');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    if (driver === 's3') {
      const s3 = await startS3Server('dam-restore');
      cleanups.push(() => s3.close());
      Object.assign(env, s3Env(s3));
    }
    if (postgres) {
      const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL as string, 'dam_restore');
      cleanups.push(() => database.drop());
      env.DATABASE_URL = database.url;
    }
    const config = loadConfig(env);
    return {
      config,
      open: () =>
        openDatabase({ url: config.DATABASE_URL, pgliteDir: path.join(dataDir, 'db'), poolSize: 2 }),
    };
  }

  beforeAll(async () => {
    t = await createDriverApp(driver);
    const env: Record<string, string> = { DATA_DIR: t.config.DATA_DIR, LOG_LEVEL: 'silent' };
    if (t.config.S3_BUCKET) {
      Object.assign(env, {
        S3_BUCKET: t.config.S3_BUCKET,
        S3_ENDPOINT: t.config.S3_ENDPOINT as string,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      });
    }
    if (t.database.url) env.DATABASE_URL = t.database.url;
    backupConfig = loadConfig(env);
    if (t.database.kind === 'pglite') {
      // The running server's control channel: `npm run backup` asks it, as it would a real server.
      const source = {
        config: t.config,
        database: t.database,
        storage: createStorage(t.config, () => ''),
        gate: deletionGateOf(t.database),
        appVersion: serverVersion(),
      };
      control = await startControlServer(t.config.DATA_DIR, (request, progress) =>
        takeBackup({ ...source, progress }, request.out, { withObjects: request.withObjects }),
      );
    }
    backupDir = path.join(tmp('dam-backup-'), 'backup');
    cleanups.push(() => fs.rmSync(path.dirname(backupDir), { recursive: true, force: true }));

    const first = someFiles('before', 4);
    await uploadFiles(t, t.token, first);
    for (const f of first) before.set(f.fileName, sha(f.bytes));
    // A backup taken while uploads run: whatever of them the snapshot holds comes with its bytes.
    const racing = someFiles('during', 4);
    for (const f of racing) during.set(f.fileName, sha(f.bytes));
    const uploads = Promise.all(racing.map((f) => uploadFiles(t, t.token, [f])));
    await runBackupCommand(backupConfig, { out: backupDir, withObjects: true }, () => {});
    await uploads;
    const later = someFiles('after', 2);
    await uploadFiles(t, t.token, later);
    for (const f of later) after.set(f.fileName, sha(f.bytes));
  });

  afterAll(async () => {
    await control?.close();
    await t.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('writes a manifest naming the database, the runtime and every file with its SHA-256', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, MANIFEST_FILE), 'utf8'));
    expect(manifest).toMatchObject({
      format: 'dam-backup',
      runtime: { node: process.version },
      database: { kind: postgres ? 'postgres' : 'pglite' },
      storage: { kind: driver, objectsIncluded: true, missing: [] },
    });
    expect(manifest.database.schemaVersion).toMatch(/^\d{3}_/);
    for (const file of manifest.files) {
      const bytes = fs.readFileSync(path.join(backupDir, file.path));
      expect(sha(bytes)).toBe(file.sha256);
    }
    expect(fs.readFileSync(path.join(backupDir, 'SHA256SUMS'), 'utf8')).toContain(`  ${MANIFEST_FILE}`);
  });

  it('restores into a fresh installation: every file with equal bytes, nothing uploaded after the backup', async () => {
    const target = await freshTarget();
    await restoreBackup(target.config, backupDir);
    restoredTarget = target;
    const database = await target.open();
    try {
      const rows = await database.db
        .selectFrom('uploads')
        .select(['file_name', 'storage_key', 'status'])
        .execute();
      const storage = createStorage(target.config, () => '');
      const restored = new Map<string, string>();
      for (const row of rows.filter((r) => r.status === UploadStatus.done)) {
        const chunks: Buffer[] = [];
        for await (const chunk of await storage.read(row.storage_key)) chunks.push(chunk as Buffer);
        restored.set(row.file_name, sha(Buffer.concat(chunks)));
      }
      for (const [name, digest] of before) expect(restored.get(name), name).toBe(digest);
      for (const [name, digest] of restored) {
        expect(after.has(name), `${name} was uploaded after the backup`).toBe(false);
        expect(before.get(name) ?? during.get(name)).toBe(digest);
      }
    } finally {
      await database.close();
    }
  });

  it('refuses a target that is not empty and changes nothing', async () => {
    let target = restoredTarget;
    if (!target) {
      target = await freshTarget();
      await restoreBackup(target.config, backupDir);
    }
    const { open } = target;
    const uploads = async () => {
      const database = await open();
      try {
        return await database.db.selectFrom('uploads').select(['id', 'storage_key']).orderBy('id').execute();
      } finally {
        await database.close();
      }
    };
    const rows = await uploads();
    const files = treeState(target.config.DATA_DIR);
    await expect(restoreBackup(target.config, backupDir)).rejects.toThrow(/not empty, nothing was changed/);
    expect(treeState(target.config.DATA_DIR)).toEqual(files);
    expect(await uploads()).toEqual(rows);
  });

  it('refuses a damaged backup before writing anything', async () => {
    const damaged = path.join(path.dirname(backupDir), 'damaged');
    fs.cpSync(backupDir, damaged, { recursive: true });
    const objects = JSON.parse(fs.readFileSync(path.join(damaged, OBJECTS_FILE), 'utf8')) as Array<{
      key: string;
    }>;
    const victim = path.join(damaged, 'objects', ...(objects[0] as { key: string }).key.split('/'));
    const bytes = fs.readFileSync(victim);
    bytes[0] = (bytes[0] as number) ^ 0xff;
    fs.writeFileSync(victim, bytes);
    const target = await freshTarget();
    await expect(restoreBackup(target.config, damaged)).rejects.toThrow(/checksum mismatch: objects\//);
    expect(treeState(target.config.DATA_DIR)).toEqual([]);
    if (postgres) {
      const database = await target.open();
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_tables
        WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`.execute(database.db);
      expect(rows[0]?.n).toBe(0);
      await database.close();
    }
    if (driver === 's3') {
      let listed = 0;
      for await (const page of createStorage(target.config, () => '').list()) listed += page.length;
      expect(listed).toBe(0);
    }
  });
});
