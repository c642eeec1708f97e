import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config';
import { runBackupCommand } from './commands';
import { BackupError } from './manifest';

const USAGE = `npm run backup -- --out DIR [--with-objects]

Takes a consistent, point-in-time backup into DIR (new or empty), with the environment of the
server (DATA_DIR, DATABASE_URL, S3_*): the database as one snapshot and the objects it references
(local storage: their bytes; S3: their keys, sizes and ETags, and their bytes with --with-objects),
a manifest and SHA-256 checksums. The server may keep running. See docs/backup.md.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      'with-objects': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.out) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  const manifest = await runBackupCommand(
    config,
    { out: values.out, withObjects: values['with-objects'] === true },
    (message) => console.log(message),
  );
  for (const key of manifest.storage.missing)
    console.warn(`warning: referenced object missing from storage: ${key}`);
  console.log(
    `backup complete: ${manifest.database.kind} database (schema ${manifest.database.schemaVersion}), ` +
      `${manifest.storage.objectCount} objects (${manifest.storage.objectBytes} bytes${manifest.storage.objectsIncluded ? '' : ', listed only'})`,
  );
}

main()
  // Ends at once: nothing this command opened (the database, storage clients) is left to wait for.
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((error) => {
    if (error instanceof BackupError || error instanceof ConfigError)
      console.error(`backup failed: ${error.message}`);
    else console.error('backup failed:', error);
    process.exit(1);
  });
