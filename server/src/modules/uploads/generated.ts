import { ItemType, UploadStatus } from '@dam/contract';
import type { ItemRow } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { newStorageKey, type ObjectStorage } from '../../storage/storage';
import type { AuthContext } from '../access/access';
import type { ObjectsFreed } from '../deletion-outbox/service';
import type { ItemsRepository } from '../items/repository';
import type { UploadTargets } from '../items/upload-targets';
import type { MediaJobWriter, UploadsRepository } from './repository';

/** A file the server made (a rendered detail page) to be saved as a DAM file. */
export interface GeneratedFile {
  /** Local file holding the bytes. */
  file: string;
  /** The file's name without its extension (`AB1234_详情页_01`). */
  baseName: string;
  format: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
}

/** A generated file as saved: the logical file it became (or joined as a new version) and its record. */
export interface SavedFile {
  file: GeneratedFile;
  itemId: number;
  uploadId: number;
  /** The name it got (`name (2)` when the name was taken by a file it may not join). */
  name: string;
  /** The folder it is in (null: the top level). */
  folderId: number | null;
}

/**
 * The transaction the files are saved in, with the caller's own repository bound to it (`R`),
 * so rows of its own (the maker's outputs) commit together with the files.
 */
export type GeneratedTransaction<R> = <T>(
  work: (uploads: UploadsRepository, items: ItemsRepository, own: R) => Promise<T>,
) => Promise<T>;

export interface GeneratedBatch<R> {
  /** Who the files belong to; their right to upload into the folder is checked in the transaction. */
  auth: AuthContext;
  /** The target folder; null: the top level. */
  folderId: number | null;
  /** A subfolder of the target (made when missing, as a folder upload makes it), or null. */
  subfolder: string | null;
  artNum: string | null;
  tagIds: readonly number[];
  batchNum: string;
  files: readonly GeneratedFile[];
  transaction: GeneratedTransaction<R>;
  /** Which existing file of the same name a file may join as a new version (default: none). */
  mayJoin?: (own: R, existing: ItemRow) => Promise<boolean>;
  /** Runs inside the transaction once every file is saved. */
  saved?: (own: R, files: SavedFile[], items: ItemsRepository) => Promise<void>;
}

export interface GeneratedFilesDependencies {
  storage: ObjectStorage;
  targets: UploadTargets;
  clock: Clock;
  /** Records keys in the object-deletion outbox (a save whose transaction failed leaves its objects there). */
  outbox: { enqueueKeys(keys: readonly string[], now: Date): Promise<void> };
  /** Queues the deletion of objects recorded in the outbox. */
  objectsFreed?: ObjectsFreed;
  /** Writes a record's media job in the transaction that makes it, as for uploads. */
  mediaJobs: MediaJobWriter | null;
}

/**
 * Files the server made, saved as real DAM files through the uploads' item model (SPEC §4): one
 * finished upload record each, joined to a logical file by `fileForUpload` (same name, same rules),
 * with art number and tags, thumbnails by the media queue (the jobs written in the same
 * transaction). The objects are written first; then one
 * transaction makes every record and file, so a save is whole or nothing, and a failed one hands
 * the objects it wrote to the deletion outbox.
 */
export class GeneratedFiles {
  constructor(private readonly deps: GeneratedFilesDependencies) {}

  async save<R>(batch: GeneratedBatch<R>): Promise<SavedFile[]> {
    const { storage, targets, clock } = this.deps;
    const now = clock.now();
    const keys: string[] = [];
    let saved: SavedFile[];
    try {
      for (const file of batch.files) {
        const key = newStorageKey(now, file.format);
        keys.push(key);
        await storage.writeFile(key, file.file, file.contentType);
      }
      saved = await batch.transaction(async (uploads, items, own) => {
        const relative = batch.subfolder === null ? [] : [[batch.subfolder]];
        // Checks the right to upload into the target again now: the folder may have gone to the
        // recycle bin, or the user's roles changed, since the work was asked for.
        const folders = await targets.prepareUploadFolders(
          items,
          batch.auth,
          { id: batch.folderId ?? 'all' },
          relative,
        );
        const folder = folders.get(batch.subfolder ?? '') ?? null;
        const result: SavedFile[] = [];
        for (const [index, file] of batch.files.entries()) {
          const item = await targets.fileForUpload(
            items,
            batch.auth,
            folder,
            { baseName: file.baseName, format: file.format, ownerId: batch.auth.userId },
            now,
            batch.mayJoin
              ? { mayJoin: (existing) => (batch.mayJoin as NonNullable<typeof batch.mayJoin>)(own, existing) }
              : {},
          );
          const [record] = await uploads.insertMany([
            {
              batch_num: batch.batchNum,
              user_id: batch.auth.userId,
              folder_id: folder?.id ?? null,
              relative_path: batch.subfolder ?? '',
              file_name: `${file.baseName}.${file.format}`,
              base_name: file.baseName,
              format: file.format,
              file_size: file.bytes,
              last_modified: null,
              storage_key: keys[index] as string,
              status: UploadStatus.done,
              upload_schedule: 100,
              art_num: batch.artNum,
              tag_ids: [...batch.tagIds],
              item_id: item.id,
              width: file.width,
              height: file.height,
              created_at: now,
              updated_at: now,
              completed_at: now,
            },
          ]);
          if (!record) throw new Error('generated upload record not inserted');
          await items.setFileMetadata(item.id, {
            type: ItemType.image,
            ...(batch.artNum ? { art_num: batch.artNum } : {}),
          });
          await uploads.addItemTags(item.id, batch.tagIds);
          await items.refreshFileSummary(item.id, now);
          await uploads.writeMediaJob(record.id, this.deps.mediaJobs);
          result.push({
            file,
            itemId: item.id,
            uploadId: record.id,
            name: item.name,
            folderId: folder?.id ?? null,
          });
        }
        await batch.saved?.(own, result, items);
        return result;
      });
    } catch (error) {
      await this.free(keys);
      throw error;
    }
    return saved;
  }

  /** Objects written for a save that did not commit: no record holds them, the outbox deletes them. */
  private async free(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.deps.outbox.enqueueKeys(keys, this.deps.clock.now());
    await this.deps.objectsFreed?.(keys);
  }
}
