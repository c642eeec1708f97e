import { collectionsEndpoints } from './collections';
import { completenessEndpoints } from './completeness';
import { compositeEndpoints } from './composite';
import { downloadsEndpoints } from './downloads';
import { filesEndpoints } from './files';
import { importsEndpoints } from './imports';
import { itemsEndpoints } from './items';
import { jobsAdminEndpoints } from './jobs-admin';
import { mailGroupsEndpoints } from './mail-groups';
import { mailNoticesEndpoints } from './mail-notices';
import { metadataEndpoints } from './metadata';
import { metadataMappingEndpoints } from './metadata-mapping';
import { clientEndpoints, healthEndpoints, logsEndpoints, mailEndpoints, searchEndpoints } from './misc';
import { openEndpoints } from './open';
import { openAdminEndpoints } from './open-admin';
import { reportsEndpoints } from './reports';
import { reviewEndpoints } from './review';
import { accountsEndpoints, securityEndpoints } from './security';
import { sharesEndpoints } from './shares';
import { similarEndpoints } from './similar';
import { skuEndpoints } from './sku';
import { ssoEndpoints } from './sso';
import { tagsEndpoints } from './tags';
import { uploadsEndpoints } from './uploads';

export * from './define';
export { downloadTicketQuerySchema, downloadTicketSchema } from './downloads';
export { editFileResultSchema } from './files';
export {
  folderListingBodySchema,
  folderListingQuerySchema,
  openFolderResultSchema,
  pagingQuerySchema,
} from './items';
export {
  type ClientDownloads,
  clientDownloadsSchema,
  healthSchema,
  livenessSchema,
  type MailStatus,
  mailStatusSchema,
  readinessSchema,
} from './misc';
export { openEndpoints } from './open';
// The schema-free table is its own module: a bundle that imports only it leaves the table below out.
export { endpointRoutes } from './routes';
export { newSharesBodySchema, newSharesQuerySchema } from './shares';
export { partTokenQuerySchema } from './uploads';

/**
 * Every call the server serves, by what it does: method, full path, request schemas and the
 * envelope's result. The server registers its routes from here and the web app calls through it,
 * so neither side can drift. Media bytes (`/ske-api/media/…`) are served as files and are not here.
 */
export const endpoints = {
  ...securityEndpoints,
  ...ssoEndpoints,
  ...accountsEndpoints,
  ...itemsEndpoints,
  ...filesEndpoints,
  ...uploadsEndpoints,
  ...skuEndpoints,
  ...tagsEndpoints,
  ...downloadsEndpoints,
  ...sharesEndpoints,
  ...searchEndpoints,
  ...logsEndpoints,
  ...reportsEndpoints,
  ...clientEndpoints,
  ...mailEndpoints,
  ...mailGroupsEndpoints,
  ...importsEndpoints,
  ...completenessEndpoints,
  ...mailNoticesEndpoints,
  ...openAdminEndpoints,
  ...openEndpoints,
  ...compositeEndpoints,
  ...similarEndpoints,
  ...metadataEndpoints,
  ...metadataMappingEndpoints,
  ...collectionsEndpoints,
  ...reviewEndpoints,
  ...jobsAdminEndpoints,
  ...healthEndpoints,
};
export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
