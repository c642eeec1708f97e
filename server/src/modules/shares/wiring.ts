import type { Platform } from '../../platform';
import { filesOn } from '../../repositories';
import { AccessRepository } from '../access/access.repository';
import type { DownloadsService } from '../downloads/service';
import { ItemsRepository } from '../items/repository';
import { SharesRepository } from './repository';
import { SharesService } from './service';
import { ShareVisitorService } from './visitor';

/** Share links: making and listing them, and the visitor's browse, view and download. */
export async function wireShares(
  { config, db, clock, mediaUrls, limiter, uploadsRepository }: Platform,
  { downloads }: { downloads: DownloadsService },
) {
  const shareDeps = {
    shares: new SharesRepository(db),
    items: new ItemsRepository(db),
    mediaUrls,
    clock,
    timeZone: config.BUSINESS_TIME_ZONE,
  };
  const shares = new SharesService(shareDeps);
  const shareVisitors = new ShareVisitorService({
    ...shareDeps,
    files: filesOn(db),
    access: new AccessRepository(db),
    downloads,
    tokenSecret: await uploadsRepository.sharedSecret('share-visitor-secret'),
    limiter,
    passwordRateLimit: config.LOGIN_RATE_LIMIT,
  });
  return { shares, shareVisitors };
}
