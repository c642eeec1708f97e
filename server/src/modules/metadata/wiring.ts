import type { Platform } from '../../platform';
import { DownloadMetadataWriter } from '../downloads/metadata-writer';
import { EmbedFactsRepository } from './embed.repository';
import { EmbeddedOrigins } from './origins';

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
