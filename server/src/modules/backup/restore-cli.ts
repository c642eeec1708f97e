import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config';
import { serverListening } from './control';
import { BackupError } from './manifest';
import { restoreBackup } from './restore';

const USAGE = `npm run restore -- --from DIR [--force]

Restores a backup made by \`npm run backup\` into the database and storage the environment names
(DATA_DIR, DATABASE_URL, S3_*), as the server would use them. Every checksum is verified before
anything is written; the target must be empty (a new DATA_DIR, a new database) unless --force
replaces what is there. Stop every server and worker first. See docs/backup.md.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.from) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  if (!config.DATABASE_URL && (await serverListening(config.DATA_DIR)))
    throw new BackupError(`a server is running on ${config.DATA_DIR}: stop it before restoring`);
  const report = await restoreBackup(config, values.from, {
    force: values.force === true,
    progress: (message) => console.log(message),
  });
  for (const key of report.objectsMissing) console.warn(`warning: object not in the bucket: ${key}`);
  console.log(
    `restore complete (backup of ${report.manifest.createdAt}, version ${report.manifest.appVersion}): start the server as usual`,
  );
  if (report.objectsMissing.length > 0) process.exitCode = 1;
}

main()
  // Ends at once: nothing this command opened (the database, storage clients) is left to wait for.
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((error) => {
    if (error instanceof BackupError || error instanceof ConfigError)
      console.error(`restore failed: ${error.message}`);
    else console.error('restore failed:', error);
    process.exit(1);
  });
