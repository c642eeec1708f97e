import type { UploadRow } from '../../db/schema';
import { signToken } from '../../lib/signing';

/**
 * The parts of a multipart upload: how many a file has and how big each must be, and the signed,
 * expiring URLs of the local driver's part endpoint (what presigned part URLs are on S3).
 */

export const PART_URL_LIFETIME_MS = 60 * 60 * 1000;

export interface PartClaims {
  /** Storage key, multipart id, part number. */
  k: string;
  m: string;
  n: number;
}

/** Local driver part URLs: the server's own part endpoint, authorised by a signed, expiring token. */
export function localPartUrlMaker(secret: string) {
  return (claims: { key: string; uploadId: string; partNumber: number }, expiresAt: Date): string => {
    const token = signToken(
      { k: claims.key, m: claims.uploadId, n: claims.partNumber } satisfies PartClaims,
      secret,
      expiresAt,
    );
    return `/ske-api/v1_0/file-upload/part?token=${token}`;
  };
}

export function partCount(upload: Pick<UploadRow, 'file_size' | 'part_size'>): number {
  const size = upload.part_size ?? 1;
  return Math.max(1, Math.ceil(upload.file_size / size));
}

export function expectedPartSize(
  upload: Pick<UploadRow, 'file_size' | 'part_size'>,
  partNumber: number,
): number {
  const size = upload.part_size ?? 0;
  const count = partCount(upload);
  return partNumber < count ? size : upload.file_size - size * (count - 1);
}
