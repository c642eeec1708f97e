import { MetadataBackfill } from '../../jobs/metadata-backfill';
import type { Platform } from '../../platform';
import { DownloadMetadataWriter } from '../downloads/metadata-writer';
import type { ItemsRepository } from '../items/repository';
import { EmbedFactsRepository } from './embed.repository';
import type { EmbeddedMetadataTool } from './exiftool';
import { MetadataReader } from './reader';
import { MetadataRepository } from './repository';
import { MetadataService } from './service';

/** The key of the platform marks' signature in app_settings (made on first use, kept for good). */
export const METADATA_SIGNATURE_SECRET = 'metadata-signature-secret';

/** What downloads write into files, or strip from them (issue 42). */
export function downloadMetadataWriter({
  db,
  storage,
  localPath,
  metadataTool,
  uploadsRepository,
  warn,
}: Platform): DownloadMetadataWriter {
  let secret: Promise<string> | null = null;
  return new DownloadMetadataWriter({
    storage,
    localPath,
    tool: metadataTool,
    facts: new EmbedFactsRepository(db),
    secret: () => {
      // Asked once; a failed read is asked again next time, not kept.
      secret ??= uploadsRepository.sharedSecret(METADATA_SIGNATURE_SECRET).catch((error: Error) => {
        secret = null;
        throw error;
      });
      return secret;
    },
    warn,
  });
}

/** The services of embedded metadata (issue 42) that the application's Services carry. */
export interface MetadataServices {
  /** What was read from files' embedded metadata: the viewer's section. */
  metadata: MetadataService;
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
  { config, db, clock, storage, localPath, metadataTool, info, warn }: Platform,
  { items }: { items: ItemsRepository },
): MetadataServices & { metadataProgress: () => Promise<{ done: number; total: number }> } {
  const repo = new MetadataRepository(db);
  return {
    metadata: new MetadataService({ repo, items }),
    metadataTool,
    // Reading switched off (EMBEDDED_METADATA_READ=false) switches the back-fill off with it.
    metadataBackfill:
      config.METADATA_BACKFILL && config.EMBEDDED_METADATA_READ
        ? new MetadataBackfill({
            repo,
            reader: new MetadataReader({ repo, tool: metadataTool, warn }),
            stopped: () => metadataTool.stopped,
            storage,
            localPath,
            info,
            warn,
            now: () => clock.now(),
          })
        : null,
    metadataProgress: () => repo.progress(),
  };
}
