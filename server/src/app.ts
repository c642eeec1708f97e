import fs from 'node:fs';
import path from 'node:path';
import { MAIN_API_PREFIX, SECURITY_API_PREFIX } from '@dam/contract';
import fastifyCompress from '@fastify/compress';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { AppError } from './http/app-error';
import { appPageHandler } from './http/app-page';
import { COMPRESSION } from './http/compression';
import { registerConnectionLimits, serverTimeoutOptions } from './http/connection-limits';
import { registerErrorHandler } from './http/error-handler';
import { registerNulGuard } from './http/nul-guard';
import { registerRequestContext, requireSignIn } from './http/request-context';
import { fastifyTrustProxy } from './http/trust-proxy';
import type { JobQueue } from './jobs/queue';
import type { Clock } from './lib/clock';
import { accountsRoutes } from './modules/accounts/routes';
import { clientRoutes } from './modules/clients/routes';
import { completenessRoutes } from './modules/completeness/routes';
import { makerRoutes } from './modules/composite/maker.routes';
import { compositeTemplatesRoutes } from './modules/composite/templates.routes';
import { downloadsRoutes, downloadTicketRoute } from './modules/downloads/routes';
import { filesRoutes } from './modules/files/routes';
import { Readiness } from './modules/health/readiness';
import { healthRoutes } from './modules/health/routes';
import { importsRoutes } from './modules/imports/routes';
import { itemsRoutes } from './modules/items/routes';
import { jobsAdminRoutes } from './modules/jobs-admin/routes';
import { logsRoutes } from './modules/logs/routes';
import { mailRoutes } from './modules/mail/routes';
import { mailGroupsRoutes } from './modules/mail-groups/routes';
import { mailNoticePictureRoute, mailNoticesRoutes } from './modules/mail-notices/routes';
import { mediaRightsOf } from './modules/media/rights';
import { localMediaRoute } from './modules/media/routes';
import { createMetrics } from './modules/metrics/metrics';
import { metricsRoute, timeRequests } from './modules/metrics/routes';
import { timedJobs } from './modules/metrics/timed-jobs';
import { openAdminRoutes } from './modules/open-api/admin/routes';
import { openAssetsRoutes } from './modules/open-api/assets/routes';
import { registerOpenAuth } from './modules/open-api/auth/hooks.routes';
import { openCatalogueRoutes } from './modules/open-api/catalogue/routes';
import { openChangesRoutes } from './modules/open-api/changes/routes';
import { openApiDocumentRoutes, openDocsRoutes } from './modules/open-api/docs/routes';
import { openDownloadRoute, openTransferRoutes } from './modules/open-api/transfer/routes';
import { presetsRoutes } from './modules/presets/routes';
import { reportsRoutes } from './modules/reports/routes';
import { searchRoutes } from './modules/search/routes';
import { securityRoutes } from './modules/security/routes';
import { sharesRoutes, shareVisitorRoutes } from './modules/shares/routes';
import { similarRoutes } from './modules/similar/routes';
import { skuRoutes } from './modules/sku/routes';
import { afterAnswerWork } from './modules/sms/after-answer';
import { ssoRoutes } from './modules/sso/routes';
import { tagsRoutes } from './modules/tags/routes';
import { localPartRoute, uploadsRoutes } from './modules/uploads/routes';
import { webhooksRoutes } from './modules/webhooks/routes';
import { createServices, workJobs } from './services';
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

/** Builds the HTTP application: services (services.ts), routes, security headers, web app. */
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
  // Prometheus metrics (docs/metrics.md), only with METRICS_TOKEN: this app's own registry.
  const metrics = config.METRICS_TOKEN ? createMetrics({ database, queues: jobs !== undefined }) : null;
  if (metrics) timeRequests(app, metrics);

  const {
    composeFonts,
    storage,
    partUrlSecret,
    security,
    oplog,
    departments,
    users,
    roles,
    sso,
    items,
    recycleBin,
    personalLists,
    files,
    presets,
    downloads,
    uploads,
    sku,
    search,
    similar,
    shares,
    shareVisitors,
    tagDimensions,
    itemTags,
    channelTags,
    skuTags,
    tagExchange,
    imports,
    logs,
    reports,
    media,
    cleaner,
    mail,
    recovery,
    mailGroups,
    mailNotices,
    completeness,
    compositeTemplates,
    maker,
    composeJob,
    openAdmin,
    openAuth,
    openAssets,
    openChanges,
    openTransfer,
    webhooks,
    fingerprintBackfill,
    duplicates,
    mediaSweep,
    jobsAdmin,
  } = await createServices({
    config,
    database,
    clock,
    ...(jobs ? { jobs } : {}),
    warn: (details, message) => app.log.warn(details, message),
    info: (details, message) => app.log.info(details, message),
    ...(metrics ? { uploadPartStored: metrics.countUploadBytes } : {}),
  });
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
  const db = database.db;
  // Said once at start-up: without a CJK font, Chinese on detail pages would come out as boxes.
  const fontReport = composeFonts.startupReport();
  app.log.info(fontReport.info);
  for (const warning of fontReport.warnings) app.log.warn(warning);

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
  // Before any route: the plugin decides per route as routes are added (see http/compression.ts).
  await app.register(fastifyCompress, COMPRESSION);

  await app.register(healthRoutes, {
    db,
    version,
    databaseKind: database.kind,
    readiness: new Readiness(db, storage),
  });
  // Route plugins carry no prefix: the contract's endpoint table holds full paths (http/endpoint.ts).
  await app.register(securityRoutes, {
    security,
    recovery,
    oplog,
    logoutUrlOf: (sessionId) => sso.logoutUrl(sessionId),
  });
  await app.register(ssoRoutes, {
    sso,
    oplog,
    secureCookie: config.PUBLIC_URL?.startsWith('https:') === true,
  });
  // Departments, users and roles: signed-in callers only; the services check codes 2 and 3.
  await app.register(async (securityApi) => {
    securityApi.addHook(
      'onRequest',
      requireSignIn((token) => security.authenticate(token)),
    );
    await securityApi.register(accountsRoutes, { departments, users, roles, oplog });
  });

  // Every main-API call needs a signed-in caller; features add their routes inside.
  await app.register(async (mainApi) => {
    mainApi.addHook(
      'onRequest',
      requireSignIn((token) => security.authenticate(token)),
    );
    await mainApi.register(itemsRoutes, { items, recycleBin, personalLists, oplog });
    await mainApi.register(uploadsRoutes, { uploads, items, oplog });
    await mainApi.register(filesRoutes, { files, oplog });
    await mainApi.register(skuRoutes, { sku, oplog });
    await mainApi.register(importsRoutes, { imports });
    await mainApi.register(downloadsRoutes, { downloads, oplog });
    await mainApi.register(presetsRoutes, { presets });
    await mainApi.register(searchRoutes, { search });
    await mainApi.register(similarRoutes, { similar, duplicates, oplog });
    await mainApi.register(sharesRoutes, { shares, oplog });
    await mainApi.register(tagsRoutes, {
      dimensions: tagDimensions,
      itemTags,
      channelTags,
      skuTags,
      exchange: tagExchange,
      oplog,
    });
    await mainApi.register(logsRoutes, { logs, oplog });
    await mainApi.register(reportsRoutes, { reports });
    await mainApi.register(clientRoutes, { config });
    await mainApi.register(mailRoutes, { mail });
    await mainApi.register(mailGroupsRoutes, { mailGroups, oplog });
    await mainApi.register(openAdminRoutes, { openAdmin, oplog });
    await mainApi.register(webhooksRoutes, { webhooks, oplog });
    await mainApi.register(mailNoticesRoutes, { mailNotices });
    await mainApi.register(completenessRoutes, { completeness, oplog });
    await mainApi.register(compositeTemplatesRoutes, { templates: compositeTemplates, oplog });
    await mainApi.register(makerRoutes, { maker, oplog });
    await mainApi.register(jobsAdminRoutes, { jobsAdmin, oplog });
  });
  const openApiInfo = { version, ...(config.PUBLIC_URL ? { serverUrl: config.PUBLIC_URL } : {}) };
  // The open API (issue 15): every call in this scope is signed with an access record's key; the
  // key check (modules/open-api/auth) runs before anything else of the request.
  await app.register(async (openApi) => {
    registerOpenAuth(openApi, { openAuth, oplog });
    await openApi.register(openCatalogueRoutes, { tagDimensions, items });
    await openApi.register(openAssetsRoutes, { openAssets, oplog, publicUrl: config.PUBLIC_URL ?? null });
    await openApi.register(openTransferRoutes, { openTransfer, oplog, publicUrl: config.PUBLIC_URL });
    await openApi.register(openChangesRoutes, { openChanges });
    await openApi.register(openApiDocumentRoutes, { info: openApiInfo });
  });
  // The open API's docs page (/open/docs): a page for signed-in people with code 7, not a keyed call.
  await app.register(openDocsRoutes, {
    info: openApiInfo,
    authenticate: (token) => security.authenticate(token),
  });
  // A notice mail's picture links need no sign-in: each is signed, names one file and expires.
  await app.register(mailNoticePictureRoute, { prefix: MAIN_API_PREFIX, mailNotices });
  // Share-link visitors (SPEC §2 /visitfile) need no sign-in: the link's code, then a visitor token.
  await app.register(shareVisitorRoutes, { shares: shareVisitors, downloads, oplog });
  await app.register(downloadTicketRoute, {
    downloads,
    oplog,
    authenticateSession: (sessionId) => security.authenticateSession(sessionId),
  });
  // The open API's download links: no signature, the ticket and its live access record authorise.
  await app.register(openDownloadRoute, { openTransfer, downloads, oplog });
  if (metrics && config.METRICS_TOKEN)
    await app.register(metricsRoute, { metrics, token: config.METRICS_TOKEN });
  if (storage instanceof LocalStorage) {
    await app.register(localPartRoute, { uploads });
    await app.register(localMediaRoute, {
      prefix: MAIN_API_PREFIX,
      storage,
      secret: partUrlSecret,
      clock,
      // Media URLs name the session (share link, open API access record) they were made for;
      // they die with it, and answer only while it may see the file (issue 38 item 6).
      rights: mediaRightsOf(db, shareVisitors, clock),
    });
  }

  if (jobs && config.MEDIA_WORKERS > 0)
    await workJobs(
      {
        media,
        cleaner,
        mail,
        mailNotices,
        reports,
        imports,
        openChanges,
        webhooks,
        composeJob,
        fingerprintBackfill,
        mediaSweep,
      },
      metrics ? timedJobs(jobs, metrics) : jobs,
      config.MEDIA_WORKERS,
      config.COMPOSE_WORKERS,
    );
  // workJobs started the lost-media-job sweep in the background: the close lets its batch in
  // progress commit and waits for it, before the queue and the database close.
  if (mediaSweep) app.addHook('onClose', () => mediaSweep.stop());

  const webRoot = config.WEB_DIST_DIR;
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

  const appPage = serveWeb ? appPageHandler(app, webRoot, signedInPage) : null;
  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    // Client-side routes (/allfiles/…, /login) all load the single-page app (http/app-page.ts).
    if (!isApi && appPage && (request.method === 'GET' || request.method === 'HEAD'))
      return appPage(request, reply);
    throw new AppError('SE_404');
  });

  return app;
}
