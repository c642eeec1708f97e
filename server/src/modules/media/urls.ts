import type { Clock } from '../../lib/clock';
import { signToken } from '../../lib/signing';
import type { MediaBearer, ObjectStorage } from '../../storage/storage';

export type { MediaBearer } from '../../storage/storage';

/**
 * Windows of media URLs. Local-driver URLs name their session (share link, access record), and
 * the media endpoint checks on every request that it is alive and may see the file (media/rights.ts),
 * so they can keep a long window (stable URLs, revalidated by the browser). S3 presigned URLs
 * cannot be checked, so they live minutes: signed at the start of a 5-minute window and valid to
 * the end of the next, 5 to 10 minutes — the longest a revoked right can outlive its S3 link.
 */
export const CHECKED_URL_WINDOW_MS = 6 * 60 * 60 * 1000;
export const PRESIGNED_URL_WINDOW_MS = 5 * 60 * 1000;

/** The claims of a local media token: the object, its download name, and whom it is for. */
export interface MediaClaims {
  k: string;
  f?: string;
  /** The session it was made for. */
  s?: number;
  /** The share link it was made for (a visitor's). */
  sh?: number;
  /** The open API access record it was made for (another system's). */
  a?: number;
}

/** The bearer a media token names, or null when it names none (refused). */
export function bearerOfClaims(claims: MediaClaims): MediaBearer | null {
  if (typeof claims.s === 'number') return { sessionId: claims.s };
  if (typeof claims.sh === 'number') return { shareId: claims.sh };
  if (typeof claims.a === 'number') return { accessId: claims.a };
  return null;
}

/** Local driver media URLs: the server's own media endpoint with a signed, expiring token. */
export function localMediaUrlMaker(secret: string) {
  return (claims: { key: string; fileName?: string; bearer?: MediaBearer }, expiresAt: Date): string => {
    const bearer = claims.bearer;
    const token = signToken(
      {
        k: claims.key,
        ...(claims.fileName ? { f: claims.fileName } : {}),
        ...(bearer ? bearerClaims(bearer) : {}),
      } satisfies MediaClaims,
      secret,
      expiresAt,
    );
    return `/ske-api/v1_0/media?token=${token}`;
  };
}

/** The claim naming a token's bearer. */
function bearerClaims(bearer: MediaBearer): Pick<MediaClaims, 's' | 'sh' | 'a'> {
  if ('sessionId' in bearer) return { s: bearer.sessionId };
  if ('shareId' in bearer) return { sh: bearer.shareId };
  return { a: bearer.accessId };
}

/** A URL and the moment it stops working. */
export interface ExpiringUrl {
  url: string;
  expiresAt: Date;
}

/**
 * URLs of thumbnails, previews and originals for the browser, each made for a bearer: the
 * caller's session (pass the AuthContext), `{ shareId }` for a share link's visitors, or
 * `{ accessId }` for an open API access record (never its AuthContext: its sessionId is 0). They
 * expire at the end of the next window, so the same image keeps the same URL for a while and the
 * browser cache works.
 */
export class MediaUrls {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly clock: Clock,
    private readonly windowMs: number = CHECKED_URL_WINDOW_MS,
  ) {}

  private window(): { signedAt: Date; expiresAt: Date } {
    const start = Math.floor(this.clock.now().getTime() / this.windowMs) * this.windowMs;
    return { signedAt: new Date(start), expiresAt: new Date(start + 2 * this.windowMs) };
  }

  async urlOf(key: string | null, bearer: MediaBearer): Promise<string | null> {
    if (!key) return null;
    const { signedAt, expiresAt } = this.window();
    return this.storage.readUrl(key, expiresAt, { bearer: only(bearer), signedAt });
  }

  /** `urlOf` with the moment the URL expires (the open API answers both). */
  async linkOf(key: string | null, bearer: MediaBearer): Promise<ExpiringUrl | null> {
    if (!key) return null;
    const { signedAt, expiresAt } = this.window();
    return { url: await this.storage.readUrl(key, expiresAt, { bearer: only(bearer), signedAt }), expiresAt };
  }

  downloadUrl(key: string, fileName: string, bearer: MediaBearer): Promise<string> {
    const { signedAt, expiresAt } = this.window();
    return this.storage.readUrl(key, expiresAt, { fileName, bearer: only(bearer), signedAt });
  }
}

/** Just the bearer's id (an AuthContext passed as the bearer carries much more). */
function only(bearer: MediaBearer): MediaBearer {
  if ('sessionId' in bearer) return { sessionId: bearer.sessionId };
  if ('shareId' in bearer) return { shareId: bearer.shareId };
  return { accessId: bearer.accessId };
}
