import type { Db } from '../../db/database';
import { MediaProcessor } from '../../jobs/media';
import { LostMediaJobSweep } from '../../jobs/media-sweep';
import type { Clock } from '../../lib/clock';
import type { Platform } from '../../platform';
import { AccessRepository } from '../access/access.repository';
import { ItemsRepository } from '../items/repository';
import { MetadataReader } from '../metadata/reader';
import { MetadataRepository } from '../metadata/repository';
import { SecurityRepository } from '../security/repository';
import type { FingerprintsRepository } from '../similar/fingerprints.repository';
import type { SimilarService } from '../similar/service';
import { MediaRights, type ShareMediaRules } from './rights';
import { MediaRightsRepository } from './rights.repository';

/** Thumbnails and previews of finished uploads (the media job), and the sweep of lost media jobs. */
export function wireMedia(
  {
    config,
    db,
    clock,
    storage,
    localPath,
    images,
    uploadsRepository,
    mediaJobs,
    metadataTool,
    info,
    warn,
  }: Platform,
  {
    fingerprints,
    similar,
    afterMetadataSaved,
  }: {
    fingerprints: FingerprintsRepository;
    similar: SimilarService;
    /** The keyword → tag mapping, once a record's metadata is stored (issue 42). */
    afterMetadataSaved?: (uploadId: number) => Promise<void>;
  },
) {
  const media = new MediaProcessor({
    uploads: uploadsRepository,
    items: new ItemsRepository(db),
    storage,
    localPath,
    warn,
    now: () => clock.now(),
    images,
    renderLanes: Math.max(1, config.MEDIA_WORKERS),
    metadata: config.EMBEDDED_METADATA_READ
      ? new MetadataReader({
          repo: new MetadataRepository(db),
          tool: metadataTool,
          warn,
          ...(afterMetadataSaved ? { afterSave: afterMetadataSaved } : {}),
        })
      : null,
    fingerprints: {
      repository: fingerprints,
      // Pairs for the duplicate report are recorded by the similar-images service.
      stored: async (uploadId, known) => {
        await similar.recordPairs(uploadId, known);
      },
    },
  });
  return {
    media,
    mediaSweep: mediaJobs
      ? new LostMediaJobSweep({ uploads: uploadsRepository, mediaJobs, info, warn })
      : null,
  };
}

/** The media endpoint's rights over the application's database. */
export function mediaRightsOf(db: Db, shares: ShareMediaRules, clock: Clock): MediaRights {
  return new MediaRights({
    repo: new MediaRightsRepository(db),
    sessions: new SecurityRepository(db),
    roles: new AccessRepository(db),
    shares,
    clock,
  });
}
