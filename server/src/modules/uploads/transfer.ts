import type { Readable } from 'node:stream';
import { type MultipartState, UploadStatus } from '@dam/contract';
import type { UploadRow } from '../../db/schema';
import { AppError, invalidField } from '../../http/app-error';
import { verifyToken } from '../../lib/signing';
import { LocalStorage } from '../../storage/local';
import { partSizeFor, StorageError, type StoredPart } from '../../storage/storage';
import type { AuthContext } from '../access/access';
import type { UploadsDependencies } from './dependencies';
import { expectedPartSize, PART_URL_LIFETIME_MS, type PartClaims, partCount } from './parts';

// The multipart transfer of an upload's bytes (SPEC §7): starting or resuming it, signing part
// URLs, receiving a part (local driver) or its report (S3). UploadsService delegates here.

/** The caller's own record, or SE_404 (another user's record is not revealed). */
export async function ownUpload(
  deps: UploadsDependencies,
  auth: AuthContext,
  id: number,
): Promise<UploadRow> {
  const row = await deps.uploads.findById(id);
  if (!row || row.user_id !== auth.userId) throw new AppError('SE_404');
  return row;
}

/**
 * Starts the multipart transfer, or reports the parts already stored so the browser resumes.
 * The record's row lock makes duplicates sent at once (from any process) create one transfer.
 */
export async function startMultipart(
  deps: UploadsDependencies,
  auth: AuthContext,
  id: number,
): Promise<MultipartState> {
  await ownUpload(deps, auth, id);
  const upload = await deps.uploads.transaction(async (uploads) => {
    const locked = await uploads.findByIdForUpdate(id);
    if (!locked) throw new AppError('SE_404');
    if (locked.status === UploadStatus.done || locked.status === UploadStatus.cancelled) {
      throw invalidField('id', 'wrongState');
    }
    if (!locked.multipart_id) {
      const partSize = partSizeFor(locked.file_size);
      const multipartId = await deps.storage.createMultipartUpload(
        locked.storage_key,
        'application/octet-stream',
        partSize,
      );
      await uploads.update(id, {
        multipart_id: multipartId,
        part_size: partSize,
        status: UploadStatus.uploading,
        error: null,
        updated_at: deps.clock.now(),
      });
      return { ...locked, multipart_id: multipartId, part_size: partSize };
    }
    if (locked.status !== UploadStatus.uploading) {
      await uploads.update(id, {
        status: UploadStatus.uploading,
        error: null,
        updated_at: deps.clock.now(),
      });
    }
    return locked;
  });
  return {
    id,
    partSize: upload.part_size as number,
    partCount: partCount(upload),
    parts: await deps.uploads.parts(id),
  };
}

export async function signParts(
  deps: UploadsDependencies,
  auth: AuthContext,
  id: number,
  partNumbers: number[],
) {
  const upload = await ownUpload(deps, auth, id);
  if (upload.status !== UploadStatus.uploading || !upload.multipart_id)
    throw invalidField('id', 'wrongState');
  const count = partCount(upload);
  if (partNumbers.some((n) => n > count)) throw invalidField('partNumbers', 'invalidPart');
  const expiresAt = new Date(deps.clock.now().getTime() + PART_URL_LIFETIME_MS);
  const parts = await deps.storage.partTargets(
    upload.storage_key,
    upload.multipart_id,
    partNumbers,
    expiresAt,
  );
  return { parts, expiresAt: expiresAt.toISOString() };
}

/**
 * Receives one part for the local driver, authorised by its signed URL alone. The bytes go to
 * the upload's data file first (the storage refuses an upload completed or aborted meanwhile),
 * then one statement records the part if the upload is still open and the part the right size:
 * one database call per part, not two (a 5 GiB upload has 640 parts, PGlite ~1.5 ms a call).
 * A part whose write failed or that was refused after writing may have changed its place in the
 * data file, so an earlier record of that part is dropped: the browser sends it again.
 */
export async function receiveLocalPart(
  deps: UploadsDependencies,
  token: string,
  body: Readable,
): Promise<StoredPart> {
  const check = verifyToken<PartClaims & Record<string, unknown>>(
    token,
    deps.partUrlSecret,
    deps.clock.now(),
  );
  if (!check.ok) throw invalidField('token', 'invalidToken');
  const { k: storageKey, m: multipartId, n: partNumber } = check.payload;
  const storage = deps.storage;
  if (!(storage instanceof LocalStorage)) throw new AppError('SE_404');
  let part: StoredPart;
  try {
    part = await storage.writePart(storageKey, multipartId, partNumber, body);
  } catch (error) {
    // No such upload: nothing was written. Anything else failed while writing.
    if (error instanceof StorageError && error.reason === 'no-such-upload')
      throw invalidField('token', 'invalidPart');
    await deps.uploads.forgetPart(storageKey, multipartId, partNumber);
    if (error instanceof StorageError) throw invalidField('partNumber', 'invalidPart');
    throw error;
  }
  if (await deps.uploads.recordPartWhileOpen({ storageKey }, multipartId, part)) {
    deps.partStored?.('local', part.size);
    return part;
  }
  // Refused: say why (only on this rare path is the record read).
  const upload = await deps.uploads.findByStorageKey(storageKey);
  if (!upload || upload.multipart_id !== multipartId || upload.status !== UploadStatus.uploading)
    throw invalidField('token', 'invalidPart');
  await deps.uploads.forgetPart(storageKey, multipartId, partNumber);
  throw invalidField('partNumber', 'invalidPart');
}

/** After a PUT straight to S3, the browser reports the part (the store's ETag). */
export async function partDone(
  deps: UploadsDependencies,
  auth: AuthContext,
  report: { id: number; partNumber: number; etag: string; size: number },
) {
  const upload = await ownUpload(deps, auth, report.id);
  if (upload.status !== UploadStatus.uploading || !upload.multipart_id)
    throw invalidField('id', 'wrongState');
  if (report.partNumber > partCount(upload) || report.size !== expectedPartSize(upload, report.partNumber)) {
    throw invalidField('partNumber', 'invalidPart');
  }
  // Recorded only if still open: a callback may have finished or cancelled it since the read.
  if (!(await deps.uploads.recordPartWhileOpen({ id: upload.id }, upload.multipart_id, report)))
    throw invalidField('id', 'wrongState');
  // The local driver counted the part's bytes as it received them (receiveLocalPart).
  if (!(deps.storage instanceof LocalStorage)) deps.partStored?.('s3', report.size);
}
