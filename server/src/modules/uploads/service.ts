import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type CreateUploadBatch, ItemState, LIMITS, type MultipartState, UploadStatus } from '@dam/contract';
import { AppError, invalidField } from '../../http/app-error';
import { newStorageKey, type StoredPart } from '../../storage/storage';
import type { AuthContext } from '../access/access';
import { canUploadInto } from '../items/policy';
import { joinPath } from '../items/presenter';
import type { UploadTargets } from '../items/upload-targets';
import type { UploadsDependencies } from './dependencies';
import { expectedPartSize, partCount } from './parts';
import { newUploadRow, toUploadRecord } from './records';
import { ownUpload, partDone, receiveLocalPart, signParts, startMultipart } from './transfer';
import { attachAsVersion, fileTypeWith } from './versions';

export type { UploadsDependencies } from './dependencies';
export { localPartUrlMaker } from './parts';

export { UploadStatus };

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
  private ownUpload(auth: AuthContext, id: number) {
    return ownUpload(this.deps, auth, id);
  }

  /** Starts the multipart transfer, or reports the parts already stored so the browser resumes. */
  startMultipart(auth: AuthContext, id: number): Promise<MultipartState> {
    return startMultipart(this.deps, auth, id);
  }

  signParts(auth: AuthContext, id: number, partNumbers: number[]) {
    return signParts(this.deps, auth, id, partNumbers);
  }

  /** Receives one part for the local driver, authorised by its signed URL alone (see transfer.ts). */
  receiveLocalPart(token: string, body: Readable): Promise<StoredPart> {
    return receiveLocalPart(this.deps, token, body);
  }

  /** After a PUT straight to S3, the browser reports the part (the store's ETag). */
  partDone(auth: AuthContext, report: { id: number; partNumber: number; etag: string; size: number }) {
    return partDone(this.deps, auth, report);
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
      // An approved file given a new shown version goes back to review (issue 43).
      const mails = keptBehind
        ? []
        : await uploads.newVersionShown(item.id, auth.userId, now, this.deps.newVersion);
      return { mails };
    });
    if (outcome === 'size-mismatch') throw new AppError('SEF_06');
    if (outcome === 'already') return false;
    await this.deps.newVersion?.queue(outcome.mails);
    return true;
  }
  /** The upload panel's "add as new version" (issue 17; see versions.ts). */
  attachAsVersion(auth: AuthContext, uploadId: number, itemId: number, keepCurrent = false) {
    return attachAsVersion(this.deps, auth, uploadId, itemId, keepCurrent);
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
