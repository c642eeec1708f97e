import { MediaProcessor } from '../../jobs/media';
import { LostMediaJobSweep } from '../../jobs/media-sweep';
import type { Platform } from '../../platform';
import { ItemsRepository } from '../items/repository';
import type { FingerprintsRepository } from '../similar/fingerprints.repository';
import type { SimilarService } from '../similar/service';

/** Thumbnails and previews of finished uploads (the media job), and the sweep of lost media jobs. */
export function wireMedia(
  { config, db, clock, storage, localPath, images, uploadsRepository, mediaJobs, info, warn }: Platform,
  { fingerprints, similar }: { fingerprints: FingerprintsRepository; similar: SimilarService },
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
