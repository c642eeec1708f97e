import { type CreateUploadBatch, splitFileName, type UploadRecord } from '@dam/contract';
import { newStorageKey } from '../../storage/storage';
import { joinPath } from '../items/presenter';
import type { UploadsRepository } from './repository';

type ListedUpload = Awaited<ReturnType<UploadsRepository['listByStatus']>>[number];

/** An upload record as the upload-record screen shows it (SPEC §3 upload task). */
export function toUploadRecord(row: ListedUpload): Omit<UploadRecord, 'mailNotice'> {
  return {
    id: row.id,
    batchNum: row.batch_num,
    fileName: row.file_name,
    fileFormat: row.format,
    fileSize: row.file_size,
    fileInfo: row.last_modified?.getTime() ?? null,
    path: row.folder_name && row.parent_path ? joinPath(row.parent_path, row.folder_name) : '/',
    status: row.status,
    uploadSchedule: row.upload_schedule,
    error: row.error,
    url: row.storage_key,
    folderDataId: row.item_id,
    previewStatus: row.preview_status,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

type BatchEntry = CreateUploadBatch['uploadDetailDTOS'][number];

/** The record of one file of a new batch, waiting for its bytes; its own tags override the batch's. */
export function newUploadRow(
  entry: BatchEntry,
  batchTags: number[] | undefined,
  batch: { batchNum: string; userId: number; folderId: number | null; now: Date },
) {
  const { baseName, format } = splitFileName(entry.fileName);
  return {
    batch_num: batch.batchNum,
    user_id: batch.userId,
    folder_id: batch.folderId,
    relative_path: entry.path.join('/'),
    file_name: entry.fileName,
    base_name: baseName,
    format,
    file_size: entry.fileSize,
    last_modified: entry.fileInfo !== undefined ? new Date(entry.fileInfo) : null,
    storage_key: newStorageKey(batch.now, format),
    art_num: entry.artNum || null,
    expire_start_date: entry.expireStartTime ?? null,
    expire_end_date: entry.expireEndTime ?? null,
    tag_ids: entry.tagIdList ?? batchTags ?? [],
    width: entry.width ?? null,
    height: entry.height ?? null,
    // Issue 39 item 9: a smaller copy kept behind the file's current version joins as a version
    // not shown (see keepCurrent); the callback shows it after all when the file has no other.
    ...(entry.keepCurrent ? { hidden: true } : {}),
    created_at: batch.now,
    updated_at: batch.now,
  };
}
