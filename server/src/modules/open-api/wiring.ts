import type { Platform } from '../../platform';
import { AccessRepository } from '../access/access.repository';
import { RolesRepository } from '../accounts/roles.repository';
import type { DownloadsService } from '../downloads/service';
import type { ItemTagsService } from '../tags/item-tags';
import type { UploadsService } from '../uploads/service';
import { OpenAdminRepository } from './admin/repository';
import { OpenAdminService } from './admin/service';
import { OpenAssetsRepository } from './assets/repository';
import { OpenAssetsService } from './assets/service';
import { OpenAuthRepository } from './auth/repository';
import { OpenAuthService } from './auth/service';
import { OpenChangesRepository } from './changes/repository';
import { OpenChangesService } from './changes/service';
import { OpenTransferRepository } from './transfer/repository';
import { OpenTransferService } from './transfer/service';

/** The open API: access management, the key check, asset calls, changes, downloads and uploads. */
export function wireOpenApi(
  { config, db, clock, limiter, secretBox, mediaUrls }: Platform,
  {
    itemTags,
    downloads,
    uploads,
  }: { itemTags: ItemTagsService; downloads: DownloadsService; uploads: UploadsService },
) {
  const openAdmin = new OpenAdminService(
    new OpenAdminRepository(db, (handle) => new RolesRepository(handle)),
    secretBox,
    clock,
  );
  const openAuth = new OpenAuthService({
    repo: new OpenAuthRepository(db),
    access: new AccessRepository(db),
    limiter,
    secretBox,
    clock,
  });
  const openAssets = new OpenAssetsService({
    repo: new OpenAssetsRepository(db),
    tags: itemTags,
    mediaUrls,
    clock,
    timeZone: config.BUSINESS_TIME_ZONE,
  });
  const openChanges = new OpenChangesService({
    repo: new OpenChangesRepository(db),
    assets: openAssets,
    clock,
  });
  const openTransfer = new OpenTransferService({
    downloads,
    uploads,
    repo: new OpenTransferRepository(db),
    access: new AccessRepository(db),
    limiter,
    clock,
  });
  return { openAdmin, openAuth, openAssets, openChanges, openTransfer };
}
