import type { RecycledItem } from '@dam/contract';
import { ItemType } from '@dam/contract';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { AuthContext } from '../access/access';
import type { ObjectsFreed } from '../deletion-outbox/service';
import { type ItemPresenter, type Paging, pageOf, pageWindow } from './item-pages';
import { joinPath } from './presenter';
import type { RecycleBinRepository } from './recycle-bin.repository';

export interface RecycleBinDependencies {
  bin: RecycleBinRepository;
  presenter: ItemPresenter;
  clock: Clock;
  /** Queues the deletion of objects recorded in the outbox (purging the recycle bin). */
  objectsFreed: ObjectsFreed;
}

/** The caller's recycle bin (SPEC §7): what they deleted, restoring it, deleting it for good. */
export class RecycleBinService {
  constructor(private readonly deps: RecycleBinDependencies) {}

  async listRecycle(
    auth: AuthContext,
    paging: Paging,
  ): Promise<{ list: RecycledItem[]; pageNo: number; pageSize: number; hasMore: boolean }> {
    const { limit, offset } = pageWindow(paging);
    const rows = await this.deps.bin.listRecycled(auth.userId, limit, offset);
    const items = await this.deps.presenter.present(rows, auth);
    const list = items.map((item, i) => ({
      ...item,
      // present() keeps the order of its rows.
      removedAt: (rows[i]!.removed_at as Date).toISOString(),
    }));
    return pageOf(list, paging);
  }

  /**
   * Puts recycled items back. When their folder is gone (deleted or itself in the bin) they go to
   * the deepest ancestor still there, else to the top level; a name now taken gets " (2)", " (3)"….
   */
  async restore(auth: AuthContext, ids: number[]): Promise<void> {
    await this.deps.bin.transaction(async (bin, repo) => {
      const unique = [...new Set(ids)];
      const roots = await bin.findRecycledRoots(unique, auth.userId);
      if (roots.length !== unique.length) throw new AppError('SE_404');
      const now = this.deps.clock.now();
      for (const root of roots) {
        // Settle name and place while still in the bin, so the live-name index never sees a clash.
        const ancestor = await bin.nearestLiveAncestor(root.id_path);
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
        await bin.restoreRemoved(root.id);
      }
    });
  }

  /** Deletes recycled items for good; their stored objects go through the deletion outbox. */
  async purge(auth: AuthContext, ids: number[]): Promise<void> {
    const freed = await this.deps.bin.transaction(async (bin) => {
      const unique = [...new Set(ids)];
      const roots = await bin.findRecycledRoots(unique, auth.userId);
      if (roots.length !== unique.length) throw new AppError('SE_404');
      return bin.purgeRemoved(
        roots.map((r) => r.id),
        this.deps.clock.now(),
      );
    });
    await this.deps.objectsFreed(freed);
  }

  async clearRecycle(auth: AuthContext): Promise<void> {
    const freed = await this.deps.bin.transaction(async (bin) => {
      const roots = await bin.allRecycledRootIds(auth.userId);
      return bin.purgeRemoved(
        roots.map((r) => r.id),
        this.deps.clock.now(),
      );
    });
    await this.deps.objectsFreed(freed);
  }
}
