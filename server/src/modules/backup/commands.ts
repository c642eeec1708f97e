import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import { openDatabase } from '../../db/database';
import { createStorage } from '../../storage/index';
import { serverVersion, takeBackup } from './backup';
import { askServer } from './control';
import { DeletionGate } from './deletion-gate';
import { BackupError, type BackupManifest } from './manifest';
import { deletionGateOf } from './service';

/**
 * `npm run backup`'s work, with the server's environment: on the embedded database, the running
 * server takes the backup (control channel); with no server running, the database is opened here.
 * On PostgreSQL this process takes it (pg_dump), whatever else runs.
 */
export async function runBackupCommand(
  config: Config,
  options: { out: string; withObjects: boolean },
  progress: (message: string) => void,
): Promise<BackupManifest> {
  const out = path.resolve(options.out);
  if (!config.DATABASE_URL) {
    const asked = await askServer(
      config.DATA_DIR,
      { command: 'backup', out, withObjects: options.withObjects },
      progress,
    );
    if (asked !== 'not-running') return asked;
    const dir = path.join(config.DATA_DIR, 'db');
    if (!fs.existsSync(path.join(dir, 'PG_VERSION')))
      throw new BackupError(
        `no embedded database at ${dir}: set DATA_DIR (or DATABASE_URL) as the server has it`,
      );
    if (fs.existsSync(path.join(dir, 'postmaster.pid')))
      throw new BackupError(
        `the embedded database at ${dir} is in use but no server answers on its control socket: ` +
          'if a server runs on this DATA_DIR, its DATA_DIR path is too long for the socket (stop it first); ' +
          'if none runs, the last one did not stop cleanly: start the server and run the backup again',
      );
  }
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: path.join(config.DATA_DIR, 'db'),
    pgliteCacheMb: config.EMBEDDED_DB_CACHE_MB,
    poolSize: 2,
  });
  try {
    return await takeBackup(
      {
        config,
        database,
        storage: createStorage(config, () => ''),
        // The embedded database is this process's alone: nothing else deletes objects meanwhile.
        gate: database.kind === 'postgres' ? deletionGateOf(database) : new DeletionGate(null),
        appVersion: serverVersion(),
        progress,
      },
      out,
      { withObjects: options.withObjects },
    );
  } finally {
    await database.close();
  }
}
