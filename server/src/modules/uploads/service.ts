import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  type CreateUploadBatch,
  ItemState,
  ItemType,
  itemTypeOfFormat,
  LIMITS,
  type MailNoticeSummary,
  type MultipartState,
  UploadStatus,
} from '@dam/contract';
import type { UploadRow } from '../../db/schema';
import { AppError, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { verifyToken } from '../../lib/signing';
import { LocalStorage } from '../../storage/local';
import {
  newStorageKey,
  type ObjectStorage,
  partSizeFor,
  StorageError,
  type StoredPart,
} from '../../storage/storage';
import type { AuthContext } from '../access/access';
import type { ObjectsFreed } from '../deletion-outbox/service';
import { canEdit, canSee, canUploadInto } from '../items/policy';
import { joinPath } from '../items/presenter';
import type { UploadTargets } from '../items/upload-targets';
import { expectedPartSize, PART_URL_LIFETIME_MS, type PartClaims, partCount } from './parts';
import { newUploadRow, toUploadRecord } from './records';
import type { MediaJobWriter, UploadsRepository } from './repository';

export { localPartUrlMaker } from './parts';

export { UploadStatus };

export interface UploadsDependencies {
  uploads: UploadsRepository;
  /** Where uploads land: target folders, subfolders of folder uploads, the file each joins. */
  targets: UploadTargets;
  /** Checks the tag sets of a batch (the tags module); without it tags are not checked. */
  tags?: { checkTagSets(sets: ReadonlyArray<readonly number[]>): Promise<void> };
  storage: ObjectStorage;
  clock: Clock;
  /** Queues the deletion of objects recorded in the outbox (cancelled uploads). */
  objectsFreed?: ObjectsFreed;
  /**
   * Writes the media job (thumbnail, preview) of a record in the transaction that makes it live;
   * null without a job queue (the start-up sweep of lost media jobs queues it later).
   */
  mediaJobs: MediaJobWriter | null;
  /** The mail notices of batches, by batch number, for the records' screen. */
  mailNotices?: (batchNums: string[]) => Promise<Map<string, MailNoticeSummary>>;
  /** HMAC key of local part URLs, shared by all processes (see UploadsRepository.sharedSecret). */
  partUrlSecret: string;
  warn: (details: Record<string, unknown>, message: string) => void;
  /** Told of every part stored and recorded: received here (`local`) or reported from the object store (metrics). */
  partStored?: (storage: 'local' | 's3', bytes: number) => void;
}

/** The upload pipeline of SPEC §4/§7: records, resumable multipart transfer, callback, cancel. */
export class UploadsService {
  constructor(private readonly deps: UploadsDependencies) {}

  private get uploads() {
    return this.deps.uploads;
  }

  storageInfo() {
    const storage = this.deps.storage;
    return {
      driver: storage.kind,
      bucket: null,
      endpoint: storage.browserOrigin,
      maxFileSize: LIMITS.singleFileBytes,
      maxFilesPerBatch: LIMITS.filesPerSelection,
      concurrentUploads: LIMITS.concurrentUploads,
    };
  }

  /** Creates the records of a batch (SPEC §4 "starting an upload", step 1), all or nothing. */
  async createBatch(auth: AuthContext, body: CreateUploadBatch) {
    const seen = new Set<string>();
    for (const entry of body.uploadDetailDTOS) {
      const key = `${entry.path.join('/')}/${entry.fileName}`.toLowerCase();
      if (seen.has(key)) throw invalidField('uploadDetailDTOS', 'duplicateFile', { name: entry.fileName });
      seen.add(key);
    }
    // SPEC §4: an entry's own tags override the batch's. Unknown tags or broken rules refuse the batch.
    await this.deps.tags?.checkTagSets(body.uploadDetailDTOS.map((e) => e.tagIdList ?? body.tagIdList ?? []));
    const now = this.deps.clock.now();
    const batchNum = `${now.toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(3).toString('hex')}`;
    return this.uploads.transaction(async (uploads, items) => {
      const folders = await this.deps.targets.prepareUploadFolders(
        items,
        auth,
        { id: body.targetFolderId, path: body.path },
        body.uploadDetailDTOS.map((e) => e.path),
      );
      const versionOf = new Map<number, Awaited<ReturnType<UploadTargets['versionTarget']>>>();
      for (const entry of body.uploadDetailDTOS)
        if (entry.versionOfItemId !== undefined && !versionOf.has(entry.versionOfItemId))
          versionOf.set(
            entry.versionOfItemId,
            await this.deps.targets.versionTarget(items, auth, entry.versionOfItemId),
          );
      const rows = await uploads.insertMany(
        body.uploadDetailDTOS.map((entry) => {
          const row = newUploadRow(entry, body.tagIdList, {
            batchNum,
            userId: auth.userId,
            folderId: folders.get(entry.path.join('/'))?.id ?? null,
            now,
          });
          const target =
            entry.versionOfItemId === undefined ? undefined : versionOf.get(entry.versionOfItemId);
          if (!target) return row;
          // Joins the item at the callback by the name rule of "upload a new version".
          return {
            ...row,
            folder_id: target.folder?.id ?? null,
            relative_path: '',
            base_name: target.baseName,
            file_name: `${target.baseName}.${row.format}`,
            version_of_item_id: entry.versionOfItemId,
          };
        }),
      );
      const versionFolders = new Map(
        [...versionOf.values()].map((target) => [target.folder?.id ?? null, target.folder]),
      );
      return rows.map((row) => {
        const folder =
          row.version_of_item_id !== null
            ? (versionFolders.get(row.folder_id) ?? null)
            : (folders.get(row.relative_path) ?? null);
        return {
          id: row.id,
          url: row.storage_key,
          batchNum,
          fileName: row.file_name,
          path: folder ? joinPath(folder.folder_path, folder.name) : '/',
        };
      });
    });
  }

  /** The caller's own record, or SE_404 (another user's record is not revealed). */
  private async ownUpload(auth: AuthContext, id: number): Promise<UploadRow> {
    const row = await this.uploads.findById(id);
    if (!row || row.user_id !== auth.userId) throw new AppError('SE_404');
    return row;
  }

  /**
   * Starts the multipart transfer, or reports the parts already stored so the browser resumes.
   * The record's row lock makes duplicates sent at once (from any process) create one transfer.
   */
  async startMultipart(auth: AuthContext, id: number): Promise<MultipartState> {
    await this.ownUpload(auth, id);
    const upload = await this.uploads.transaction(async (uploads) => {
      const locked = await uploads.findByIdForUpdate(id);
      if (!locked) throw new AppError('SE_404');
      if (locked.status === UploadStatus.done || locked.status === UploadStatus.cancelled) {
        throw invalidField('id', 'wrongState');
      }
      if (!locked.multipart_id) {
        const partSize = partSizeFor(locked.file_size);
        const multipartId = await this.deps.storage.createMultipartUpload(
          locked.storage_key,
          'application/octet-stream',
          partSize,
        );
        await uploads.update(id, {
          multipart_id: multipartId,
          part_size: partSize,
          status: UploadStatus.uploading,
          error: null,
          updated_at: this.deps.clock.now(),
        });
        return { ...locked, multipart_id: multipartId, part_size: partSize };
      }
      if (locked.status !== UploadStatus.uploading) {
        await uploads.update(id, {
          status: UploadStatus.uploading,
          error: null,
          updated_at: this.deps.clock.now(),
        });
      }
      return locked;
    });
    return {
      id,
      partSize: upload.part_size as number,
      partCount: partCount(upload),
      parts: await this.uploads.parts(id),
    };
  }

  async signParts(auth: AuthContext, id: number, partNumbers: number[]) {
    const upload = await this.ownUpload(auth, id);
    if (upload.status !== UploadStatus.uploading || !upload.multipart_id)
      throw invalidField('id', 'wrongState');
    const count = partCount(upload);
    if (partNumbers.some((n) => n > count)) throw invalidField('partNumbers', 'invalidPart');
    const expiresAt = new Date(this.deps.clock.now().getTime() + PART_URL_LIFETIME_MS);
    const parts = await this.deps.storage.partTargets(
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
  async receiveLocalPart(token: string, body: Readable): Promise<StoredPart> {
    const check = verifyToken<PartClaims & Record<string, unknown>>(
      token,
      this.deps.partUrlSecret,
      this.deps.clock.now(),
    );
    if (!check.ok) throw invalidField('token', 'invalidToken');
    const { k: storageKey, m: multipartId, n: partNumber } = check.payload;
    const storage = this.deps.storage;
    if (!(storage instanceof LocalStorage)) throw new AppError('SE_404');
    let part: StoredPart;
    try {
      part = await storage.writePart(storageKey, multipartId, partNumber, body);
    } catch (error) {
      // No such upload: nothing was written. Anything else failed while writing.
      if (error instanceof StorageError && error.reason === 'no-such-upload')
        throw invalidField('token', 'invalidPart');
      await this.uploads.forgetPart(storageKey, multipartId, partNumber);
      if (error instanceof StorageError) throw invalidField('partNumber', 'invalidPart');
      throw error;
    }
    if (await this.uploads.recordPartWhileOpen({ storageKey }, multipartId, part)) {
      this.deps.partStored?.('local', part.size);
      return part;
    }
    // Refused: say why (only on this rare path is the record read).
    const upload = await this.uploads.findByStorageKey(storageKey);
    if (!upload || upload.multipart_id !== multipartId || upload.status !== UploadStatus.uploading)
      throw invalidField('token', 'invalidPart');
    await this.uploads.forgetPart(storageKey, multipartId, partNumber);
    throw invalidField('partNumber', 'invalidPart');
  }

  /** After a PUT straight to S3, the browser reports the part (the store's ETag). */
  async partDone(auth: AuthContext, report: { id: number; partNumber: number; etag: string; size: number }) {
    const upload = await this.ownUpload(auth, report.id);
    if (upload.status !== UploadStatus.uploading || !upload.multipart_id)
      throw invalidField('id', 'wrongState');
    if (
      report.partNumber > partCount(upload) ||
      report.size !== expectedPartSize(upload, report.partNumber)
    ) {
      throw invalidField('partNumber', 'invalidPart');
    }
    // Recorded only if still open: a callback may have finished or cancelled it since the read.
    if (!(await this.uploads.recordPartWhileOpen({ id: upload.id }, upload.multipart_id, report)))
      throw invalidField('id', 'wrongState');
    // The local driver counted the part's bytes as it received them (receiveLocalPart).
    if (!(this.deps.storage instanceof LocalStorage)) this.deps.partStored?.('s3', report.size);
  }

  /**
   * SPEC §7 callback. Status 1 records progress; status 2 assembles the parts, checks the stored
   * object's size and only then puts the file live. Repeating a finished callback changes nothing,
   * and duplicates sent at once (from any process) wait on the record's row lock, then find it
   * finished and answer success too. Answers whether this call put the file live (once per record).
   */
  async callback(
    auth: AuthContext,
    query: { id: number; status: number; uploadSchedule: number },
  ): Promise<boolean> {
    const upload = await this.ownUpload(auth, query.id);
    const now = this.deps.clock.now();
    if (query.status !== UploadStatus.done) {
      // Guarded by state: a late progress or failure report never reopens a finished record.
      if (query.status === UploadStatus.failed) {
        await this.uploads.updateWhileOpen(upload.id, {
          status: UploadStatus.failed,
          error: 'client',
          updated_at: now,
        });
      } else {
        await this.uploads.updateWhileOpen(upload.id, {
          upload_schedule: query.uploadSchedule,
          updated_at: now,
        });
      }
      return false;
    }
    if (upload.status === UploadStatus.done) return false;

    // The row lock is held while the parts are assembled, so one call completes the object and
    // its duplicates (waiting on the lock) see the record finished, not a half-completed store.
    const outcome = await this.uploads.transaction(async (uploads, items) => {
      const locked = await uploads.findByIdForUpdate(upload.id);
      if (!locked) throw new AppError('SE_404');
      if (locked.status === UploadStatus.done) return 'already' as const;
      if (locked.status === UploadStatus.cancelled || !locked.multipart_id)
        throw invalidField('id', 'wrongState');
      const parts = await uploads.parts(locked.id);
      const count = partCount(locked);
      const complete =
        parts.length === count &&
        parts.every((p, i) => p.partNumber === i + 1 && p.size === expectedPartSize(locked, p.partNumber));
      if (!complete) throw new AppError('SEF_05');
      // The right to upload into the target is checked again now, not only when the batch was
      // made: the folder may have gone to the recycle bin (then the file goes to the top level)
      // or the uploader's roles changed meanwhile. Refused before the parts are assembled, so the
      // record stays open to be cancelled (its parts then freed) and nothing goes live.
      // A version chosen in the near-duplicate warning joins that very file, even renamed or moved
      // since; the right checked is to upload where the file is now.
      const chosen =
        locked.version_of_item_id === null
          ? undefined
          : await this.deps.targets.chosenVersionFile(items, auth, locked.version_of_item_id);
      const folderId = chosen ? chosen.parent_id : locked.folder_id;
      const folderRow = folderId === null ? null : await items.findById(folderId, auth.userId);
      const folder = folderRow && folderRow.state === ItemState.normal ? folderRow : null;
      if (!canUploadInto(auth, folder)) throw new AppError('SE_502');
      await this.deps.storage.completeMultipartUpload(locked.storage_key, locked.multipart_id, parts);
      const stored = await this.deps.storage.stat(locked.storage_key);
      if (!stored || stored.size !== locked.file_size) {
        await uploads.update(locked.id, {
          status: UploadStatus.failed,
          error: 'size-mismatch',
          updated_at: now,
        });
        return 'size-mismatch' as const;
      }
      // Issue 9: only a file the uploader may change is joined (else a file of their own is made),
      // so the metadata below never rewrites another department's file.
      const item =
        chosen ??
        (await this.deps.targets.fileForUpload(
          items,
          auth,
          folder,
          { baseName: locked.base_name, format: locked.format, ownerId: locked.user_id },
          now,
        ));
      // Kept behind the current version (keepCurrent): only while the file has a shown record of
      // the format; otherwise the copy is the only one and shown.
      const keptBehind = locked.hidden && (await uploads.hasShownRecordOf(item.id, locked.format, locked.id));
      await uploads.update(locked.id, {
        status: UploadStatus.done,
        upload_schedule: 100,
        item_id: item.id,
        hidden: keptBehind,
        completed_at: now,
        updated_at: now,
        error: null,
        ...(chosen
          ? {
              folder_id: chosen.parent_id,
              base_name: chosen.name,
              file_name: `${chosen.name}.${locked.format}`,
            }
          : {}),
      });
      await uploads.clearParts(locked.id);
      await items.setFileMetadata(item.id, {
        type: fileTypeWith(item, locked.format),
        ...(locked.art_num ? { art_num: locked.art_num } : {}),
        ...(locked.expire_start_date ? { expire_start_date: locked.expire_start_date } : {}),
        ...(locked.expire_end_date ? { expire_end_date: locked.expire_end_date } : {}),
      });
      // The upload's tags join the file's (a new version adds to what the file has).
      await uploads.addItemTags(item.id, locked.tag_ids);
      await items.refreshFileSummary(item.id, now);
      // In this transaction, not after it: a process that dies after the commit still leaves the
      // job (issue 38: jobs sent after the commit were lost to a kill -9).
      await uploads.writeMediaJob(locked.id, this.deps.mediaJobs);
      return 'finished' as const;
    });
    if (outcome === 'size-mismatch') throw new AppError('SEF_06');
    return outcome === 'finished';
  }

  /**
   * The upload panel's "add as new version" (issue 17): the caller's finished upload leaves the
   * file it made (or joined by name) and joins `itemId` under that file's name, as the "upload a
   * new version" dialog would have put it; the target is checked as the dialog's choice is. A file
   * left with no record goes, its tags joining the target; one with other records keeps them.
   * With `keepCurrent` it joins as a version not shown (issue 39 item 9), as a batch entry's
   * keepCurrent does. Asked again once done, it answers the same.
   */
  async attachAsVersion(
    auth: AuthContext,
    uploadId: number,
    itemId: number,
    keepCurrent = false,
  ): Promise<{
    attached: { itemId: number; path: string; name: string };
    /** The file the record left, and whether it went for having no record left. */
    source: { id: number; deleted: boolean } | null;
  }> {
    await this.ownUpload(auth, uploadId);
    const now = this.deps.clock.now();
    return this.uploads.transaction(async (uploads, items) => {
      const locked = await uploads.findByIdForUpdate(uploadId);
      if (!locked) throw new AppError('SE_404');
      // A hidden record is not attached, unless it is one kept behind this very file (asked again).
      if (
        locked.status !== UploadStatus.done ||
        locked.item_id === null ||
        (locked.hidden && locked.item_id !== itemId)
      )
        throw invalidField('uploadId', 'wrongState');
      const sourceId = locked.item_id;
      if (sourceId !== itemId) {
        // Names first, then rows, each in one order: the order an upload joining either file by
        // name takes (fileForUpload: `x`, `x (2)` … `x (10)`), so neither waits on the other.
        const seen = await items.findByIds([sourceId, itemId], auth.userId);
        const keys = seen.map((row) => ({ parentId: row.parent_id, name: row.name }));
        keys.sort((a, b) =>
          `${a.parentId ?? 0}/${a.name.toLowerCase()}`.localeCompare(
            `${b.parentId ?? 0}/${b.name.toLowerCase()}`,
            'en',
            {
              numeric: true,
            },
          ),
        );
        for (const key of keys) await items.lockName(key.parentId, key.name);
        await items.lockRows([sourceId, itemId]);
      }
      // Read again under the locks: a rename, move or deletion meanwhile is seen.
      const { item: target, folder } = await this.deps.targets.versionTarget(items, auth, itemId);
      const attached = {
        itemId: target.id,
        path: folder ? joinPath(folder.folder_path, folder.name) : '/',
        name: target.name,
      };
      if (sourceId === target.id) return { attached, source: null };
      const source = await items.findById(sourceId, auth.userId);
      // The file the upload is in must still be live (one in the recycle bin is restored or purged
      // as a whole, not picked apart), and the caller must still be allowed to change it.
      if (!source || source.state !== ItemState.normal) throw invalidField('uploadId', 'wrongState');
      if (!canSee(auth, source) || !canEdit(auth, source)) throw new AppError('SE_502');
      const deleted = (await uploads.countOfItem(sourceId)) === 1;
      // A file that would go for it must be the caller's own, not one their upload joined by name.
      if (deleted && source.owner_id !== auth.userId) throw new AppError('SE_502');
      // Kept behind the target's current version (keepCurrent), as at the callback: only while the
      // target has a shown record of the format; otherwise the upload is its only one and shown.
      const keptBehind = keepCurrent && (await uploads.hasShownRecordOf(target.id, locked.format, locked.id));
      await uploads.update(locked.id, {
        hidden: keptBehind,
        item_id: target.id,
        folder_id: target.parent_id,
        relative_path: '',
        base_name: target.name,
        file_name: `${target.name}.${locked.format}`,
        version_of_item_id: target.id,
        updated_at: now,
      });
      await items.setFileMetadata(target.id, { type: fileTypeWith(target, locked.format) });
      // The record's own tags come along (a new version adds to what the file has).
      await uploads.addItemTags(target.id, locked.tag_ids);
      if (deleted) {
        await uploads.handOnToFile(sourceId, target.id);
        await items.deleteFileWithoutRecords(sourceId);
      } else {
        await items.refreshFileSummary(sourceId, now);
      }
      await items.refreshFileSummary(target.id, now);
      return { attached, source: { id: sourceId, deleted } };
    });
  }

  /**
   * Starts a failed or cancelled upload again from nothing (SPEC §7 reupload). Under the record's
   * row lock; a duplicate finding it already reset (waiting, nothing stored) succeeds alike.
   */
  async reupload(auth: AuthContext, id: number): Promise<void> {
    await this.ownUpload(auth, id);
    const previous = await this.uploads.transaction(async (uploads) => {
      const locked = await uploads.findByIdForUpdate(id);
      if (!locked) throw new AppError('SE_404');
      if (locked.status === UploadStatus.waiting && !locked.multipart_id) return null;
      if (locked.status !== UploadStatus.failed && locked.status !== UploadStatus.cancelled) {
        throw invalidField('id', 'wrongState');
      }
      await uploads.clearParts(id);
      await uploads.update(id, {
        status: UploadStatus.waiting,
        multipart_id: null,
        part_size: null,
        upload_schedule: 0,
        error: null,
        updated_at: this.deps.clock.now(),
        // A cancelled record's key is queued for deletion: the new attempt writes to a fresh one.
        ...(locked.status === UploadStatus.cancelled
          ? { storage_key: newStorageKey(this.deps.clock.now(), locked.format) }
          : {}),
      });
      return locked;
    });
    if (previous?.multipart_id) {
      await this.deps.storage
        .abortMultipartUpload(previous.storage_key, previous.multipart_id)
        .catch((err) => this.deps.warn({ err, upload: id }, 'could not abort the previous multipart upload'));
    }
  }

  /** Cancels unfinished uploads, freeing what was stored of them; finished ones cannot be cancelled. */
  async cancel(auth: AuthContext, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    const rows = await this.uploads.findByIds(unique);
    if (rows.length !== unique.length || rows.some((r) => r.user_id !== auth.userId))
      throw new AppError('SE_404');
    if (rows.some((r) => r.status === UploadStatus.done)) throw invalidField('idList', 'wrongState');
    const freed = await this.uploads.transaction(async (uploads) => {
      const keys = await uploads.cancelUnfinished(unique, this.deps.clock.now());
      if (!keys) throw invalidField('idList', 'wrongState');
      return keys;
    });
    // Their objects and open multipart uploads go through the deletion outbox, retried until gone.
    await this.deps.objectsFreed?.(freed);
  }

  async list(
    auth: AuthContext,
    which: 'unfinished' | 'finished',
    paging: { pageNo: number; pageSize: number },
  ) {
    const statuses =
      which === 'finished'
        ? [UploadStatus.done]
        : [UploadStatus.waiting, UploadStatus.uploading, UploadStatus.failed];
    const rows = await this.uploads.listByStatus(
      auth.userId,
      statuses,
      paging.pageSize + 1,
      (paging.pageNo - 1) * paging.pageSize,
    );
    const page = rows.slice(0, paging.pageSize);
    // Each record shows its batch's mail notice (SPEC §4 step 3), as its sender may follow it.
    const notices = (await this.deps.mailNotices?.(page.map((r) => r.batch_num))) ?? new Map();
    const list = page.map((row) => ({
      ...toUploadRecord(row),
      mailNotice: notices.get(row.batch_num) ?? null,
    }));
    return { list, pageNo: paging.pageNo, pageSize: paging.pageSize, hasMore: rows.length > paging.pageSize };
  }
}

/** A file's type once `format` joins it: an image format makes an image, else a video, else a document. */
function fileTypeWith(item: { file_formats: string | null }, format: string): ItemType {
  const formats = new Set([...(item.file_formats?.split(',') ?? []), format]);
  const types = [...formats].map(itemTypeOfFormat);
  return types.includes(ItemType.image)
    ? ItemType.image
    : types.includes(ItemType.video)
      ? ItemType.video
      : ItemType.other;
}
