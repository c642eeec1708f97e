import type { Clock } from '../../lib/clock';
import { signToken } from '../../lib/signing';
import type { ObjectStorage } from '../../storage/storage';

const WINDOW_MS = 6 * 60 * 60 * 1000;

export interface MediaClaims {
  k: string;
  f?: string;
}

/** Local driver media URLs: the server's own media endpoint with a signed, expiring token. */
export function localMediaUrlMaker(secret: string) {
  return (claims: { key: string; fileName?: string }, expiresAt: Date): string => {
    const token = signToken(
      { k: claims.key, ...(claims.fileName ? { f: claims.fileName } : {}) } satisfies MediaClaims,
      secret,
      expiresAt,
    );
    return `/ske-api/v1_0/media?token=${token}`;
  };
}

/**
 * URLs of thumbnails and previews for the browser. They expire at the end of the next six-hour
 * window, so the same image keeps the same URL for hours and the browser cache works.
 */
export class MediaUrls {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly clock: Clock,
  ) {}

  private expiry(): Date {
    const now = this.clock.now().getTime();
    return new Date((Math.floor(now / WINDOW_MS) + 2) * WINDOW_MS);
  }

  async urlOf(key: string | null): Promise<string | null> {
    return key ? this.storage.readUrl(key, this.expiry()) : null;
  }

  downloadUrl(key: string, fileName: string): Promise<string> {
    return this.storage.readUrl(key, this.expiry(), { fileName });
  }
}
