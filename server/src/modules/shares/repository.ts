import { ItemState, ShareState, UserStatus } from '@dam/contract';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database, ShareTable } from '../../db/schema';
import { type Viewer, visibleTo } from '../access/visibility.repository';

export type ShareRow = Selectable<ShareTable>;

/**
 * A link with what its visitors' access depends on: its owner, their status and department, and for a
 * collection's link the collection's name and whether the owner is still its owner or a member.
 */
export type ShareWithOwner = ShareRow & {
  owner_name: string;
  owner_status: number;
  owner_dept_id: number | null;
  owner_dept_path: string | null;
  collection_name: string | null;
  /** True for a link of items; for a collection's link, whether its owner is in the collection now. */
  collection_member: boolean;
};

export interface NewShare {
  code: string;
  /** The collection a live collection link shows (then no items are named). */
  collection_id?: number | null;
  owner_id: number;
  password: string | null;
  validity: ShareRow['validity'];
  expires_at: Date | null;
  created_at: Date;
}

/**
 * A link of items, or a collection's link whose owner is still the collection's owner or a member:
 * a link of a collection its sharer has left offers nothing (it answers as an unknown link).
 */
const sharerInCollection = sql<boolean>`(shares.collection_id IS NULL OR EXISTS (
  SELECT 1 FROM collections c WHERE c.id = shares.collection_id AND (c.owner_id = shares.owner_id
    OR EXISTS (SELECT 1 FROM collection_members m WHERE m.collection_id = c.id AND m.user_id = shares.owner_id))))`;

/** SQL of share links and the items they name. */
export class SharesRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

  /** Creates a link naming `itemIds` (in that order), all or nothing. */
  async insert(share: NewShare, itemIds: number[]): Promise<ShareRow> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.insertInto('shares').values(share).returningAll().executeTakeFirstOrThrow();
      if (itemIds.length > 0)
        await trx
          .insertInto('share_items')
          .values(itemIds.map((item_id, position) => ({ share_id: row.id, item_id, position })))
          .execute();
      return row;
    });
  }

  /**
   * What each link shows, as rows `(share_id, item_id, position)`: the items a link names, and for a
   * collection's link the collection's references of this moment (live: added, removed and reordered
   * items show at the next visit). Every query of a link's items reads through this.
   */
  private linkItems() {
    return this.db
      .selectFrom('share_items')
      .select(['share_items.share_id', 'share_items.item_id', 'share_items.position'])
      .unionAll(
        this.db
          .selectFrom('shares as s')
          .innerJoin('collection_items as ci', 'ci.collection_id', 's.collection_id')
          .select(['s.id as share_id', 'ci.item_id', 'ci.position']),
      );
  }

  private withOwner() {
    return this.db
      .selectFrom('shares')
      .innerJoin('users', 'users.id', 'shares.owner_id')
      .leftJoin('departments', 'departments.id', 'users.dept_id')
      .leftJoin('collections', 'collections.id', 'shares.collection_id')
      .selectAll('shares')
      .select([
        'users.name as owner_name',
        'users.status as owner_status',
        'users.dept_id as owner_dept_id',
        'departments.path as owner_dept_path',
        'collections.name as collection_name',
        sharerInCollection.as('collection_member'),
      ]);
  }

  findByCode(code: string): Promise<ShareWithOwner | undefined> {
    return this.withOwner().where('shares.code', '=', code).executeTakeFirst();
  }

  findById(id: number): Promise<ShareWithOwner | undefined> {
    return this.withOwner().where('shares.id', '=', id).executeTakeFirst();
  }

  /** The caller's links, newest first. */
  listOwned(
    ownerId: number,
    limit: number,
    offset: number,
  ): Promise<Array<ShareRow & { collection_name: string | null }>> {
    return this.db
      .selectFrom('shares')
      .leftJoin('collections', 'collections.id', 'shares.collection_id')
      .selectAll('shares')
      .select('collections.name as collection_name')
      .where('shares.owner_id', '=', ownerId)
      .orderBy('shares.created_at', 'desc')
      .orderBy('shares.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** The items of these links still live (not in the recycle bin), in the order chosen. */
  liveItemsOf(shareIds: number[]) {
    if (shareIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom(this.linkItems().as('share_items'))
      .innerJoin('items', 'items.id', 'share_items.item_id')
      .select(['share_items.share_id', 'items.id', 'items.name', 'items.type', 'items.cover_key'])
      .where('share_items.share_id', 'in', shareIds)
      .where('items.state', '=', ItemState.normal)
      .orderBy('share_items.share_id')
      .orderBy('share_items.position')
      .execute();
  }

  /** Ids of the items a link names (or its collection holds now), in their order (live or not). */
  async itemIdsOf(shareId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom(this.linkItems().as('share_items'))
      .select(['share_items.item_id'])
      .where('share_items.share_id', '=', shareId)
      .orderBy('share_items.position')
      .orderBy('share_items.item_id')
      .execute();
    return rows.map((r) => Number(r.item_id));
  }

  /** Stops a link; a link already stopped keeps its first stop time. */
  async stop(id: number, now: Date): Promise<void> {
    await this.db
      .updateTable('shares')
      .set({ status: ShareState.stopped, stopped_at: now })
      .where('id', '=', id)
      .where('status', '=', ShareState.sharing)
      .execute();
  }

  async countView(id: number): Promise<void> {
    await this.db
      .updateTable('shares')
      .set((eb) => ({ view_count: eb('view_count', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async countDownload(id: number): Promise<void> {
    await this.db
      .updateTable('shares')
      .set((eb) => ({ download_count: eb('download_count', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Live links (sharing, not expired, owner not deleted) naming at least one live item the
   * viewer can see, newest first.
   */
  listLiveVisible(viewer: Viewer, now: Date, limit: number, offset: number) {
    return this.db
      .selectFrom('shares')
      .innerJoin('users', 'users.id', 'shares.owner_id')
      .select([
        'shares.id',
        'shares.owner_id',
        'users.name as owner_name',
        'shares.created_at',
        'shares.expires_at',
      ])
      .where('shares.status', '=', ShareState.sharing)
      .where((eb) => eb.or([eb('shares.expires_at', 'is', null), eb('shares.expires_at', '>', now)]))
      .where('users.status', '=', UserStatus.normal)
      .where(sharerInCollection)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom(this.linkItems().as('share_items'))
            .innerJoin('items', 'items.id', 'share_items.item_id')
            .select('share_items.item_id')
            .whereRef('share_items.share_id', '=', 'shares.id')
            .where('items.state', '=', ItemState.normal)
            .where((inner) => visibleTo(inner, viewer)),
        ),
      )
      .orderBy('shares.created_at', 'desc')
      .orderBy('shares.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** The live items of these links the viewer can see, in the order chosen. */
  visibleItemsOf(shareIds: number[], viewer: Viewer) {
    if (shareIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom(this.linkItems().as('share_items'))
      .innerJoin('items', 'items.id', 'share_items.item_id')
      .select(['share_items.share_id', 'share_items.item_id'])
      .where('share_items.share_id', 'in', shareIds)
      .where('items.state', '=', ItemState.normal)
      .where((eb) => visibleTo(eb, viewer))
      .orderBy('share_items.share_id')
      .orderBy('share_items.position')
      .execute();
  }
}
