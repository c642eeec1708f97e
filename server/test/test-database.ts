import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../src/db/database';

/**
 * A fresh, empty database on the PostgreSQL server of `serverUrl` (named `<prefix>_<random>`), and
 * the way to drop it again (connections still open to it are ended).
 */
export async function createPostgresDatabase(
  serverUrl: string,
  prefix: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const onServer = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await onServer(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  return {
    url: Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString(),
    drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** The migrated database test files start from, made once per project by global-setup.ts. */
export type DatabaseTemplate = { kind: 'pglite'; dumpFile: string } | { kind: 'postgres'; name: string };

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

/**
 * A real database for one test file: an in-memory PGlite, or (TEST_DB=postgres) a fresh
 * database created on the PostgreSQL server of TEST_DATABASE_URL and dropped afterwards. Under
 * Vitest both start as copies of the migrated database of global-setup.ts; elsewhere (the
 * benchmarks) they are created and migrated here.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  // Imported only under Vitest: the benchmarks use this file too and measure their own process.
  const template = process.env.VITEST ? (await import('vitest')).inject('databaseTemplate') : undefined;
  if (process.env.TEST_DB !== 'postgres') {
    const handle = await openDatabase({
      pgliteDir: null,
      ...(template?.kind === 'pglite' ? { pgliteDump: new Blob([fs.readFileSync(template.dumpFile)]) } : {}),
    });
    await migrateToLatest(handle.db);
    return handle;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const database = await createPostgresDatabase(
    serverUrl,
    'dam_test',
    template?.kind === 'postgres' ? template.name : undefined,
  );
  const handle = await openDatabase({ url: database.url, pgliteDir: null, poolSize: 4 });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await database.drop();
    },
  };
}
