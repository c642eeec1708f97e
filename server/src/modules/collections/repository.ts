import { type CollectionMemberRole, type CollectionRole, ItemState, UserStatus } from '@dam/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { type Viewer, visibleTo } from '../access/visibility.repository';
import { type ItemWithOwner, selectItems } from '../items/queries.repository';

/** A collection as its lists show it, with what the caller is to it. */
export interface CollectionRow {
  id: number;
  name: string;
  description: string;
  owner_id: number;
  owner_name: string;
  item_count: number;
  member_count: number;
  updated_at: Date;
  role: CollectionRole;
}

export interface MemberRow {
  user_id: number;
  name: string;
  email: string | null;
  role: CollectionMemberRole;
}

/** Gap left between neighbours' positions; a move halves it, a renumbering restores it. */
export const POSITION_STEP = 1024;

/** SQL of collections (issue 43): the sets, their members, their references. */
export class CollectionsRepository {
  constructor(private readonly db: Db) {}

  /** Runs `work` in one transaction with a repository on it. */
  transaction<T>(work: (repo: CollectionsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new CollectionsRepository(trx)));
  }

  private summaries(userId: number) {
    return this.db
      .selectFrom('collections as c')
      .innerJoin('users as o', 'o.id', 'c.owner_id')
      .leftJoin('collection_members as m', (join) =>
        join.onRef('m.collection_id', '=', 'c.id').on('m.user_id', '=', userId),
      )
      .where((eb) => eb.or([eb('c.owner_id', '=', userId), eb('m.user_id', 'is not', null)]))
      .select((eb) => [
        'c.id',
        'c.name',
        'c.description',
        'c.owner_id',
        'o.name as owner_name',
        'c.updated_at',
        eb
          .selectFrom('collection_items as i')
          .whereRef('i.collection_id', '=', 'c.id')
          .select((count) => count.fn.countAll<string>().as('n'))
          .as('item_count'),
        eb
          .selectFrom('collection_members as n')
          .whereRef('n.collection_id', '=', 'c.id')
          .select((count) => count.fn.countAll<string>().as('n'))
          .as('member_count'),
        sql<CollectionRole>`CASE WHEN c.owner_id = ${userId} THEN 'owner' ELSE m.role END`.as('role'),
      ]);
  }

  /** The caller's collections and those they are a member of, latest change first. */
  async listFor(userId: number): Promise<CollectionRow[]> {
    const rows = await this.summaries(userId)
      .orderBy('c.updated_at', 'desc')
      .orderBy('c.id', 'desc')
      .execute();
    return rows.map(normalise);
  }

  /** One collection as `userId` may know it (undefined: none, or not theirs to know); `lock` for a change. */
  async findFor(id: number, userId: number, lock = false): Promise<CollectionRow | undefined> {
    if (lock) await this.db.selectFrom('collections').select('id').where('id', '=', id).forUpdate().execute();
    const row = await this.summaries(userId).where('c.id', '=', id).executeTakeFirst();
    return row && normalise(row);
  }

  async create(ownerId: number, name: string, description: string): Promise<number> {
    const row = await this.db
      .insertInto('collections')
      .values({ owner_id: ownerId, name, description })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async rename(id: number, name: string, description: string, now: Date): Promise<void> {
    await this.db
      .updateTable('collections')
      .set({ name, description, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('collections').where('id', '=', id).execute();
  }

  async members(id: number): Promise<MemberRow[]> {
    return (await this.db
      .selectFrom('collection_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .where('m.collection_id', '=', id)
      .select(['m.user_id', 'u.name', 'u.email', 'm.role'])
      .orderBy('u.name')
      .orderBy('m.user_id')
      .execute()) as MemberRow[];
  }

  /** Of `userIds`, those that are accounts in use. */
  async activeUsers(userIds: readonly number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', [...userIds])
      .where('status', '=', UserStatus.normal)
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  async replaceMembers(
    id: number,
    members: ReadonlyArray<{ userId: number; role: CollectionMemberRole }>,
    now: Date,
  ): Promise<void> {
    await this.db.deleteFrom('collection_members').where('collection_id', '=', id).execute();
    if (members.length > 0)
      await this.db
        .insertInto('collection_members')
        .values(members.map((m) => ({ collection_id: id, user_id: m.userId, role: m.role })))
        .execute();
    await this.db.updateTable('collections').set({ updated_at: now }).where('id', '=', id).execute();
  }

  /**
   * Of `itemIds`, those `viewer` may see (whatever their state), each locked against deletion until
   * the transaction ends: an item purged meanwhile waits, it does not break the insert.
   */
  async visibleItems(
    itemIds: readonly number[],
    viewer: Viewer,
  ): Promise<Array<{ id: number; state: number }>> {
    const rows = await this.db
      .selectFrom('items')
      .select(['items.id', 'items.state'])
      .where('items.id', 'in', [...itemIds])
      .where((eb) => visibleTo(eb, viewer))
      .forKeyShare()
      .execute();
    return rows.map((row) => ({ id: Number(row.id), state: row.state }));
  }

  /** Of `itemIds`, those in the collection that `viewer` may see. */
  async presentAndVisible(id: number, itemIds: readonly number[], viewer: Viewer): Promise<number[]> {
    const rows = await this.db
      .selectFrom('collection_items as ci')
      .innerJoin('items', 'items.id', 'ci.item_id')
      .select('ci.item_id')
      .where('ci.collection_id', '=', id)
      .where('ci.item_id', 'in', [...itemIds])
      .where((eb) => visibleTo(eb, viewer))
      .execute();
    return rows.map((row) => Number(row.item_id));
  }

  /** Of `itemIds`, those already in the collection. */
  async present(id: number, itemIds: readonly number[]): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('collection_items')
      .select('item_id')
      .where('collection_id', '=', id)
      .where('item_id', 'in', [...itemIds])
      .execute();
    return new Set(rows.map((row) => Number(row.item_id)));
  }

  /** Appends `itemIds` (none already there) after the last, in the order given. */
  async append(id: number, itemIds: readonly number[], userId: number, now: Date): Promise<void> {
    const last = await this.db
      .selectFrom('collection_items')
      .select((eb) => eb.fn.max('position').as('last'))
      .where('collection_id', '=', id)
      .executeTakeFirst();
    const start = Number(last?.last ?? 0);
    await this.db
      .insertInto('collection_items')
      .values(
        itemIds.map((itemId, i) => ({
          collection_id: id,
          item_id: itemId,
          position: start + (i + 1) * POSITION_STEP,
          added_by: userId,
          added_at: now,
        })),
      )
      .execute();
    await this.touch(id, now);
  }

  async remove(id: number, itemIds: readonly number[], now: Date): Promise<number> {
    const removed = await this.db
      .deleteFrom('collection_items')
      .where('collection_id', '=', id)
      .where('item_id', 'in', [...itemIds])
      .executeTakeFirst();
    await this.touch(id, now);
    return Number(removed.numDeletedRows);
  }

  /** The position of an item in the collection (undefined: not in it). */
  async positionOf(id: number, itemId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('collection_items')
      .select('position')
      .where('collection_id', '=', id)
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    return row ? Number(row.position) : undefined;
  }

  /** The position just before `position` (undefined: it is the first), or the last one. */
  async neighbourBefore(id: number, position?: number): Promise<number | undefined> {
    let query = this.db
      .selectFrom('collection_items')
      .select('position')
      .where('collection_id', '=', id)
      .orderBy('position', 'desc')
      .limit(1);
    if (position !== undefined) query = query.where('position', '<', position);
    const row = await query.executeTakeFirst();
    return row ? Number(row.position) : undefined;
  }

  async setPosition(id: number, itemId: number, position: number): Promise<void> {
    await this.db
      .updateTable('collection_items')
      .set({ position })
      .where('collection_id', '=', id)
      .where('item_id', '=', itemId)
      .execute();
  }

  /** Spreads the collection's positions POSITION_STEP apart again, keeping their order. */
  async renumber(id: number): Promise<void> {
    await sql`
      UPDATE collection_items AS ci SET position = o.n * ${POSITION_STEP}
        FROM (SELECT item_id, row_number() OVER (ORDER BY position, item_id) AS n
                FROM collection_items WHERE collection_id = ${id}) AS o
       WHERE ci.collection_id = ${id} AND ci.item_id = o.item_id`.execute(this.db);
  }

  async touch(id: number, now: Date): Promise<void> {
    await this.db.updateTable('collections').set({ updated_at: now }).where('id', '=', id).execute();
  }

  /** One page of the items `viewer` may see, in the collection's order. */
  async page(id: number, viewer: Viewer, limit: number, offset: number): Promise<ItemWithOwner[]> {
    return (await selectItems(this.db, viewer.userId)
      .innerJoin('collection_items as ci', (join) =>
        join.onRef('ci.item_id', '=', 'items.id').on('ci.collection_id', '=', id),
      )
      .where('items.state', '=', ItemState.normal)
      .where((eb) => visibleTo(eb, viewer))
      // The reference's own columns, as its index (collection, position, item) reads them: a page is
      // the first rows of that index, not a sort of every reference joined to its item.
      .orderBy('ci.position')
      .orderBy('ci.item_id')
      .limit(limit)
      .offset(offset)
      .execute()) as ItemWithOwner[];
  }

  /** Ids of every live item of the collection `viewer` may see, in the collection's order (a share, a download). */
  async visibleIds(id: number, viewer: Viewer): Promise<number[]> {
    const rows = await this.db
      .selectFrom('collection_items as ci')
      .innerJoin('items', 'items.id', 'ci.item_id')
      .select('ci.item_id')
      .where('ci.collection_id', '=', id)
      .where('items.state', '=', ItemState.normal)
      .where((eb) => visibleTo(eb, viewer))
      .orderBy('ci.position')
      .orderBy('ci.item_id')
      .execute();
    return rows.map((row) => Number(row.item_id));
  }

  /** How many of the collection's references `viewer` may see (live, visible). */
  async visibleCount(id: number, viewer: Viewer): Promise<number> {
    const row = await this.db
      .selectFrom('collection_items as ci')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('items')
            .select('items.id')
            .whereRef('items.id', '=', 'ci.item_id')
            .where('items.state', '=', ItemState.normal)
            .where((w) => visibleTo(w, viewer))
            // OFFSET 0 keeps this from being flattened into a join, which PostgreSQL hashed over every
            // item of the archive (122 ms at 1M items): one primary-key probe per reference instead.
            .offset(0)
            .as('v'),
        (join) => join.onTrue(),
      )
      .where('ci.collection_id', '=', id)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

function normalise(
  row: Omit<CollectionRow, 'member_count' | 'item_count'> & { member_count: unknown; item_count: unknown },
): CollectionRow {
  return {
    ...row,
    id: Number(row.id),
    item_count: Number(row.item_count ?? 0),
    member_count: Number(row.member_count ?? 0),
  };
}
