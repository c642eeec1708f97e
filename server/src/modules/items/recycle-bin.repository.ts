import { ItemState } from '@dam/contract';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import type { ObjectDeletionsRepository } from '../deletion-outbox/repository';
import { type ItemWithOwner, selectItems } from './queries.repository';
import type { ItemsRepository } from './repository';

/**
 * SQL of the recycle bin: what a user deleted (the roots they chose, `removed_root_id = id`),
 * putting it back and deleting it for good. Sending items there is ItemsRepository.removeSubtree.
 */
/** The repositories of the items and of the deletion outbox, made on a handle (a transaction) given: injected by the wiring. */
export interface RecycleBinPeers {
  items(db: Db): ItemsRepository;
  outbox(db: Db | Kysely<Database>): ObjectDeletionsRepository;
}

export class RecycleBinRepository {
  constructor(
    private readonly db: Db | Kysely<Database>,
    private readonly peers: RecycleBinPeers,
  ) {}

  /** One transaction over the bin and the items around it (restoring settles names and places). */
  transaction<T>(work: (bin: RecycleBinRepository, items: ItemsRepository) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx) => work(new RecycleBinRepository(trx, this.peers), this.peers.items(trx)));
  }

  listRecycled(userId: number, limit: number, offset: number) {
    return selectItems(this.db, userId)
      .select(['items.removed_at'])
      .where('items.state', '=', ItemState.removed)
      .where('items.removed_by', '=', userId)
      .whereRef('items.id', '=', 'items.removed_root_id')
      .orderBy('items.removed_at', 'desc')
      .orderBy('items.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute() as Promise<ItemWithOwner[]>;
  }

  /** Recycle-bin roots of `userId` among `ids`. */
  findRecycledRoots(ids: number[], userId: number) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('id', 'in', ids)
      .where('state', '=', ItemState.removed)
      .where('removed_by', '=', userId)
      .whereRef('id', '=', 'removed_root_id')
      .execute();
  }

  allRecycledRootIds(userId: number) {
    return this.db
      .selectFrom('items')
      .select('id')
      .where('state', '=', ItemState.removed)
      .where('removed_by', '=', userId)
      .whereRef('id', '=', 'removed_root_id')
      .execute();
  }

  async restoreRemoved(rootId: number): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ state: ItemState.normal, removed_at: null, removed_by: null, removed_root_id: null })
      .where('removed_root_id', '=', rootId)
      .where('state', '=', ItemState.removed)
      .execute();
  }

  /** The deepest live folder among the ancestors on an id path (excluding the item itself). */
  async nearestLiveAncestor(idPath: string) {
    const ancestorIds = idPath.split('/').filter(Boolean).map(Number).slice(0, -1);
    if (ancestorIds.length === 0) return undefined;
    const rows = await this.db
      .selectFrom('items')
      .select(['id', 'id_path', 'folder_path', 'name', 'visibility'])
      .where('id', 'in', ancestorIds)
      .where('state', '=', ItemState.normal)
      .execute();
    return rows.sort((a, b) => b.id_path.length - a.id_path.length)[0];
  }

  /**
   * Deletes recycled subtrees for good (their favourites and views go with them), recording the
   * objects of their upload records for deletion in the same transaction. Answers those keys.
   */
  async purgeRemoved(rootIds: number[], now: Date): Promise<string[]> {
    if (rootIds.length === 0) return [];
    const objects = this.peers.outbox(this.db);
    const keys = await objects.enqueueUploads(await objects.uploadIdsOfRecycled(rootIds), now);
    // Uploads still heading into a folder deleted for good are cancelled, their bytes freed too.
    keys.push(
      ...(await objects.cancelUploads(
        await objects.unfinishedUploadIdsIntoRecycled(rootIds),
        'folder-deleted',
        now,
      )),
    );
    await this.db
      .deleteFrom('items')
      .where('removed_root_id', 'in', rootIds)
      .where('state', '=', ItemState.removed)
      .execute();
    return keys;
  }
}
