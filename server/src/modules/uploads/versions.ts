import { ItemState, ItemType, itemTypeOfFormat, UploadStatus } from '@dam/contract';
import { AppError, invalidField } from '../../http/app-error';
import type { AuthContext } from '../access/access';
import { canEdit, canSee } from '../items/policy';
import { joinPath } from '../items/presenter';
import type { UploadsDependencies } from './dependencies';
import { ownUpload } from './transfer';

/**
 * The upload panel's "add as new version" (issue 17): the caller's finished upload leaves the
 * file it made (or joined by name) and joins `itemId` under that file's name, as the "upload a
 * new version" dialog would have put it; the target is checked as the dialog's choice is. A file
 * left with no record goes, its tags joining the target; one with other records keeps them.
 * With `keepCurrent` it joins as a version not shown (issue 39 item 9), as a batch entry's
 * keepCurrent does. Asked again once done, it answers the same.
 */
export async function attachAsVersion(
  deps: UploadsDependencies,
  auth: AuthContext,
  uploadId: number,
  itemId: number,
  keepCurrent = false,
): Promise<{
  attached: { itemId: number; path: string; name: string };
  /** The file the record left, and whether it went for having no record left. */
  source: { id: number; deleted: boolean } | null;
}> {
  await ownUpload(deps, auth, uploadId);
  const now = deps.clock.now();
  const result = await deps.uploads.transaction(async (uploads, items) => {
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
    const { item: target, folder } = await deps.targets.versionTarget(items, auth, itemId);
    const attached = {
      itemId: target.id,
      path: folder ? joinPath(folder.folder_path, folder.name) : '/',
      name: target.name,
    };
    if (sourceId === target.id) return { attached, source: null, mails: [] as number[] };
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
    const mails = keptBehind
      ? []
      : await uploads.newVersionShown(target.id, auth.userId, now, deps.newVersion);
    return { attached, source: { id: sourceId, deleted }, mails };
  });
  await deps.newVersion?.queue(result.mails);
  return { attached: result.attached, source: result.source };
}

/** A file's type once `format` joins it: an image format makes an image, else a video, else a document. */
export function fileTypeWith(item: { file_formats: string | null }, format: string): ItemType {
  const formats = new Set([...(item.file_formats?.split(',') ?? []), format]);
  const types = [...formats].map(itemTypeOfFormat);
  return types.includes(ItemType.image)
    ? ItemType.image
    : types.includes(ItemType.video)
      ? ItemType.video
      : ItemType.other;
}
