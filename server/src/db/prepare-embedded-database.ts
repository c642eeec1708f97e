import { migrateToLatest, openDatabase } from './database';

/**
 * `prepareEmbeddedDatabase`'s process: creates the embedded database in the directory given and
 * applies every migration, then exits (its memory goes with it).
 */
const [dir, cacheMb] = process.argv.slice(2);
if (!dir) throw new Error('usage: prepare-embedded-database <data directory> [cache MB]');
const database = await openDatabase({ pgliteDir: dir, pgliteCacheMb: Number(cacheMb) || undefined });
await migrateToLatest(database.db);
await database.close();
