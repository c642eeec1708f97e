import type { Platform } from '../../platform';
import { DownloadMetadataWriter } from '../downloads/metadata-writer';
import { EmbedFactsRepository } from './embed.repository';

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
