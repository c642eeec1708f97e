import { ItemState, ItemType } from '@dam/contract';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { type Viewer, visibleTo } from '../access/visibility.repository';
import { type ItemWithOwner, selectItems } from './queries.repository';

/** SQL of a user's own lists: favourites, recently viewed and their uploads. */
export class PersonalListsRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

  /** Live items the viewer owns that are files, newest first (my uploads). */
  async listOwnedFiles(userId: number, limit: number, offset: number): Promise<ItemWithOwner[]> {
    return (await selectItems(this.db, userId)
      .where('items.owner_id', '=', userId)
      .where('items.state', '=', ItemState.normal)
      .where('items.type', '<>', ItemType.folder)
      .orderBy('items.created_at', 'desc')
      .orderBy('items.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute()) as ItemWithOwner[];
  }

  /** Live favourites of the viewer that they can still see, most recently favourited first. */
  async listCollected(viewer: Viewer, limit: number, offset: number): Promise<ItemWithOwner[]> {
    return (await selectItems(this.db, viewer.userId)
      .innerJoin('collects', (join) =>
        join.onRef('collects.item_id', '=', 'items.id').on('collects.user_id', '=', viewer.userId),
      )
      .where('items.state', '=', ItemState.normal)
      .where((eb) => visibleTo(eb, viewer))
      .orderBy('collects.created_at', 'desc')
      .orderBy('items.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute()) as ItemWithOwner[];
  }

  /** Live items the viewer opened and can still see, most recent first. */
  async listRecent(viewer: Viewer, limit: number, offset: number): Promise<ItemWithOwner[]> {
    return (await selectItems(this.db, viewer.userId)
      .innerJoin('recent_views', (join) =>
        join.onRef('recent_views.item_id', '=', 'items.id').on('recent_views.user_id', '=', viewer.userId),
      )
      .where('items.state', '=', ItemState.normal)
      .where((eb) => visibleTo(eb, viewer))
      .orderBy('recent_views.viewed_at', 'desc')
      .orderBy('items.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute()) as ItemWithOwner[];
  }

  async addCollect(userId: number, itemId: number, now: Date): Promise<void> {
    await this.db
      .insertInto('collects')
      .values({ user_id: userId, item_id: itemId, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'item_id']).doNothing())
      .execute();
  }

  async removeCollect(userId: number, itemId: number): Promise<void> {
    await this.db
      .deleteFrom('collects')
      .where('user_id', '=', userId)
      .where('item_id', '=', itemId)
      .execute();
  }

  /** Remembers that a user opened an item (and counts the view). */
  async recordView(userId: number, itemId: number, now: Date): Promise<void> {
    await this.db
      .insertInto('recent_views')
      .values({ user_id: userId, item_id: itemId, viewed_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'item_id']).doUpdateSet({ viewed_at: now }))
      .execute();
    await this.db
      .updateTable('items')
      .set((eb) => ({ view_count: eb('view_count', '+', 1) }))
      .where('id', '=', itemId)
      .execute();
  }
}
