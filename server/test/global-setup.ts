import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '../src/db/database';
import { createPostgresDatabase } from './test-database';

/**
 * Makes the migrated database every test file of a server project starts from (harness.ts
 * `createTestDatabase`): creating an embedded database (initdb) and running every migration took
 * about 2.7 s per test database, loading a dump of a migrated one about 0.9 s; on PostgreSQL each
 * test database is copied from a migrated template instead of being migrated itself.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env.TEST_DB === 'postgres') {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const template = await createPostgresDatabase(serverUrl, 'dam_template');
    const handle = await openDatabase({ url: template.url, pgliteDir: null, poolSize: 1 });
    try {
      await migrateToLatest(handle.db);
    } finally {
      // A database with a session open on it cannot be a template.
      await handle.close();
    }
    project.provide('databaseTemplate', { kind: 'postgres', name: new URL(template.url).pathname.slice(1) });
    return template.drop;
  }
  const handle = await openDatabase({ pgliteDir: null });
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-test-template-'));
  const dumpFile = path.join(directory, 'migrated.tar');
  try {
    await migrateToLatest(handle.db);
    const dump = await handle.pglite?.dumpDataDir('none');
    if (!dump) throw new Error('the embedded database gave no dump');
    fs.writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await handle.close();
  }
  project.provide('databaseTemplate', { kind: 'pglite', dumpFile });
  return async () => fs.rmSync(directory, { recursive: true, force: true });
}
