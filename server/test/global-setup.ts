import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '../src/db/database';
import { createPostgresDatabase } from './test-database';

/**
 * Makes the migrated database every test file of a server project starts from
 * (test-database.ts `createTestDatabase`): creating an embedded database (initdb) and running every
 * migration took about 2.7 s per test database, loading a dump of a migrated one about 0.9 s; on
 * PostgreSQL each test database is copied from a migrated template instead of being migrated
 * itself. What it made is removed again when the run ends, or at once if making it fails.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env.TEST_DB === 'postgres') {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const template = await createPostgresDatabase(serverUrl, 'dam_template');
    try {
      const handle = await openDatabase({ url: template.url, pgliteDir: null, poolSize: 1 });
      try {
        await migrateToLatest(handle.db);
      } finally {
        // A database with a session open on it cannot be a template.
        await handle.close();
      }
    } catch (error) {
      await template.drop();
      throw error;
    }
    project.provide('databaseTemplate', { kind: 'postgres', name: new URL(template.url).pathname.slice(1) });
    return template.drop;
  }
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-test-template-'));
  const removeDirectory = async () => fs.rmSync(directory, { recursive: true, force: true });
  const dumpFile = path.join(directory, 'migrated.tar');
  try {
    const handle = await openDatabase({ pgliteDir: null });
    try {
      await migrateToLatest(handle.db);
      // Written out to the files the dump takes: copies then open without crash recovery (replaying
      // the migrations' WAL) and with sequences where a fresh database has them.
      await handle.pglite?.exec('CHECKPOINT');
      const dump = await handle.pglite?.dumpDataDir('none');
      if (!dump) throw new Error('the embedded database gave no dump');
      fs.writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
    } finally {
      await handle.close();
    }
  } catch (error) {
    await removeDirectory();
    throw error;
  }
  project.provide('databaseTemplate', { kind: 'pglite', dumpFile });
  return removeDirectory;
}
