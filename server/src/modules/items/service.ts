import {
  type BatchMoveRequest,
  type FolderListingRequest,
  type FolderListingResult,
  type FolderNode,
  type FolderRef,
  type Item,
  ItemState,
  ItemType,
  isTopLevel,
  itemTypeOfFormat,
  type PagedItems,
  RankStatus,
  type RecycledItem,
  type Visibility,
} from '@dam/contract';
import type { ItemRow } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { type Clock, calendarDate } from '../../lib/clock';
import { type AuthContext, fileScopeFilter } from '../access/access';
import type { MediaUrls } from '../media/urls';
import type { ObjectsFreed } from '../objects/service';
import { canEdit, canSee, canUploadInto } from './policy';
import { joinPath, presentItem, splitPath } from './presenter';
import { type ItemsRepository, type ItemWithOwner, isUniqueViolation, type Viewer } from './repository';

interface Paging {
  pageNo: number;
  pageSize: number;
}

type FolderRow = ItemWithOwner;

/** Folders, listings, moving, the recycle bin, favourites and recently viewed (SPEC §7). */
export class ItemsService {
  constructor(
    private readonly items: ItemsRepository,
    private readonly clock: Clock,
    private readonly timeZone: string,
    private readonly mediaUrls: MediaUrls,
    /** Queues the deletion of objects recorded in the outbox (purging the recycle bin). */
    private readonly objectsFreed: ObjectsFreed = async () => {},
  ) {}

  private today(): string {
    return calendarDate(this.clock.now(), this.timeZone);
  }

  private viewer(auth: AuthContext): Viewer {
    return { userId: auth.userId, view: fileScopeFilter(auth, 'view') };
  }

  /** API items with signed thumbnail URLs. */
  private async present(rows: ItemWithOwner[], auth: AuthContext): Promise<Item[]> {
    const today = this.today();
    return Promise.all(
      rows.map(async (row) => ({
        ...presentItem(row, auth, today),
        compactUrl: await this.mediaUrls.urlOf(row.cover_key, auth),
      })),
    );
  }

  private page<T>(
    rows: T[],
    paging: Paging,
  ): { list: T[]; pageNo: number; pageSize: number; hasMore: boolean } {
    return {
      list: rows.slice(0, paging.pageSize),
      pageNo: paging.pageNo,
      pageSize: paging.pageSize,
      hasMore: rows.length > paging.pageSize,
    };
  }

  /**
   * A live item the caller can see. Unknown or hidden from the caller → SE_404 alike, so ids cannot
   * be probed (docs/decisions.md, Errors); in the recycle bin → SEF_04 (only when the caller could
   * see it).
   */
  private async visibleItem(repo: ItemsRepository, auth: AuthContext, id: number): Promise<ItemWithOwner> {
    const row = await repo.findById(id, auth.userId);
    if (!row || !canSee(auth, row)) throw new AppError('SE_404');
    if (row.state !== ItemState.normal) throw new AppError('SEF_04');
    return row;
  }

  private async visibleFolder(repo: ItemsRepository, auth: AuthContext, id: number): Promise<FolderRow> {
    const row = await this.visibleItem(repo, auth, id);
    if (row.type !== ItemType.folder) throw new AppError('SE_404');
    return row;
  }

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
    const root = await this.resolveFolder(repo, auth, target);
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
   */
  async fileForUpload(
    repo: ItemsRepository,
    auth: AuthContext,
    folder: ItemRow | null,
    upload: { baseName: string; format: string; ownerId: number },
    now: Date,
  ): Promise<ItemRow> {
    const parentId = folder?.id ?? null;
    for (let n = 1; ; n++) {
      const name = n === 1 ? upload.baseName : `${upload.baseName} (${n})`;
      await repo.lockName(parentId, name);
      const existing = await repo.findLiveFileByName(parentId, name);
      if (existing && canSee(auth, existing) && canEdit(auth, existing)) return existing;
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

  /** A folder named by id or display path; null is the top level. */
  private async resolveFolder(
    repo: ItemsRepository,
    auth: AuthContext,
    ref: { id?: FolderRef | undefined; path?: string | undefined },
  ): Promise<FolderRow | null> {
    if (ref.id !== undefined)
      return isTopLevel(ref.id) ? null : this.visibleFolder(repo, auth, Number(ref.id));
    const split = splitPath(ref.path ?? '/');
    if (!split) return null;
    const found = await repo.findLiveFolderByPath(split.folderPath, split.name);
    if (!found) throw new AppError('SE_404');
    return this.visibleFolder(repo, auth, found.id);
  }

  async createFolder(
    auth: AuthContext,
    body: {
      folderName: string;
      path?: string | undefined;
      parentId?: FolderRef | undefined;
      visibility?: Visibility | undefined;
    },
  ): Promise<{ folderId: number; fatherFolderId: number | null }> {
    return this.items.transaction(async (repo) => {
      const parent = await this.resolveFolder(repo, auth, { id: body.parentId, path: body.path });
      if (!canUploadInto(auth, parent)) throw new AppError('SE_502');
      if (await repo.nameTaken(parent?.id ?? null, true, body.folderName)) throw new AppError('SEF_01');
      const visibility: Visibility =
        parent?.visibility === 'private' ? 'private' : (body.visibility ?? 'shared');
      try {
        const folderId = await repo.insertFolder({
          parent_id: parent?.id ?? null,
          parentIdPath: parent?.id_path ?? '/',
          name: body.folderName,
          folder_path: parent ? joinPath(parent.folder_path, parent.name) : '/',
          owner_id: auth.userId,
          dept_path: auth.deptPath ?? '/',
          visibility,
          created_at: this.clock.now(),
        });
        return { folderId, fatherFolderId: parent?.id ?? null };
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('SEF_01');
        throw error;
      }
    });
  }

  /** Renames and/or moves one folder (the create/edit folder dialog). */
  async updateFolder(
    auth: AuthContext,
    body: {
      folderDataId: number;
      folderName?: string | undefined;
      path?: string | undefined;
      parentId?: FolderRef | undefined;
      confirmShare?: boolean | undefined;
    },
  ): Promise<void> {
    await this.items.transaction(async (repo) => {
      const folder = await this.visibleFolder(repo, auth, body.folderDataId);
      if (!canEdit(auth, folder)) throw new AppError('SE_502');
      if (body.folderName !== undefined && body.folderName !== folder.name) {
        if (await repo.nameTaken(folder.parent_id, true, body.folderName, folder.id))
          throw new AppError('SEF_01');
        await this.renameIn(repo, folder, body.folderName);
        folder.name = body.folderName;
      }
      if (body.parentId !== undefined || body.path !== undefined) {
        const target = await this.resolveFolder(repo, auth, { id: body.parentId, path: body.path });
        if ((target?.id ?? null) !== folder.parent_id) {
          await this.moveIn(repo, auth, [folder], target, body.confirmShare === true);
        }
      }
    });
  }

  private async renameIn(repo: ItemsRepository, item: ItemWithOwner, name: string): Promise<void> {
    const now = this.clock.now();
    try {
      await repo.renameItem(item.id, name, now);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('SEF_01');
      throw error;
    }
    await repo.rewriteSubtree({
      oldIdPath: item.id_path,
      newIdPath: item.id_path,
      oldFullPath: joinPath(item.folder_path, item.name),
      newFullPath: joinPath(item.folder_path, name),
      now,
    });
  }

  async listFolder(auth: AuthContext, request: FolderListingRequest): Promise<FolderListingResult> {
    // Tags of one dimension are alternatives, dimensions must all match (see docs/decisions.md).
    const tagGroups =
      request.tagIdList && request.tagIdList.length > 0
        ? await this.items.tagFilterGroups(request.tagIdList)
        : undefined;
    const folder = isTopLevel(request.folderDataId)
      ? null
      : await this.visibleFolder(this.items, auth, Number(request.folderDataId));
    const order =
      request.rankStatus === RankStatus.up
        ? 'nameAsc'
        : request.rankStatus === RankStatus.down
          ? 'nameDesc'
          : 'normal';
    const rows = await this.items.listChildren(
      folder?.id ?? null,
      this.viewer(auth),
      {
        minCreatedAt: request.minCreatedAt ? new Date(request.minCreatedAt) : undefined,
        maxCreatedAt: request.maxCreatedAt ? endOfDayIfDate(request.maxCreatedAt) : undefined,
        minExpireDate: request.minExpireTime?.slice(0, 10),
        maxExpireDate: request.maxExpireTime?.slice(0, 10),
        tagGroups,
      },
      order,
      request.pageSize + 1,
      (request.pageNo - 1) * request.pageSize,
    );
    const breadcrumb = folder ? await this.items.namesOnPath(folder.id_path) : [];
    const today = this.today();
    return {
      folder: folder ? presentItem(folder, auth, today) : null,
      breadcrumb,
      ...this.page(await this.present(rows, auth), request),
    };
  }

  /** Opening a folder: checks the caller may, and records it among their recently viewed. */
  async openFolder(auth: AuthContext, ref: FolderRef): Promise<{ canView: true; folder: Item | null }> {
    if (isTopLevel(ref)) return { canView: true, folder: null };
    const folder = await this.visibleFolder(this.items, auth, Number(ref));
    await this.items.recordView(auth.userId, folder.id, this.clock.now());
    return { canView: true, folder: presentItem(folder, auth, this.today()) };
  }

  /** Subfolders for the folder picker; operatorType 1 (choosing a target) marks where uploads may go. */
  async folderSelector(auth: AuthContext, ref: FolderRef | undefined): Promise<FolderNode[]> {
    const parent =
      ref === undefined || isTopLevel(ref) ? null : await this.visibleFolder(this.items, auth, Number(ref));
    const rows = await this.items.listSubfolders(parent?.id ?? null, this.viewer(auth));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      path: joinPath(row.folder_path, row.name),
      type: ItemType.folder,
      currentFolderId: row.parent_id,
      visibility: row.visibility,
      hasChildren: Boolean(row.has_children),
    }));
  }

  async batchMove(auth: AuthContext, body: BatchMoveRequest): Promise<void> {
    await this.items.transaction(async (repo) => {
      const target = await this.resolveFolder(repo, auth, { id: body.targetFolderId, path: body.path });
      const items = await this.editableItems(repo, auth, body.folderDataIdList);
      await this.moveIn(repo, auth, items, target, body.confirmShare === true);
    });
  }

  /** Loads every id as a live item the caller may edit, or fails the whole batch. */
  private async editableItems(
    repo: ItemsRepository,
    auth: AuthContext,
    ids: number[],
  ): Promise<ItemWithOwner[]> {
    const unique = [...new Set(ids)];
    const rows = await repo.findByIds(unique, auth.userId);
    if (rows.length !== unique.length) throw new AppError('SE_404');
    for (const row of rows) {
      if (!canSee(auth, row)) throw new AppError('SE_404');
      if (row.state !== ItemState.normal) throw new AppError('SEF_04');
      if (!canEdit(auth, row)) throw new AppError('SE_502');
    }
    // An item inside another selected folder moves (or goes) with it.
    return rows.filter(
      (row) => !rows.some((other) => other !== row && row.id_path.startsWith(other.id_path)),
    );
  }

  private async moveIn(
    repo: ItemsRepository,
    auth: AuthContext,
    items: ItemWithOwner[],
    target: FolderRow | null,
    confirmShare: boolean,
  ): Promise<void> {
    if (!canUploadInto(auth, target)) throw new AppError('SE_502');
    const moving = items.filter((item) => item.parent_id !== (target?.id ?? null));
    if (target && moving.some((item) => target.id_path.startsWith(item.id_path)))
      throw new AppError('SEF_02');
    const targetVisibility: Visibility = target?.visibility ?? 'shared';
    let visibility: Visibility | undefined;
    if (targetVisibility === 'private') visibility = 'private';
    else if (await repo.subtreeHasPrivate(moving.map((i) => i.id_path))) {
      // SPEC §2 Move dialog: private items become shared only after the user confirms it.
      if (!confirmShare) throw new AppError('SEF_03');
      visibility = 'shared';
    }
    const now = this.clock.now();
    const folderPath = target ? joinPath(target.folder_path, target.name) : '/';
    for (const item of moving) {
      if (await repo.nameTaken(target?.id ?? null, item.type === ItemType.folder, item.name))
        throw new AppError('SEF_01');
      try {
        await repo.setParent(item.id, target?.id ?? null, folderPath);
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('SEF_01');
        throw error;
      }
      await repo.rewriteSubtree({
        oldIdPath: item.id_path,
        newIdPath: `${target?.id_path ?? '/'}${item.id}/`,
        oldFullPath: joinPath(item.folder_path, item.name),
        newFullPath: joinPath(folderPath, item.name),
        ...(visibility ? { visibility } : {}),
        now,
      });
    }
  }

  /** Sends files and folders (with everything inside) to the caller's recycle bin, all or nothing. */
  async batchDelete(auth: AuthContext, ids: number[]): Promise<void> {
    await this.items.transaction(async (repo) => {
      const items = await this.editableItems(repo, auth, ids);
      const now = this.clock.now();
      for (const item of items) await repo.removeSubtree(item.id, item.id_path, auth.userId, now);
    });
  }

  async listRecycle(
    auth: AuthContext,
    paging: Paging,
  ): Promise<{ list: RecycledItem[]; pageNo: number; pageSize: number; hasMore: boolean }> {
    const rows = await this.items.listRecycled(
      auth.userId,
      paging.pageSize + 1,
      (paging.pageNo - 1) * paging.pageSize,
    );
    const today = this.today();
    const list = await Promise.all(
      rows.map(async (row) => ({
        ...presentItem(row, auth, today),
        compactUrl: await this.mediaUrls.urlOf(row.cover_key, auth),
        removedAt: (row.removed_at as Date).toISOString(),
      })),
    );
    return this.page(list, paging);
  }

  /**
   * Puts recycled items back. When their folder is gone (deleted or itself in the bin) they go to
   * the deepest ancestor still there, else to the top level; a name now taken gets " (2)", " (3)"….
   */
  async restore(auth: AuthContext, ids: number[]): Promise<void> {
    await this.items.transaction(async (repo) => {
      const unique = [...new Set(ids)];
      const roots = await repo.findRecycledRoots(unique, auth.userId);
      if (roots.length !== unique.length) throw new AppError('SE_404');
      const now = this.clock.now();
      for (const root of roots) {
        // Settle name and place while still in the bin, so the live-name index never sees a clash.
        const ancestor = await repo.nearestLiveAncestor(root.id_path);
        const parentAlive = root.parent_id === null || ancestor?.id === root.parent_id;
        const parent = root.parent_id === null ? null : (ancestor ?? null);
        let name = root.name;
        for (
          let n = 2;
          await repo.nameTaken(parent?.id ?? null, root.type === ItemType.folder, name, root.id);
          n++
        ) {
          name = `${root.name} (${n})`;
        }
        if (name !== root.name) await repo.renameItem(root.id, name, now);
        if (!parentAlive || name !== root.name) {
          const folderPath = parent ? joinPath(parent.folder_path, parent.name) : '/';
          await repo.setParent(root.id, parent?.id ?? null, folderPath);
          await repo.rewriteSubtree({
            oldIdPath: root.id_path,
            newIdPath: `${parent?.id_path ?? '/'}${root.id}/`,
            oldFullPath: joinPath(root.folder_path, root.name),
            newFullPath: joinPath(folderPath, name),
            ...(parent?.visibility === 'private' ? { visibility: 'private' as const } : {}),
            now,
          });
        }
        await repo.restoreRemoved(root.id);
      }
    });
  }

  /** Deletes recycled items for good; their stored objects go through the deletion outbox. */
  async purge(auth: AuthContext, ids: number[]): Promise<void> {
    const freed = await this.items.transaction(async (repo) => {
      const unique = [...new Set(ids)];
      const roots = await repo.findRecycledRoots(unique, auth.userId);
      if (roots.length !== unique.length) throw new AppError('SE_404');
      return repo.purgeRemoved(
        roots.map((r) => r.id),
        this.clock.now(),
      );
    });
    await this.objectsFreed(freed);
  }

  async clearRecycle(auth: AuthContext): Promise<void> {
    const freed = await this.items.transaction(async (repo) => {
      const roots = await repo.allRecycledRootIds(auth.userId);
      return repo.purgeRemoved(
        roots.map((r) => r.id),
        this.clock.now(),
      );
    });
    await this.objectsFreed(freed);
  }

  async collect(auth: AuthContext, id: number): Promise<void> {
    await this.visibleItem(this.items, auth, id);
    await this.items.addCollect(auth.userId, id, this.clock.now());
  }

  async cancelCollect(auth: AuthContext, id: number): Promise<void> {
    const row = await this.items.findById(id, auth.userId);
    if (!row || !canSee(auth, row)) throw new AppError('SE_404');
    await this.items.removeCollect(auth.userId, id);
  }

  async listCollected(auth: AuthContext, paging: Paging): Promise<PagedItems> {
    const rows = await this.items.listCollected(
      this.viewer(auth),
      paging.pageSize + 1,
      (paging.pageNo - 1) * paging.pageSize,
    );
    return this.page(await this.present(rows, auth), paging);
  }

  async listRecent(auth: AuthContext, paging: Paging): Promise<PagedItems> {
    const rows = await this.items.listRecent(
      this.viewer(auth),
      paging.pageSize + 1,
      (paging.pageNo - 1) * paging.pageSize,
    );
    return this.page(await this.present(rows, auth), paging);
  }

  async listMyUploads(auth: AuthContext, paging: Paging): Promise<PagedItems> {
    const rows = await this.items.listOwnedFiles(
      auth.userId,
      paging.pageSize + 1,
      (paging.pageNo - 1) * paging.pageSize,
    );
    return this.page(await this.present(rows, auth), paging);
  }
}

/** A bare date as an upper bound means the whole of that day. */
function endOfDayIfDate(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`) : new Date(value);
}
