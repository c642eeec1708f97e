import { MAIN_API_PREFIX } from '@dam/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { requireSignIn } from './http/request-context';
import type { Clock } from './lib/clock';
import { accountsRoutes } from './modules/accounts/routes';
import { clientRoutes } from './modules/clients/routes';
import { collectionsRoutes } from './modules/collections/routes';
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
import { localMediaRoute } from './modules/media/routes';
import { mediaRightsOf } from './modules/media/wiring';
import { metadataRoutes } from './modules/metadata/routes';
import { metadataMappingRoutes } from './modules/metadata-mapping/routes';
import type { Metrics } from './modules/metrics/metrics';
import { metricsRoute } from './modules/metrics/routes';
import { openAdminRoutes } from './modules/open-api/admin/routes';
import { openAssetsRoutes } from './modules/open-api/assets/routes';
import { registerOpenAuth } from './modules/open-api/auth/hooks.routes';
import { openCatalogueRoutes } from './modules/open-api/catalogue/routes';
import { openChangesRoutes } from './modules/open-api/changes/routes';
import { openApiDocumentRoutes, openDocsRoutes } from './modules/open-api/docs/routes';
import { openDownloadRoute, openTransferRoutes } from './modules/open-api/transfer/routes';
import { presetsRoutes } from './modules/presets/routes';
import { reportsRoutes } from './modules/reports/routes';
import { reviewRoutes } from './modules/review/routes';
import { searchRoutes } from './modules/search/routes';
import { securityRoutes } from './modules/security/routes';
import { sharesRoutes, shareVisitorRoutes } from './modules/shares/routes';
import { similarRoutes } from './modules/similar/routes';
import { skuRoutes } from './modules/sku/routes';
import { ssoRoutes } from './modules/sso/routes';
import { tagsRoutes } from './modules/tags/routes';
import { localPartRoute, uploadsRoutes } from './modules/uploads/routes';
import { webhooksRoutes } from './modules/webhooks/routes';
import type { Services } from './services';
import { LocalStorage } from './storage/local';

/** What the routes are registered with besides the services. */
export interface RouteContext {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  version: string;
  metrics: Metrics | null;
}

/**
 * Registers every route of the app (app.ts calls it once, after the security headers and
 * compression): health, the security API, the signed-in main API, the open API and the calls that
 * need no sign-in. Route plugins carry no prefix: the contract's endpoint table holds full paths
 * (http/endpoint.ts).
 */
export async function registerRoutes(app: FastifyInstance, services: Services, context: RouteContext) {
  await registerSignedInRoutes(app, services, context);
  await registerOpenApiRoutes(app, services, context);
  await registerUnsignedRoutes(app, services, context);
}

/** Health, sign-in and single sign-on, the security API and the main API. */
async function registerSignedInRoutes(
  app: FastifyInstance,
  services: Services,
  { config, database, version }: RouteContext,
) {
  const { security, recovery, oplog, sso } = services;
  await app.register(healthRoutes, {
    db: database.db,
    version,
    databaseKind: database.kind,
    readiness: new Readiness(database.db, services.storage),
  });
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
    const { departments, users, roles } = services;
    await securityApi.register(accountsRoutes, { departments, users, roles, oplog });
  });
  // Every main-API call needs a signed-in caller; features add their routes inside.
  await app.register(async (mainApi) => {
    mainApi.addHook(
      'onRequest',
      requireSignIn((token) => security.authenticate(token)),
    );
    await registerMainApi(mainApi, services, config);
  });
}

async function registerMainApi(mainApi: FastifyInstance, services: Services, config: Config) {
  const { oplog, items } = services;
  await mainApi.register(itemsRoutes, {
    items,
    recycleBin: services.recycleBin,
    personalLists: services.personalLists,
    oplog,
  });
  await mainApi.register(uploadsRoutes, { uploads: services.uploads, items, oplog });
  await mainApi.register(filesRoutes, { files: services.files, oplog });
  await mainApi.register(skuRoutes, { sku: services.sku, oplog });
  await mainApi.register(importsRoutes, { imports: services.imports });
  await mainApi.register(downloadsRoutes, { downloads: services.downloads, oplog });
  await mainApi.register(presetsRoutes, { presets: services.presets });
  await mainApi.register(searchRoutes, { search: services.search });
  await mainApi.register(similarRoutes, {
    similar: services.similar,
    duplicates: services.duplicates,
    oplog,
  });
  await mainApi.register(metadataRoutes, { metadata: services.metadata });
  await mainApi.register(metadataMappingRoutes, { mapping: services.metadataMapping });
  await mainApi.register(reviewRoutes, { review: services.review, oplog });
  await mainApi.register(collectionsRoutes, {
    collections: services.collections,
    shares: services.shares,
    downloads: services.downloads,
    oplog,
  });
  await mainApi.register(sharesRoutes, { shares: services.shares, oplog });
  await mainApi.register(tagsRoutes, {
    dimensions: services.tagDimensions,
    itemTags: services.itemTags,
    channelTags: services.channelTags,
    skuTags: services.skuTags,
    exchange: services.tagExchange,
    oplog,
  });
  await mainApi.register(logsRoutes, { logs: services.logs, oplog });
  await mainApi.register(reportsRoutes, { reports: services.reports });
  await mainApi.register(clientRoutes, { config });
  await mainApi.register(mailRoutes, { mail: services.mail });
  await mainApi.register(mailGroupsRoutes, { mailGroups: services.mailGroups, oplog });
  await mainApi.register(openAdminRoutes, { openAdmin: services.openAdmin, oplog });
  await mainApi.register(webhooksRoutes, { webhooks: services.webhooks, oplog });
  await mainApi.register(mailNoticesRoutes, { mailNotices: services.mailNotices });
  await mainApi.register(completenessRoutes, { completeness: services.completeness, oplog });
  await mainApi.register(compositeTemplatesRoutes, { templates: services.compositeTemplates, oplog });
  await mainApi.register(makerRoutes, { maker: services.maker, oplog });
  await mainApi.register(jobsAdminRoutes, { jobsAdmin: services.jobsAdmin, oplog });
}

/** The open API (issue 15) and its docs page. */
async function registerOpenApiRoutes(
  app: FastifyInstance,
  services: Services,
  { config, version }: RouteContext,
) {
  const { oplog, openTransfer, security } = services;
  const openApiInfo = { version, ...(config.PUBLIC_URL ? { serverUrl: config.PUBLIC_URL } : {}) };
  // Every call in this scope is signed with an access record's key; the key check
  // (modules/open-api/auth) runs before anything else of the request.
  await app.register(async (openApi) => {
    registerOpenAuth(openApi, { openAuth: services.openAuth, oplog });
    await openApi.register(openCatalogueRoutes, {
      tagDimensions: services.tagDimensions,
      items: services.items,
    });
    await openApi.register(openAssetsRoutes, {
      openAssets: services.openAssets,
      oplog,
      publicUrl: config.PUBLIC_URL ?? null,
    });
    await openApi.register(openTransferRoutes, { openTransfer, oplog, publicUrl: config.PUBLIC_URL });
    await openApi.register(openChangesRoutes, { openChanges: services.openChanges });
    await openApi.register(openApiDocumentRoutes, { info: openApiInfo });
  });
  // The open API's docs page (/open/docs): a page for signed-in people with code 7, not a keyed call.
  await app.register(openDocsRoutes, {
    info: openApiInfo,
    authenticate: (token) => security.authenticate(token),
  });
}

/** Calls that need no sign-in (each authorised otherwise), the metrics and the local store's routes. */
async function registerUnsignedRoutes(
  app: FastifyInstance,
  services: Services,
  { config, database, clock, metrics }: RouteContext,
) {
  const { oplog, downloads, shareVisitors, storage, security } = services;
  // A notice mail's picture links need no sign-in: each is signed, names one file and expires.
  await app.register(mailNoticePictureRoute, { prefix: MAIN_API_PREFIX, mailNotices: services.mailNotices });
  // Share-link visitors (SPEC §2 /visitfile) need no sign-in: the link's code, then a visitor token.
  await app.register(shareVisitorRoutes, { shares: shareVisitors, downloads, oplog });
  await app.register(downloadTicketRoute, {
    downloads,
    oplog,
    authenticateSession: (sessionId) => security.authenticateSession(sessionId),
  });
  // The open API's download links: no signature, the ticket and its live access record authorise.
  await app.register(openDownloadRoute, { openTransfer: services.openTransfer, downloads, oplog });
  if (metrics && config.METRICS_TOKEN)
    await app.register(metricsRoute, { metrics, token: config.METRICS_TOKEN });
  if (storage instanceof LocalStorage) {
    await app.register(localPartRoute, { uploads: services.uploads });
    await app.register(localMediaRoute, {
      prefix: MAIN_API_PREFIX,
      storage,
      secret: services.partUrlSecret,
      clock,
      // Media URLs name the session (share link, open API access record) they were made for;
      // they die with it, and answer only while it may see the file (issue 38 item 6).
      rights: mediaRightsOf(database.db, shareVisitors, clock),
    });
  }
}
