import { type FolderRef, ItemState, ItemType, itemTypeOfFormat } from '@dam/contract';
import type { ItemRow } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { AuthContext } from '../access/access';
import { resolveFolder } from './lookup';
import { canEdit, canSee, canUploadInto } from './policy';
import { joinPath } from './presenter';
import type { ItemsRepository, ItemWithOwner } from './repository';

type FolderRow = ItemWithOwner;

/**
 * Where uploads land (SPEC §4 item model): the target folder and the subfolders of a folder
 * upload, and the logical file each finished upload joins. Runs inside the upload's transaction.
 */
export class UploadTargets {
  constructor(private readonly clock: Clock) {}

  /**
   * Where an upload batch goes: the target folder (upload permission checked) and, for folder
   * uploads, each relative subfolder, created when missing. Runs inside the caller's transaction.
   */
  async prepareUploadFolders(
    repo: ItemsRepository,
    auth: AuthContext,
    target: { id?: FolderRef | undefined; path?: string | undefined },
    relativePaths: string[][],
  ): Promise<Map<string, FolderRow | null>> {
    const root = await resolveFolder(repo, auth, target);
    if (!canUploadInto(auth, root)) throw new AppError('SE_502');
    const folders = new Map<string, FolderRow | null>([['', root]]);
    for (const segments of relativePaths) {
      let parent = root;
      for (let depth = 1; depth <= segments.length; depth++) {
        const key = segments.slice(0, depth).join('/');
        const known = folders.get(key);
        if (known !== undefined) {
          parent = known;
          continue;
        }
        const folder = await this.subfolderForUpload(repo, auth, parent, segments[depth - 1] as string);
        folders.set(key, folder);
        parent = folder;
      }
    }
    return folders;
  }

  /**
   * Where a file the uploader asked to add as a new version of `itemId` goes (issue 17, "add as
   * new version" in the near-duplicate warning): the item's folder under the item's name, so the
   * finished upload joins it as the "upload a new version" dialog's do. The item must be a live
   * file the uploader may change, in a folder they may upload into; nothing is created otherwise.
   */
  async versionTarget(
    repo: ItemsRepository,
    auth: AuthContext,
    itemId: number,
  ): Promise<{ folder: FolderRow | null; baseName: string; item: FolderRow }> {
    const item = await repo.findById(itemId, auth.userId);
    if (!item || item.state !== ItemState.normal || item.type === ItemType.folder || !canSee(auth, item))
      throw new AppError('SE_404');
    if (!canEdit(auth, item)) throw new AppError('SE_502');
    const folder =
      item.parent_id === null ? null : ((await repo.findById(item.parent_id, auth.userId)) ?? null);
    // A folder on its way to the recycle bin would send the upload to the top level instead.
    if (item.parent_id !== null && folder?.state !== ItemState.normal) throw new AppError('SE_404');
    if (!canUploadInto(auth, folder)) throw new AppError('SE_502');
    return { folder, baseName: item.name, item };
  }

  /**
   * At the callback, the file an upload was asked to become a version of (`version_of_item_id`):
   * that file whatever it is called by now, while it is live and the uploader may change it; else
   * undefined, and the upload joins by name like any other. Holds the lock of the file's name.
   */
  async chosenVersionFile(
    repo: ItemsRepository,
    auth: AuthContext,
    itemId: number,
  ): Promise<ItemRow | undefined> {
    const seen = await repo.findById(itemId, auth.userId);
    if (!seen) return undefined;
    // Its name, then its row (the order every upload takes), then read again: a rename, move or
    // deletion meanwhile is seen, not written over.
    await repo.lockName(seen.parent_id, seen.name);
    await repo.lockRows([itemId]);
    const item = await repo.findById(itemId, auth.userId);
    if (!item || item.state !== ItemState.normal || item.type === ItemType.folder) return undefined;
    if (!canSee(auth, item) || !canEdit(auth, item)) return undefined;
    return item;
  }

  /**
   * The subfolder of a folder upload: the live one of that name when the uploader may see it and
   * upload into it; otherwise `name (2)`, `name (3)`… by the same rule as files (fileForUpload), so
   * a folder of another department is neither entered nor revealed.
   */
  private async subfolderForUpload(
    repo: ItemsRepository,
    auth: AuthContext,
    parent: FolderRow | null,
    baseName: string,
  ): Promise<FolderRow> {
    const parentId = parent?.id ?? null;
    for (let n = 1; ; n++) {
      const name = n === 1 ? baseName : `${baseName} (${n})`;
      await repo.lockName(parentId, name);
      const existing = await repo.findLiveSubfolder(parentId, name);
      if (existing && canUploadInto(auth, existing))
        return (await repo.findById(existing.id, auth.userId)) as FolderRow;
      if (existing) continue;
      const id = await repo.insertFolder({
        parent_id: parentId,
        parentIdPath: parent?.id_path ?? '/',
        name,
        folder_path: parent ? joinPath(parent.folder_path, parent.name) : '/',
        owner_id: auth.userId,
        dept_path: auth.deptPath ?? '/',
        visibility: parent?.visibility ?? 'shared',
        created_at: this.clock.now(),
      });
      return (await repo.findById(id, auth.userId)) as FolderRow;
    }
  }

  /**
   * The logical file a finished upload joins (SPEC §4 item model), made when missing: the live
   * file of the same base name in the folder, but only when the uploader may see and change it.
   * Otherwise the upload goes to `name (2)`, `name (3)`…: the first of these the uploader may
   * change, or the first free one (see docs/decisions.md, "Which logical file a record joins").
   * Runs inside the caller's transaction and holds the lock of every name it looks at.
   * `mayJoin` narrows which existing files are joined (generated pages join only earlier outputs,
   * never a person's own file of the same name); one it refuses is passed over like one of another
   * department.
   */
  async fileForUpload(
    repo: ItemsRepository,
    auth: AuthContext,
    folder: ItemRow | null,
    upload: { baseName: string; format: string; ownerId: number },
    now: Date,
    options: { mayJoin?: (existing: ItemRow) => Promise<boolean> } = {},
  ): Promise<ItemRow> {
    const parentId = folder?.id ?? null;
    for (let n = 1; ; n++) {
      const name = n === 1 ? upload.baseName : `${upload.baseName} (${n})`;
      await repo.lockName(parentId, name);
      const existing = await repo.findLiveFileByName(parentId, name);
      if (
        existing &&
        canSee(auth, existing) &&
        canEdit(auth, existing) &&
        (options.mayJoin === undefined || (await options.mayJoin(existing)))
      )
        return existing;
      if (existing) continue;
      const id = await repo.insertFile({
        type: itemTypeOfFormat(upload.format),
        parent_id: parentId,
        parentIdPath: folder ? folder.id_path : '/',
        name,
        folder_path: folder ? joinPath(folder.folder_path, folder.name) : '/',
        owner_id: upload.ownerId,
        dept_path: auth.deptPath ?? '/',
        visibility: folder?.visibility ?? 'shared',
        created_at: now,
      });
      const created = await repo.findById(id, auth.userId);
      if (!created) throw new Error('file item vanished');
      return created;
    }
  }
}
