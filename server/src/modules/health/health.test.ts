import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { openDatabase } from '../../db/database';
import { waitForDatabase } from '../../db/wait';
import { LocalStorage } from '../../storage/local';
import { Readiness } from './readiness';

describe('health answers for orchestrators', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('tells the version, database and the runtime the process runs on', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({
      status: 'ok',
      database: t.database.kind,
      runtime: process.version,
    });
  });

  it('is live and ready when database, migrations and storage are', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(live.json()).toMatchObject({ success: true, result: { status: 'alive' } });
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().result).toEqual({
      status: 'ready',
      checks: { database: true, migrations: true, storage: true },
    });
    // The storage probe leaves nothing behind.
    expect(fs.readdirSync(path.join(t.config.DATA_DIR, 'objects', 'health-probe'))).toEqual([]);
  });
});

describe('readiness checks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is not ready while a migration of this version has not run, nor when storage refuses writes', async () => {
    const objectsDir = path.join(t.config.DATA_DIR, 'probe-objects');
    // A file where the objects' directory should be: every write fails, as on a full or read-only disk.
    fs.writeFileSync(objectsDir, 'not a directory');
    const storage = new LocalStorage(
      objectsDir,
      () => '',
      () => '',
    );
    let now = 0;
    const readiness = new Readiness(t.database.db, storage, () => now);
    expect(await readiness.check()).toEqual({ database: true, migrations: true, storage: false });

    const { rows } = await sql<{ name: string }>`SELECT max(name) AS name FROM schema_migrations`.execute(
      t.database.db,
    );
    const newest = rows[0]?.name ?? '';
    await sql`DELETE FROM schema_migrations WHERE name = ${newest}`.execute(t.database.db);
    // The answer is reused for a few seconds, then asked again.
    expect((await readiness.check()).migrations).toBe(true);
    now += 10_000;
    expect((await readiness.check()).migrations).toBe(false);
    await sql`INSERT INTO schema_migrations (name, timestamp) VALUES (${newest}, now()::text)`.execute(
      t.database.db,
    );
  });
});

describe.skipIf(process.env.TEST_DB !== 'postgres')('a process started before its database', () => {
  it('waits for PostgreSQL to come up, then goes on', async () => {
    const upstream = new URL(process.env.TEST_DATABASE_URL ?? '');
    // Take a free port, then let it go: nothing listens there until the "database" comes up.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address() as net.AddressInfo;
        probe.close(() => resolve(address.port));
      });
    });
    const proxy = net.createServer((client) => {
      const server = net.connect(Number(upstream.port || 5432), upstream.hostname);
      client.pipe(server).pipe(client);
      client.on('error', () => server.destroy());
      server.on('error', () => client.destroy());
    });
    const database = await openDatabase({
      url: Object.assign(new URL(upstream), { port: String(port) }).toString(),
      pgliteDir: null,
    });
    const retries: number[] = [];
    try {
      await waitForDatabase(database.db, {
        waitMs: 60_000,
        onRetry: (_error, retryInMs) => retries.push(retryInMs),
        // The database comes up during the second pause.
        sleep: async () => {
          if (retries.length === 2)
            await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
        },
      });
      expect(retries).toEqual([500, 1000]);
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
      expect(rows[0]?.one).toBe(1);
    } finally {
      await database.close();
      proxy.close();
    }
  });

  it('gives up with the last error once the wait is over', async () => {
    const database = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/none', pgliteDir: null });
    let now = 0;
    const pauses: number[] = [];
    try {
      await expect(
        waitForDatabase(database.db, {
          waitMs: 2000,
          now: () => now,
          onRetry: (_error, retryInMs) => pauses.push(retryInMs),
          sleep: async (ms) => {
            now += ms;
          },
        }),
      ).rejects.toThrow(/ECONNREFUSED/);
      expect(pauses).toEqual([500, 1000, 500]);
    } finally {
      await database.close();
    }
  });
});
