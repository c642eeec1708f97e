import {
  type BatchMoveRequest,
  FOLDER_COUNT_CAP,
  type FolderListingRequest,
  type FolderListingResult,
  type FolderNode,
  type FolderRef,
  type Item,
  ItemType,
  isTopLevel,
  type Visibility,
} from '@dam/contract';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { AuthContext } from '../access/access';
import { colourFilterOf } from './colour-filter';
import { type ItemPresenter, pageOf, viewerOf } from './item-pages';
import { resolveFolder, visibleFolder } from './lookup';
import type { PersonalListsRepository } from './personal-lists.repository';
import { canEdit, canUploadInto, requireLiveItem } from './policy';
import { joinPath, presentItem } from './presenter';
import { type ItemsRepository, type ItemWithOwner, listOrderOf } from './repository';

type FolderRow = ItemWithOwner;

export interface ItemsDependencies {
  items: ItemsRepository;
  /** Opening a folder counts among the caller's recently viewed. */
  lists: PersonalListsRepository;
  presenter: ItemPresenter;
  clock: Clock;
}

/**
 * Folders and their listings, moving and deleting (SPEC §7). The recycle bin, favourites and
 * recently viewed, and where uploads land, are their own services beside this one.
 */
export class ItemsService {
  constructor(private readonly deps: ItemsDependencies) {}

  private get items() {
    return this.deps.items;
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
      const parent = await resolveFolder(repo, auth, { id: body.parentId, path: body.path });
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
          created_at: this.deps.clock.now(),
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
      const folder = await visibleFolder(repo, auth, body.folderDataId);
      if (!canEdit(auth, folder)) throw new AppError('SE_502');
      if (body.folderName !== undefined && body.folderName !== folder.name) {
        if (await repo.nameTaken(folder.parent_id, true, body.folderName, folder.id))
          throw new AppError('SEF_01');
        await this.renameIn(repo, folder, body.folderName);
        folder.name = body.folderName;
      }
      if (body.parentId !== undefined || body.path !== undefined) {
        const target = await resolveFolder(repo, auth, { id: body.parentId, path: body.path });
        if ((target?.id ?? null) !== folder.parent_id) {
          await this.moveIn(repo, auth, [folder], target, body.confirmShare === true);
        }
      }
    });
  }

  private async renameIn(repo: ItemsRepository, item: ItemWithOwner, name: string): Promise<void> {
    const now = this.deps.clock.now();
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
      : await visibleFolder(this.items, auth, Number(request.folderDataId));
    const order = listOrderOf(request.rankStatus, request.sortBy);
    const rows = await this.items.listChildren(
      folder?.id ?? null,
      viewerOf(auth),
      {
        minCreatedAt: request.minCreatedAt ? new Date(request.minCreatedAt) : undefined,
        maxCreatedAt: request.maxCreatedAt ? endOfDayIfDate(request.maxCreatedAt) : undefined,
        minExpireDate: request.minExpireTime?.slice(0, 10),
        maxExpireDate: request.maxExpireTime?.slice(0, 10),
        tagGroups,
        colour: request.colour ? colourFilterOf(request.colour, request.colourTolerance) : undefined,
        reviewState: request.reviewState,
      },
      order,
      request.pageSize + 1,
      (request.pageNo - 1) * request.pageSize,
    );
    const breadcrumb = folder ? await this.items.namesOnPath(folder.id_path) : [];
    const today = this.deps.presenter.today();
    return {
      folder: folder ? presentItem(folder, auth, today) : null,
      breadcrumb,
      ...pageOf(await this.deps.presenter.present(rows, auth), request),
    };
  }

  /** Opening a folder: checks the caller may, and records it among their recently viewed. */
  async openFolder(auth: AuthContext, ref: FolderRef): Promise<{ canView: true; folder: Item | null }> {
    if (isTopLevel(ref)) return { canView: true, folder: null };
    const folder = await visibleFolder(this.items, auth, Number(ref));
    await this.deps.lists.recordView(auth.userId, folder.id, this.deps.clock.now());
    return { canView: true, folder: presentItem(folder, auth, this.deps.presenter.today()) };
  }

  /** Subfolders for the folder picker; operatorType 1 (choosing a target) marks where uploads may go. */
  async folderSelector(
    auth: AuthContext,
    ref: FolderRef | undefined,
    withCounts = false,
  ): Promise<FolderNode[]> {
    const parent =
      ref === undefined || isTopLevel(ref) ? null : await visibleFolder(this.items, auth, Number(ref));
    const rows = await this.items.listSubfolders(parent?.id ?? null, viewerOf(auth));
    const counts = withCounts
      ? await this.items.countVisibleChildren(
          rows.map((row) => row.id),
          viewerOf(auth),
          FOLDER_COUNT_CAP,
        )
      : undefined;
    return rows.map((row) => ({
      ...(counts ? { itemCount: counts.get(row.id) ?? 0 } : {}),
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
      const target = await resolveFolder(repo, auth, { id: body.targetFolderId, path: body.path });
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
    for (const row of rows) requireLiveItem(auth, row, 'edit');
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
    const now = this.deps.clock.now();
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
      const now = this.deps.clock.now();
      for (const item of items) await repo.removeSubtree(item.id, item.id_path, auth.userId, now);
    });
  }
}

/** A bare date as an upper bound means the whole of that day. */
function endOfDayIfDate(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`) : new Date(value);
}
