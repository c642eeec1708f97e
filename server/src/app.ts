import fs from 'node:fs';
import path from 'node:path';
import { MAIN_API_PREFIX, SECURITY_API_PREFIX } from '@dam/contract';
import fastifyCompress from '@fastify/compress';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { registerRoutes } from './app-routes';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { AppError } from './http/app-error';
import { appPageHandler } from './http/app-page';
import { COMPRESSION } from './http/compression';
import { registerConnectionLimits, serverTimeoutOptions } from './http/connection-limits';
import { registerErrorHandler } from './http/error-handler';
import { registerNulGuard } from './http/nul-guard';
import { registerRequestContext } from './http/request-context';
import { fastifyTrustProxy } from './http/trust-proxy';
import type { JobQueue } from './jobs/queue';
import type { Clock } from './lib/clock';
import { createMetrics } from './modules/metrics/metrics';
import { timeRequests } from './modules/metrics/routes';
import { timedJobs } from './modules/metrics/timed-jobs';
import { afterAnswerWork } from './modules/sms/after-answer';
import { createServices, workJobs } from './services';
import type { ObjectStorage } from './storage/storage';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  version: string;
  /** The job queue; without one (some tests) finished uploads get no thumbnails. */
  jobs?: JobQueue;
}

const API_PREFIXES = [MAIN_API_PREFIX, SECURITY_API_PREFIX, '/open', '/health'];

/** Builds the HTTP application: services (services.ts), routes (app-routes.ts), security headers, web app. */
export async function buildApp({
  config,
  database,
  clock,
  version,
  jobs,
}: AppDependencies): Promise<FastifyInstance> {
  const app = createFastify(config);
  // Prometheus metrics (docs/metrics.md), only with METRICS_TOKEN: this app's own registry.
  const metrics = config.METRICS_TOKEN ? createMetrics({ database, queues: jobs !== undefined }) : null;
  if (metrics) timeRequests(app, metrics);

  const services = await createServices({
    config,
    database,
    clock,
    ...(jobs ? { jobs } : {}),
    warn: (details, message) => app.log.warn(details, message),
    info: (details, message) => app.log.info(details, message),
    ...(metrics ? { uploadPartStored: metrics.countUploadBytes } : {}),
  });
  const { composeFonts, storage, mediaSweep } = services;
  // Codes and reset links queued after their answers go out before the database closes, within
  // the drain time of the requests (main.ts's shutdown allows for no more); the rest is logged.
  let closingSince = 0;
  app.addHook('preClose', async () => {
    closingSince = Date.now();
  });
  app.addHook('onClose', async () => {
    const left = await afterAnswerWork.drain(closingSince + config.SHUTDOWN_DRAIN_MS - Date.now());
    if (left.unfinished > 0) app.log.warn(left, 'work after answers unfinished at shutdown');
  });
  // Said once at start-up: without a CJK font, Chinese on detail pages would come out as boxes.
  const fontReport = composeFonts.startupReport();
  app.log.info(fontReport.info);
  for (const warning of fontReport.warnings) app.log.warn(warning);

  await registerSecurityHeaders(app, storage);
  // Before any route: the plugin decides per route as routes are added (see http/compression.ts).
  await app.register(fastifyCompress, COMPRESSION);
  await registerRoutes(app, services, { config, database, clock, version, metrics });

  if (jobs && config.MEDIA_WORKERS > 0)
    await workJobs(
      {
        media: services.media,
        cleaner: services.cleaner,
        mail: services.mail,
        mailNotices: services.mailNotices,
        reports: services.reports,
        imports: services.imports,
        openChanges: services.openChanges,
        webhooks: services.webhooks,
        composeJob: services.composeJob,
        fingerprintBackfill: services.fingerprintBackfill,
        metadataBackfill: services.metadataBackfill,
        mediaSweep,
      },
      metrics ? timedJobs(jobs, metrics) : jobs,
      config.MEDIA_WORKERS,
      config.COMPOSE_WORKERS,
    );
  // workJobs started the lost-media-job sweep in the background: the close lets its batch in
  // progress commit and waits for it, before the queue and the database close.
  if (mediaSweep) app.addHook('onClose', () => mediaSweep.stop());
  // ExifTool's processes end with the application (a media job still reading stores nothing).
  app.addHook('onClose', () => services.metadataTool.end());

  await registerWebApp(app, config.WEB_DIST_DIR, config.FIRST_ANSWERS_WAIT_MS);
  return app;
}

/** The Fastify instance with its logging, validation, request context and error handling. */
function createFastify(config: Config): FastifyInstance {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: [
        'req.headers.token',
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-dam-signature"]',
      ],
    },
    // One line per request (onResponse below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    ...serverTimeoutOptions(config),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestContext(app);
  registerErrorHandler(app);
  registerNulGuard(app);
  registerConnectionLimits(app, config);
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        user: request.auth?.userId,
      },
      'request',
    );
  });
  return app;
}

/** Security headers (helmet): the content security policy lets the object store's origin in. */
async function registerSecurityHeaders(app: FastifyInstance, storage: ObjectStorage) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Ant Design injects its CSS-in-JS as <style> elements.
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        // Browsers send upload parts straight to the object store.
        connectSrc: ["'self'", ...(storage.browserOrigin ? [storage.browserOrigin] : [])],
        mediaSrc: ["'self'", 'blob:', ...(storage.browserOrigin ? [storage.browserOrigin] : [])],
        imgSrc: ["'self'", 'data:', 'blob:', ...(storage.browserOrigin ? [storage.browserOrigin] : [])],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Served over plain HTTP on an intranet as often as behind TLS; HSTS belongs to the proxy.
    strictTransportSecurity: false,
  });
}

/** The built web app (when there is one) and the not-found handler that serves its pages. */
async function registerWebApp(app: FastifyInstance, webRoot: string | null, answersWaitMs: number) {
  const serveWeb = webRoot !== null && fs.existsSync(path.join(webRoot, 'index.html'));
  // index.html naming the signed-in layout's chunks too (web/vite.config.ts, signedInPage).
  const signedInPage = serveWeb && fs.existsSync(path.join(webRoot, 'signed-in.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      // "/" is a page of the app like any other: the not-found handler below chooses its HTML.
      index: false,
      // The build writes .br and .gz beside each script, style and page (web/vite.config.ts).
      preCompressed: true,
      setHeaders: (res, filePath) => {
        // Vite fingerprints everything under assets/; index.html must always be revalidated.
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  const appPage = serveWeb ? appPageHandler(app, webRoot, signedInPage, answersWaitMs) : null;
  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    // Client-side routes (/allfiles/…, /login) all load the single-page app (http/app-page.ts).
    if (!isApi && appPage && (request.method === 'GET' || request.method === 'HEAD'))
      return appPage(request, reply);
    throw new AppError('SE_404');
  });
}
