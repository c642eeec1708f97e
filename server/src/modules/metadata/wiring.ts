import { MetadataBackfill } from '../../jobs/metadata-backfill';
import type { Platform } from '../../platform';
import { DownloadMetadataWriter } from '../downloads/metadata-writer';
import type { ItemsRepository } from '../items/repository';
import type { LogsService } from '../logs/service';
import type { MetadataMappingService } from '../metadata-mapping/service';
import { wireMetadataMapping } from '../metadata-mapping/wiring';
import { EmbedFactsRepository } from './embed.repository';
import type { EmbeddedMetadataTool } from './exiftool';
import { EmbeddedOrigins } from './origins';
import { MetadataReader } from './reader';
import { MetadataRepository } from './repository';
import { MetadataService } from './service';

/** The key of the platform marks' signature in app_settings (made on first use, kept for good). */
export const METADATA_SIGNATURE_SECRET = 'metadata-signature-secret';

const secrets = new WeakMap<Platform, () => Promise<string>>();

/** The platform marks' signing key, read once per process (a failed read is tried again). */
function signingSecret(platform: Platform): () => Promise<string> {
  let made = secrets.get(platform);
  if (!made) {
    let secret: Promise<string> | null = null;
    made = () => {
      secret ??= platform.uploadsRepository.sharedSecret(METADATA_SIGNATURE_SECRET).catch((error: Error) => {
        secret = null;
        throw error;
      });
      return secret;
    };
    secrets.set(platform, made);
  }
  return made;
}

/** What downloads write into files, or strip from them (issue 42). */
export function downloadMetadataWriter(platform: Platform): DownloadMetadataWriter {
  const { db, storage, localPath, metadataTool, warn } = platform;
  return new DownloadMetadataWriter({
    storage,
    localPath,
    tool: metadataTool,
    facts: new EmbedFactsRepository(db),
    secret: signingSecret(platform),
    warn,
  });
}

/** The files uploads came from, by the marks a download of ours wrote into them (issue 42). */
export function embeddedOrigins(platform: Platform): EmbeddedOrigins {
  return new EmbeddedOrigins({ db: platform.db, secret: signingSecret(platform) });
}

/** The services of embedded metadata (issue 42) that the application's Services carry. */
export interface MetadataServices {
  /** What was read from files' embedded metadata: the viewer's section. */
  metadata: MetadataService;
  /** Keyword → tag mapping rules and their findings (function code 4). */
  metadataMapping: MetadataMappingService;
  /** ExifTool's processes, stopped at shutdown. */
  metadataTool: EmbeddedMetadataTool;
  /** Reads the files uploaded before issue 42, a batch a job; null when it or EMBEDDED_METADATA_READ is off. */
  metadataBackfill: MetadataBackfill | null;
}

/**
 * Embedded metadata (issue 42): the viewer's section and the back-fill of files uploaded before
 * it, with the back-fill's progress for the jobs screen. (The media job's reader is wired with the
 * media job, modules/media/wiring.ts.)
 */
export function wireMetadata(
  platform: Platform,
  { items, logs }: { items: ItemsRepository; logs: LogsService },
): MetadataServices & {
  metadataProgress: () => Promise<{ done: number; total: number }>;
  /** What runs once a record's metadata is stored (the media job's read too): the tag mapping. */
  afterMetadataSaved: (uploadId: number) => Promise<void>;
} {
  const { config, db, clock, storage, localPath, metadataTool, info, warn } = platform;
  const repo = new MetadataRepository(db);
  const { metadataMapping, metadataTagMapper } = wireMetadataMapping(platform, { items, logs });
  const afterSave = (uploadId: number) => metadataTagMapper.apply(uploadId);
  return {
    metadata: new MetadataService({ repo, items }),
    metadataMapping,
    metadataTool,
    // Reading switched off (EMBEDDED_METADATA_READ=false) switches the back-fill off with it.
    metadataBackfill:
      config.METADATA_BACKFILL && config.EMBEDDED_METADATA_READ
        ? new MetadataBackfill({
            repo,
            reader: new MetadataReader({ repo, tool: metadataTool, warn, afterSave }),
            stopped: () => metadataTool.stopped,
            storage,
            localPath,
            info,
            warn,
            now: () => clock.now(),
          })
        : null,
    metadataProgress: () => repo.progress(),
    afterMetadataSaved: afterSave,
  };
}
