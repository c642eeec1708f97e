import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { migrateToLatest, openDatabase, prepareEmbeddedDatabase } from './db/database';
import { waitForDatabase } from './db/wait';
import { startJobQueue } from './jobs/queue';
import { systemClock } from './lib/clock';
import { processLogger } from './lib/logger';
import { ensureFirstAdministrator } from './modules/accounts/bootstrap';
import { AccountsRepository } from './modules/accounts/repository';
import { startBackups } from './modules/backup/service';
import { restrictImageLoaders } from './modules/media/loaders';
import { SecurityRepository } from './modules/security/repository';

const SESSION_SWEEP_MS = 60 * 60 * 1000;

const startupLog = processLogger();

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // The message lists every wrong setting; a stack would only hide it.
      startupLog.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = processLogger(config.LOG_LEVEL);
  // libvips may run no loader but those of the rasters the sniff lets through (issue 38 item 2).
  log.info({ loaders: restrictImageLoaders() }, 'image loaders restricted');
  const version = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8'))
    .version as string;

  const pgliteDir = path.join(config.DATA_DIR, 'db');
  if (!config.DATABASE_URL) await prepareEmbeddedDatabase(pgliteDir, config.EMBEDDED_DB_CACHE_MB);
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir,
    pgliteCacheMb: config.EMBEDDED_DB_CACHE_MB,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  if (database.kind === 'postgres') {
    await waitForDatabase(database.db, {
      waitMs: config.DATABASE_WAIT_SECONDS * 1000,
      onRetry: (err, retryInMs) =>
        log.warn({ err: err.message, retryInMs }, 'database not answering yet: waiting'),
    });
  }
  await migrateToLatest(database.db);
  const seeded = await ensureFirstAdministrator(new AccountsRepository(database.db), {
    adminEmail: config.ADMIN_EMAIL,
    adminPassword: config.ADMIN_PASSWORD,
  });

  const jobs = await startJobQueue(database, {
    onError: (err) => log.error({ err }, 'job queue error'),
    mediaRetry: { retryLimit: 5, retryDelaySeconds: config.MEDIA_RETRY_DELAY_SECONDS },
    heartbeatSeconds: config.JOB_HEARTBEAT_SECONDS,
  });
  const app = await buildApp({ config, database, clock: systemClock, version, jobs });
  if (config.WEB_DIST_DIR && !fs.existsSync(path.join(config.WEB_DIST_DIR, 'index.html'))) {
    app.log.warn(
      { webDist: config.WEB_DIST_DIR },
      'web app not built: run `npm run build` (npm start does it)',
    );
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = config.PUBLIC_URL ?? `http://localhost:${port}`;

  const lines = [`智能图档管理中台 ${version} is running at ${url}`, `  database: ${database.kind}`];
  if (seeded.created) {
    lines.push(`  administrator created: ${seeded.adminEmail}`);
    if (seeded.generatedPassword) {
      // Printed once, on the first start only; the administrator must change it at first sign-in.
      lines.push(
        `  generated password (shown once, change it after signing in): ${seeded.generatedPassword}`,
      );
    }
  }
  console.log(lines.join('\n'));
  // `npm run backup` asks this process on the embedded database; scheduled backups run where jobs do.
  const backups = await startBackups({
    config,
    database,
    jobs,
    control: true,
    work: config.MEDIA_WORKERS > 0,
    info: (details, message) => log.info(details, message),
    warn: (details, message) => log.warn(details, message),
  });

  const sessions = new SecurityRepository(database.db);
  const sweep = setInterval(() => {
    sessions.deleteExpiredSessions(new Date()).catch((err) => app.log.warn({ err }, 'session sweep failed'));
  }, SESSION_SWEEP_MS);
  sweep.unref();

  // Shutdown drains within a bounded time: new connections are refused and idle ones closed at
  // once; requests still running after SHUTDOWN_DRAIN_MS have their connections cut; then the job
  // queue stops (its own 10 s grace for running jobs) and the database closes. Should anything
  // still hang, the process exits anyway.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(sweep);
    setTimeout(() => {
      log.error({ signal }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, config.SHUTDOWN_DRAIN_MS + 20_000).unref();
    const cutOff = setTimeout(() => {
      app.log.warn({ drainMs: config.SHUTDOWN_DRAIN_MS }, 'requests still running at shutdown: closing them');
      app.server.closeAllConnections();
    }, config.SHUTDOWN_DRAIN_MS);
    try {
      await app.close();
    } finally {
      clearTimeout(cutOff);
    }
    await backups.close();
    await jobs.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  startupLog.fatal({ err }, 'start-up failed');
  process.exit(1);
});
