import type { Platform } from '../../platform';
import { tagsOn } from '../../repositories';
import type { ItemsRepository } from '../items/repository';
import type { LogsService } from '../logs/service';
import { MetadataTagMapper } from './applier';
import { MetadataMappingRepository } from './repository';
import { MetadataMappingService } from './service';

/**
 * Keyword → tag mapping (issue 42): the rules' service, and the mapper the metadata reader calls
 * after it stored a record's metadata (the media job's and the back-fill's: `afterSave`).
 */
export function wireMetadataMapping(
  { db, clock, warn }: Platform,
  { items, logs }: { items: ItemsRepository; logs: LogsService },
) {
  const repo = new MetadataMappingRepository(db, tagsOn);
  return {
    metadataMapping: new MetadataMappingService({ repo, items, clock }),
    metadataTagMapper: new MetadataTagMapper({
      repo,
      now: () => clock.now(),
      log: (actor, code, subject) => logs.record(actor, code, subject),
      warn,
    }),
  };
}
