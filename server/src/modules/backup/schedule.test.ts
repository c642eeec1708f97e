import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDriverApp, type TestApp } from '../../../test/harness';
import { ConfigError, loadConfig } from '../../config';
import { createStorage } from '../../storage/index';
import type { ObjectStorage } from '../../storage/storage';
import { ObjectDeletionsRepository } from '../deletion-outbox/repository';
import { ObjectCleaner } from '../deletion-outbox/service';
import { serverVersion } from './backup';
import { holdDeletionsOnPostgres } from './deletion-gate';
import { MANIFEST_FILE } from './manifest';
import { deletionGateOf, runScheduledBackup } from './service';

const postgres = process.env.TEST_DB === 'postgres';

describe('backups and object deletions', () => {
  let t: TestApp & { token: string };
  let storage: ObjectStorage;
  let cleaner: ObjectCleaner;
  const dirs: string[] = [];

  beforeAll(async () => {
    t = await createDriverApp('local', { jobs: true });
    storage = createStorage(t.config, () => '');
    cleaner = new ObjectCleaner({
      objects: new ObjectDeletionsRepository(t.database.db),
      storage,
      clock: t.clock,
      gate: deletionGateOf(t.database),
    });
  });
  afterAll(async () => {
    await t.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Holds deletions off as a backup does: another process's (PostgreSQL) or this process's. */
  async function holdAsBackup(): Promise<() => Promise<void>> {
    if (!postgres) {
      const release = await deletionGateOf(t.database).hold();
      return async () => release();
    }
    const client = new pg.Client({ connectionString: t.database.url as string });
    await client.connect();
    const release = await holdDeletionsOnPostgres(client);
    return async () => {
      await release();
      await client.end();
    };
  }

  it('keeps an object recorded for deletion while a backup runs, and deletes it afterwards', async () => {
    const key = `2026/01/05/${crypto.randomUUID()}.txt`;
    await storage.write(key, Buffer.from('still referenced by a snapshot'), 'text/plain');
    await new ObjectDeletionsRepository(t.database.db).enqueueKeys([key], t.clock.now());
    const release = await holdAsBackup();
    try {
      expect(await cleaner.deleteObject(key)).toBe('deferred');
      expect(await storage.stat(key)).not.toBeNull();
    } finally {
      await release();
    }
    expect(await cleaner.deleteObject(key)).toBe('deleted');
    expect(await storage.stat(key)).toBeNull();
  });

  it('a scheduled backup is written whole and only the newest BACKUP_KEEP stay', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-scheduled-'));
    dirs.push(dir);
    // Two earlier complete backups, one a crashed run left half-written, and a file of the operator's.
    for (const name of ['dam-backup-20260103T030000Z', 'dam-backup-20260104T030000Z']) {
      fs.mkdirSync(path.join(dir, name));
      fs.writeFileSync(path.join(dir, name, MANIFEST_FILE), '{}');
    }
    fs.mkdirSync(path.join(dir, '.dam-backup-20260104T040000Z.partial'));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'kept');
    const source = {
      config: t.config,
      database: t.database,
      storage,
      gate: deletionGateOf(t.database),
      appVersion: serverVersion(),
      now: () => new Date('2026-01-05T03:00:00Z'),
    };
    expect(await runScheduledBackup(source, dir, 2)).toBe(path.join(dir, 'dam-backup-20260105T030000Z'));
    expect(fs.readdirSync(dir).sort()).toEqual([
      'dam-backup-20260104T030000Z',
      'dam-backup-20260105T030000Z',
      'notes.txt',
    ]);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(dir, 'dam-backup-20260105T030000Z', MANIFEST_FILE), 'utf8'),
    );
    expect(manifest.createdAt).toBe('2026-01-05T03:00:00.000Z');
  });

  it('the schedule is on the job queue when BACKUP_SCHEDULE is set, and gone when it is not', async () => {
    const schedules = async () =>
      (
        await sql<{ cron: string }>`SELECT cron FROM pgboss.schedule WHERE name = 'backup'`.execute(
          t.database.db,
        )
      ).rows.map((r) => r.cron);
    await t.jobs!.workBackups({ cron: '0 3 * * *', tz: 'Asia/Shanghai' }, async () => {});
    expect(await schedules()).toEqual(['0 3 * * *']);
    await t.jobs!.workBackups(null, async () => {});
    expect(await schedules()).toEqual([]);
  });
});

describe('backup settings', () => {
  it('BACKUP_SCHEDULE needs BACKUP_DIR and a five-field cron expression', () => {
    expect(() => loadConfig({ BACKUP_SCHEDULE: '0 3 * * *' })).toThrow(/BACKUP_DIR: is needed/);
    expect(() => loadConfig({ BACKUP_SCHEDULE: 'daily', BACKUP_DIR: '/b' })).toThrow(ConfigError);
    const config = loadConfig({ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_DIR: '/b' });
    expect(config.BACKUP_KEEP).toBe(7);
  });
});
