import { loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { waitForDatabase } from './db/wait';
import { startJobQueue } from './jobs/queue';
import { systemClock } from './lib/clock';
import { processLogger } from './lib/logger';
import { startBackups } from './modules/backup/service';
import { restrictImageLoaders } from './modules/media/loaders';
import { createMetrics } from './modules/metrics/metrics';
import { timedJobs } from './modules/metrics/timed-jobs';
import { startMetricsServer } from './modules/metrics/worker-server';
import { createServices, workJobs } from './services';

/**
 * `npm run worker`: media jobs and object deletions only, no HTTP. Run N of these beside stateless API processes
 * (MEDIA_WORKERS=0 on those) when thumbnails should not compete with requests. PostgreSQL only:
 * the embedded PGlite database belongs to one process.
 */
const startupLog = processLogger();

async function main(): Promise<void> {
  const config = loadConfig();
  const log = processLogger(config.LOG_LEVEL);
  // libvips may run no loader but those of the rasters the sniff lets through (issue 38 item 2).
  log.info({ loaders: restrictImageLoaders() }, 'image loaders restricted');
  if (!config.DATABASE_URL) {
    log.fatal(
      'npm run worker needs DATABASE_URL (PostgreSQL); with the embedded database, `npm start` runs the jobs itself.',
    );
    process.exit(1);
  }
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: null,
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
  const jobs = await startJobQueue(database, {
    onError: (err) => log.error({ err }, 'job queue error'),
    mediaRetry: { retryLimit: 5, retryDelaySeconds: config.MEDIA_RETRY_DELAY_SECONDS },
    heartbeatSeconds: config.JOB_HEARTBEAT_SECONDS,
  });
  // Prometheus metrics (docs/metrics.md) on METRICS_PORT: the worker has no HTTP server otherwise.
  const metrics = config.METRICS_TOKEN ? createMetrics({ database, queues: true }) : null;
  const metricsServer =
    metrics && config.METRICS_TOKEN && config.METRICS_PORT !== undefined
      ? await startMetricsServer({
          metrics,
          token: config.METRICS_TOKEN,
          port: config.METRICS_PORT,
          host: config.HOST,
        })
      : null;
  if (metricsServer) log.info({ port: metricsServer.port }, 'metrics served at /metrics');
  else if (metrics) log.warn('METRICS_TOKEN is set but METRICS_PORT is not: the worker serves no metrics');
  const services = await createServices({
    config,
    database,
    clock: systemClock,
    jobs,
    warn: (details, message) => log.warn(details, message),
    info: (details, message) => log.info(details, message),
  });
  const fontReport = services.composeFonts.startupReport();
  log.info(fontReport.info);
  for (const warning of fontReport.warnings) log.warn(warning);
  await workJobs(
    services,
    metrics ? timedJobs(jobs, metrics) : jobs,
    Math.max(1, config.MEDIA_WORKERS),
    config.COMPOSE_WORKERS,
  );
  log.info({ concurrency: Math.max(1, config.MEDIA_WORKERS) }, 'media worker running');
  const backups = await startBackups({
    config,
    database,
    jobs,
    control: false,
    work: true,
    info: (details, message) => log.info(details, message),
    warn: (details, message) => log.warn(details, message),
  });
  const stop = async () => {
    await services.mediaSweep?.stop();
    await services.metadataTool.end();
    await backups.close();
    await metricsServer?.close();
    await jobs.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err) => {
  startupLog.fatal({ err }, 'worker failed');
  process.exit(1);
});
