import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';

/** A part already stored for a multipart upload. */
export interface StoredPart {
  partNumber: number;
  size: number;
  etag: string;
}

/** Where and how the browser sends one part. */
export interface PartTarget {
  partNumber: number;
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  /**
   * Whether the browser reports the stored part with part-done: a PUT straight to the store
   * (S3) is seen by no one else; the local driver's part endpoint records the part itself.
   */
  reportDone: boolean;
}

export interface ObjectInfo {
  size: number;
  /** The store's entity tag (S3), as it sends it; the backup manifest records it. */
  etag?: string;
}

/** One object as listed by `ObjectStorage.list`. */
export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

/**
 * Whom a browser URL is for: a signed-in session, a share link's visitors, or an open API access
 * record (the system that asked for it).
 */
export type MediaBearer = { sessionId: number } | { shareId: number } | { accessId: number };

export interface ReadUrlOptions {
  /** Download as an attachment under this name. */
  fileName?: string;
  /** Checked on every use where the driver can (local): the URL dies with its session, link or access record. */
  bearer?: MediaBearer;
  /** The start of the URL's window: signing at it keeps the URL the same for the whole window. */
  signedAt?: Date;
}

export class StorageError extends Error {
  override name = 'StorageError';
  constructor(
    readonly reason: 'missing-parts' | 'wrong-part-size' | 'no-such-upload' | 'part-too-large' | 'not-found',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Object storage behind one interface: local disk (default) or any S3-compatible store. Uploads
 * are multipart, sent by the browser straight to `partTargets` URLs. The uploads service records
 * which parts are stored, so resuming does not depend on the store's ListParts (which several
 * S3-compatible servers lack).
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** Origin the browser must be allowed to connect to for parts (CSP), or null when same-origin. */
  readonly browserOrigin: string | null;
  createMultipartUpload(key: string, contentType: string, partSize: number): Promise<string>;
  partTargets(key: string, uploadId: string, partNumbers: number[], expiresAt: Date): Promise<PartTarget[]>;
  /** Assembles the listed parts into the object; safe to call again after it succeeded. */
  completeMultipartUpload(key: string, uploadId: string, parts: StoredPart[]): Promise<void>;
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
  stat(key: string): Promise<ObjectInfo | null>;
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  write(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Stores a local file's bytes under `key`, streamed (a video rendition can be large). */
  writeFile(key: string, file: string, contentType: string): Promise<void>;
  /** Removes an object; an object already gone counts as deleted. */
  delete(key: string): Promise<void>;
  /** Every object in the store (not the parts of unfinished multipart uploads), in pages. */
  list(): AsyncIterable<ListedObject[]>;
  /** A URL the browser can GET the object from until `expiresAt` (an <img> sends no token header). */
  readUrl(key: string, expiresAt: Date, options?: ReadUrlOptions): Promise<string>;
}

/** Storage key of SPEC §3: `YYYY/MM/DD/<uuid>.<ext>` (UTC date). */
export function newStorageKey(now: Date, extension: string): string {
  const date = now.toISOString().slice(0, 10).replaceAll('-', '/');
  const ext = extension.toLowerCase().replace(/[^a-z0-9]/g, '');
  return `${date}/${randomUUID()}${ext ? `.${ext}` : ''}`;
}

/** S3 allows 10,000 parts of 5 MiB to 5 GiB: the smallest part size that fits, at least 8 MiB. */
export function partSizeFor(fileSize: number): number {
  const MiB = 1024 * 1024;
  return Math.max(8 * MiB, Math.ceil(fileSize / 10_000 / MiB) * MiB);
}
