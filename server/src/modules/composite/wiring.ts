import type { Db } from '../../db/database';
import type { Platform } from '../../platform';
import { itemsOn, uploadsOn } from '../../repositories';
import { AccessRepository } from '../access/access.repository';
import { ObjectDeletionsRepository } from '../deletion-outbox/repository';
import { DownloadsRepository } from '../downloads/repository';
import type { DownloadsService } from '../downloads/service';
import { ItemsRepository } from '../items/repository';
import { UploadTargets } from '../items/upload-targets';
import { loadComposeFonts } from '../media/fonts';
import { SourceFiles } from '../media/source-file';
import type { ItemTagsService } from '../tags/item-tags';
import { GeneratedFiles } from '../uploads/generated';
import { createPageRenderer } from './engine/render';
import { ArticleFiller } from './fill';
import { ComposeJob } from './job';
import { type MakerPeers, MakerRepository } from './maker.repository';
import { MakerService } from './maker.service';
import { TemplatesRepository } from './templates.repository';
import { TemplatesService } from './templates.service';

/** The other modules' repositories MakerRepository works through, built on the handle it gives (its own, or a transaction's). */
export const makerPeers: MakerPeers = {
  uploads: uploadsOn,
  items: itemsOn,
  downloads: (handle: Db) => new DownloadsRepository(handle),
  access: (handle: Db) => new AccessRepository(handle),
};

/** Detail-page composition (issue 16): fonts, templates, composition jobs and the render of one article. */
export async function wireComposite(
  platform: Platform,
  { itemTags, downloads }: { itemTags: ItemTagsService; downloads: DownloadsService },
) {
  const { config, db, clock, jobs, storage, localPath, images, mediaUrls, limiter, warn } = platform;
  const composeFonts = await loadComposeFonts(config.COMPOSE_FONTS);
  const pageRenderer = createPageRenderer({ images, fonts: composeFonts });
  const makerRepository = new MakerRepository(db, makerPeers);
  const articleFiller = new ArticleFiller({
    repo: makerRepository,
    clock,
    timeZone: config.BUSINESS_TIME_ZONE,
  });
  const compositeTemplates = new TemplatesService({
    repo: new TemplatesRepository(db),
    fonts: composeFonts,
    renderer: pageRenderer,
    storage,
    localPath,
    images,
    mediaUrls,
    limiter,
    filler: articleFiller,
    clock,
    maxPageHeight: config.COMPOSE_MAX_PAGE_HEIGHT,
    warn,
  });
  const maker = new MakerService({
    repo: makerRepository,
    filler: articleFiller,
    fonts: composeFonts,
    items: new ItemsRepository(db),
    tags: itemTags,
    downloads,
    mediaUrls,
    clock,
    ...(jobs ? { enqueue: (articleIds, urgent) => jobs.enqueueComposite(articleIds, urgent) } : {}),
  });
  const composeJob = new ComposeJob({
    repo: makerRepository,
    filler: articleFiller,
    renderer: pageRenderer,
    generated: new GeneratedFiles({
      storage,
      targets: new UploadTargets(clock),
      clock,
      outbox: new ObjectDeletionsRepository(db),
      objectsFreed: platform.objectsFreed,
      // Rendered pages get thumbnails as uploads do.
      mediaJobs: platform.mediaJobs,
    }),
    sources: new SourceFiles(storage, images, localPath),
    clock,
    maxPageHeight: config.COMPOSE_MAX_PAGE_HEIGHT,
    warn,
  });
  return { composeFonts, compositeTemplates, maker, composeJob };
}
