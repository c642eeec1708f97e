import { BackfillProgress, FingerprintBackfill } from '../../jobs/fingerprint-backfill';
import type { Platform } from '../../platform';
import { ItemsRepository } from '../items/repository';
import { embeddedOrigins } from '../metadata/wiring';
import { FingerprintsRepository } from './fingerprints.repository';
import { DuplicateReportService } from './report';
import { DuplicateReportRepository } from './report.repository';
import { SimilarRepository } from './repository';
import { SimilarService } from './service';

/** Near-duplicates and similar images (issue 17), the duplicate report and the fingerprint back-fill. */
export function wireSimilar(platform: Platform) {
  const { config, db, clock, mediaUrls, limiter, storage, info, warn } = platform;
  const origins = embeddedOrigins(platform);
  const fingerprints = new FingerprintsRepository(db);
  const backfillProgress = new BackfillProgress(fingerprints, () => clock.now());
  const similar = new SimilarService({
    repo: new SimilarRepository(db),
    mediaUrls,
    limiter,
    maxDistance: config.SIMILAR_MAX_DISTANCE,
    maxColourDistance: config.SIMILAR_MAX_COLOUR_DISTANCE,
    progress: () => backfillProgress.current(),
    origins: (uploadIds) => origins.of(uploadIds),
  });
  const duplicates = new DuplicateReportService({
    report: new DuplicateReportRepository(db),
    similarRepo: new SimilarRepository(db),
    similar,
    maxDistance: config.SIMILAR_MAX_DISTANCE,
    maxColourDistance: config.SIMILAR_MAX_COLOUR_DISTANCE,
    progress: () => backfillProgress.current(),
  });
  const fingerprintBackfill = new FingerprintBackfill({
    fingerprints,
    items: new ItemsRepository(db),
    storage,
    stored: async (uploadId) => {
      await similar.recordPairs(uploadId);
    },
    info,
    warn,
    now: () => clock.now(),
  });
  return {
    fingerprints,
    similar,
    duplicates,
    fingerprintBackfill: config.FINGERPRINT_BACKFILL ? fingerprintBackfill : null,
  };
}
