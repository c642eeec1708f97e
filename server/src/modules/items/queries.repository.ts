import { ItemType } from '@dam/contract';
import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, ItemRow } from '../../db/schema';
import type { FileScopeFilter } from '../access/access';

/**
 * Kysely building blocks of item queries, shared by the item repositories and by every other
 * repository that lists items (search, shares, downloads, tags): one visibility rule for all.
 */

/** Who is looking, for the visibility rule: own items always, shared ones within the view scope. */
export interface Viewer {
  userId: number;
  view: FileScopeFilter;
}

export type ItemWithOwner = ItemRow & { user_name: string; collected: boolean };

export type ItemsQuery = SelectQueryBuilder<Database, 'items' | 'users', object>;

/** Folders, and files not expired on `day` (SPEC §4: ended before it or starting after it). */
export function validOn(eb: ExpressionBuilder<Database, 'items'>, day: string) {
  return eb.or([
    eb('items.type', '=', ItemType.folder),
    eb.and([
      eb.or([eb('items.expire_end_date', 'is', null), eb('items.expire_end_date', '>=', day)]),
      eb.or([eb('items.expire_start_date', 'is', null), eb('items.expire_start_date', '<=', day)]),
    ]),
  ]);
}

/** Items the viewer may see: their own, and shared ones within their view scope. */
export function visibleTo(eb: ExpressionBuilder<Database, 'items'>, viewer: Viewer) {
  const own = eb('items.owner_id', '=', viewer.userId);
  if (viewer.view.kind === 'none') return own;
  const shared = eb('items.visibility', '=', 'shared');
  if (viewer.view.kind === 'all') return eb.or([own, shared]);
  return eb.or([own, eb.and([shared, eb('items.dept_path', 'like', `${viewer.view.pathPrefix}%`)])]);
}

/** Items with their owner's name and whether `userId` has favourited them. */
export function selectItems(db: Kysely<Database>, userId: number): ItemsQuery {
  return db
    .selectFrom('items')
    .innerJoin('users', 'users.id', 'items.owner_id')
    .selectAll('items')
    .select((eb) => [
      'users.name as user_name',
      eb
        .exists(
          eb
            .selectFrom('collects')
            .whereRef('collects.item_id', '=', 'items.id')
            .where('collects.user_id', '=', userId)
            .select(sql`1`.as('one')),
        )
        .as('collected'),
    ]) as unknown as ItemsQuery;
}
