import fs from 'node:fs';
import path from 'node:path';
import { MAIN_API_PREFIX, SECURITY_API_PREFIX } from '@dam/contract';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { AppError } from './http/app-error';
import { registerConnectionLimits, serverTimeoutOptions } from './http/connection-limits';
import { registerErrorHandler } from './http/error-handler';
import { registerNulGuard } from './http/nul-guard';
import { registerRequestContext, requireSignIn } from './http/request-context';
import { fastifyTrustProxy } from './http/trust-proxy';
import { ImageWork, imageLimitsOf } from './media/image-limits';
import { MediaProcessor } from './jobs/media';
import type { JobQueue } from './jobs/queue';
import type { Clock } from './lib/clock';
import { AccessRepository } from './modules/access/access.repository';
import { AccountsRepository } from './modules/accounts/repository';
import { accountsRoutes } from './modules/accounts/routes';
import { AccountsService } from './modules/accounts/service';
import { DownloadsRepository } from './modules/downloads/repository';
import { downloadsRoutes, downloadTicketRoute } from './modules/downloads/routes';
import { DownloadsService } from './modules/downloads/service';
import { FilesRepository } from './modules/files/repository';
import { filesRoutes } from './modules/files/routes';
import { FilesService } from './modules/files/service';
import { healthRoutes } from './modules/health/routes';
import { ItemsRepository } from './modules/items/repository';
import { itemsRoutes } from './modules/items/routes';
import { ItemsService } from './modules/items/service';
import { OperationRecorder } from './modules/logs/recorder';
import { LogsRepository } from './modules/logs/repository';
import { logsRoutes } from './modules/logs/routes';
import { LogsService } from './modules/logs/service';
import { localMediaRoute } from './modules/media/routes';
import {
  CHECKED_URL_WINDOW_MS,
  localMediaUrlMaker,
  MediaUrls,
  PRESIGNED_URL_WINDOW_MS,
} from './modules/media/urls';
import { ObjectDeletionsRepository } from './modules/objects/repository';
import { ObjectCleaner, type ObjectsFreed } from './modules/objects/service';
import { PresetsRepository } from './modules/presets/repository';
import { presetsRoutes } from './modules/presets/routes';
import { PresetsService } from './modules/presets/service';
import { RateLimiter } from './modules/ratelimit/limiter';
import { RateLimitRepository } from './modules/ratelimit/repository';
import { SearchRepository } from './modules/search/repository';
import { searchRoutes } from './modules/search/routes';
import { SearchService } from './modules/search/service';
import { SecurityRepository } from './modules/security/repository';
import { securityRoutes } from './modules/security/routes';
import { ADDRESS_LIMIT_MULTIPLE, SecurityService } from './modules/security/service';
import { SharesRepository } from './modules/shares/repository';
import { sharesRoutes, shareVisitorRoutes } from './modules/shares/routes';
import { SharesService } from './modules/shares/service';
import { compileArtNumPattern } from './modules/sku/art-num';
import { SkuRepository } from './modules/sku/repository';
import { skuRoutes } from './modules/sku/routes';
import { SkuService } from './modules/sku/service';
import { TagsRepository } from './modules/tags/repository';
import { tagsRoutes } from './modules/tags/routes';
import { TagsService } from './modules/tags/service';
import { UploadsRepository } from './modules/uploads/repository';
import { localPartRoute, uploadsRoutes } from './modules/uploads/routes';
import { localPartUrlMaker, UploadsService } from './modules/uploads/service';
import { createStorage } from './storage/index';
import { LocalStorage } from './storage/local';

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  version: string;
  /** The job queue; without one (some tests) finished uploads get no thumbnails. */
  jobs?: JobQueue;
}

const API_PREFIXES = [MAIN_API_PREFIX, SECURITY_API_PREFIX, '/open', '/health'];

/** Builds the HTTP application: services wired to repositories, routes, security headers, web app. */
export async function buildApp({
  config,
  database,
  clock,
  version,
  jobs,
}: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.token', 'req.headers.cookie', 'req.headers.authorization'],
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

  const db = database.db;
  const uploadsRepository = new UploadsRepository(db);
  const partUrlSecret = await uploadsRepository.sharedSecret('part-url-secret');
  const storage = createStorage(config, localPartUrlMaker(partUrlSecret), localMediaUrlMaker(partUrlSecret));
  // Local media URLs are checked against their session on every use; S3 presigned ones cannot be,
  // so they last minutes (docs/decisions.md).
  const mediaUrls = new MediaUrls(
    storage,
    clock,
    storage instanceof LocalStorage ? CHECKED_URL_WINDOW_MS : PRESIGNED_URL_WINDOW_MS,
  );
  // Objects of removed records are recorded in the deletion outbox with the removal; this queues
  // their jobs afterwards (a lost send is re-sent by the storage maintenance pass).
  const objectsFreed: ObjectsFreed = async (keys) => {
    if (!jobs || keys.length === 0) return;
    await jobs
      .enqueueObjectDeletions(keys)
      .catch((err) => app.log.warn({ err }, 'could not queue object deletions (retried later)'));
  };

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
  await app.register(rateLimit, { global: false });

  // Sign-in and share-password limits count in the database: every server process shares them.
  const limiter = new RateLimiter(new RateLimitRepository(db), clock);
  const security = new SecurityService(
    new SecurityRepository(db),
    new AccessRepository(db),
    clock,
    {
      idleMs: config.SESSION_IDLE_HOURS * 3600_000,
      rememberMs: config.SESSION_REMEMBER_DAYS * 86_400_000,
      passwordMaxAgeDays: config.PASSWORD_MAX_AGE_DAYS,
    },
    limiter,
    {
      perIdentifier: config.LOGIN_RATE_LIMIT,
      perAddress: config.LOGIN_RATE_LIMIT * ADDRESS_LIMIT_MULTIPLE,
    },
  );

  // The operation log: route handlers record each operation right after it succeeded.
  const logs = new LogsService(new LogsRepository(db), clock, config.BUSINESS_TIME_ZONE);
  const oplog = new OperationRecorder(logs, (details, message) => app.log.warn(details, message));

  await app.register(healthRoutes, { db, version, databaseKind: database.kind });
  await app.register(securityRoutes, {
    prefix: SECURITY_API_PREFIX,
    security,
    oplog,
  });
  // Departments, users and roles: signed-in callers only; the service checks codes 2 and 3.
  const accounts = new AccountsService(new AccountsRepository(db), clock);
  await app.register(
    async (securityApi) => {
      securityApi.addHook(
        'onRequest',
        requireSignIn((token) => security.authenticate(token)),
      );
      await securityApi.register(accountsRoutes, { accounts, oplog });
    },
    { prefix: SECURITY_API_PREFIX },
  );

  const items = new ItemsService(
    new ItemsRepository(db),
    clock,
    config.BUSINESS_TIME_ZONE,
    mediaUrls,
    objectsFreed,
  );
  const tags = new TagsService({ tags: new TagsRepository(db), items: new ItemsRepository(db), clock });
  const files = new FilesService({
    files: new FilesRepository(db),
    items: new ItemsRepository(db),
    tags,
    storage,
    mediaUrls,
    clock,
    timeZone: config.BUSINESS_TIME_ZONE,
    warn: (details, message) => app.log.warn(details, message),
    objectsFreed,
  });
  const presets = new PresetsService(new PresetsRepository(db), clock);
  // One pixel limit and image memory budget for thumbnails and download conversions alike.
  const images = new ImageWork(imageLimitsOf(config));
  const downloads = new DownloadsService(
    new DownloadsRepository(db),
    storage,
    clock,
    (id) => presets.get(id),
    config.BUSINESS_TIME_ZONE,
    images,
    (key) => (storage instanceof LocalStorage ? storage.pathOf(key) : null),
    (details, message) => app.log.warn(details, message),
  );
  const uploads = new UploadsService({
    uploads: uploadsRepository,
    items,
    tags,
    storage,
    clock,
    partUrlSecret,
    objectsFreed,
    onFinished: async (uploadId) => {
      await jobs?.enqueueMedia(uploadId);
    },
    warn: (details, message) => app.log.warn(details, message),
  });
  const sku = new SkuService({
    sku: new SkuRepository(db),
    tags,
    clock,
    artNumPattern: compileArtNumPattern(config.ART_NUM_PATTERN),
  });
  const search = new SearchService(new SearchRepository(db), clock, config.BUSINESS_TIME_ZONE, mediaUrls);
  const shares = new SharesService({
    shares: new SharesRepository(db),
    items: new ItemsRepository(db),
    access: new AccessRepository(db),
    downloads,
    mediaUrls,
    clock,
    timeZone: config.BUSINESS_TIME_ZONE,
    tokenSecret: await uploadsRepository.sharedSecret('share-visitor-secret'),
    limiter,
    passwordRateLimit: config.LOGIN_RATE_LIMIT,
  });
  // Every main-API call needs a signed-in caller; features add their routes inside.
  await app.register(
    async (mainApi) => {
      mainApi.addHook(
        'onRequest',
        requireSignIn((token) => security.authenticate(token)),
      );
      await mainApi.register(itemsRoutes, { items, oplog });
      await mainApi.register(uploadsRoutes, { uploads, items, oplog });
      await mainApi.register(filesRoutes, { files, oplog });
      await mainApi.register(skuRoutes, { sku, oplog });
      await mainApi.register(downloadsRoutes, { downloads, oplog });
      await mainApi.register(presetsRoutes, { presets });
      await mainApi.register(searchRoutes, { search });
      await mainApi.register(sharesRoutes, { shares, oplog });
      await mainApi.register(tagsRoutes, { tags, oplog });
      await mainApi.register(logsRoutes, { logs, oplog, reportRateLimit: 120 });
    },
    { prefix: MAIN_API_PREFIX },
  );
  // Share-link visitors (SPEC §2 /visitfile) need no sign-in: the link's code, then a visitor token.
  await app.register(shareVisitorRoutes, {
    prefix: MAIN_API_PREFIX,
    shares,
    downloads,
    oplog,
  });
  await app.register(downloadTicketRoute, {
    prefix: MAIN_API_PREFIX,
    downloads,
    oplog,
    authenticateSession: (sessionId) => security.authenticateSession(sessionId),
  });
  if (storage instanceof LocalStorage) {
    await app.register(localPartRoute, { prefix: MAIN_API_PREFIX, uploads });
    await app.register(localMediaRoute, {
      prefix: MAIN_API_PREFIX,
      storage,
      secret: partUrlSecret,
      clock,
      // Media URLs name the session (or share link) they were made for; they die with it.
      bearerAlive: (bearer) =>
        'sessionId' in bearer ? security.sessionAlive(bearer.sessionId) : shares.linkLive(bearer.shareId),
    });
  }

  if (jobs && config.MEDIA_WORKERS > 0) {
    const media = new MediaProcessor({
      uploads: uploadsRepository,
      items: new ItemsRepository(db),
      storage,
      localPath: (key) => (storage instanceof LocalStorage ? storage.pathOf(key) : null),
      warn: (details, message) => app.log.warn(details, message),
      now: () => clock.now(),
      images,
    });
    await jobs.workMedia((uploadId) => media.process(uploadId), config.MEDIA_WORKERS);
    const cleaner = new ObjectCleaner({ objects: new ObjectDeletionsRepository(db), storage, clock });
    await jobs.workObjectDeletions({
      deleteObject: (key) => cleaner.deleteObject(key),
      maintain: () => cleaner.maintain(),
    });
  }

  const webRoot = config.WEB_DIST_DIR;
  const serveWeb = webRoot !== null && fs.existsSync(path.join(webRoot, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
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

  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    if (!isApi && serveWeb && request.method === 'GET') {
      // Client-side routes (/allfiles/…, /login) all load the single-page app.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    throw new AppError('SE_404');
  });

  return app;
}
