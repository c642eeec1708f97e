import { ItemType } from '@dam/contract';
import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, ItemRow } from '../../db/schema';
import type { ColourFilter } from './colour-filter';

/**
 * Kysely building blocks of item queries, shared by the item repositories and by every other
 * repository that lists items (search, shares, downloads, tags); the visibility rule they all
 * apply is `visibleTo` of access/visibility.repository.ts.
 */

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

/** Items with their owner's name and whether `userId` has favourited them. */
export function selectItems(db: Kysely<Database>, userId: number): ItemsQuery {
  return withOwnerAndCollected(
    db.selectFrom('items').innerJoin('users', 'users.id', 'items.owner_id'),
    userId,
  );
}

function withOwnerAndCollected(query: ItemsQuery, userId: number): ItemsQuery {
  return query
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

/**
 * `selectItems` of the items of the filter's colour family, read along `colourWalk` (as `x`),
 * one row per item (the family is part of the key): order it with `newestAlongColours`, add the
 * visibility rule and the caller's conditions, and it stops after a page.
 */
export function selectItemsAlongColours(
  db: Kysely<Database>,
  userId: number,
  colour: ColourFilter,
): ItemsQuery {
  const walk = db
    .selectFrom(colourWalk(colour).as('x'))
    .innerJoin('items', 'items.id', 'x.item_id')
    .innerJoin('users', 'users.id', 'items.owner_id') as unknown as ItemsQuery;
  return withOwnerAndCollected(walk, userId);
}

/** The order of `selectItemsAlongColours`: newest first, as the walk reads (folders have no colours). */
export function newestAlongColours<Q extends ItemsQuery>(query: Q): Q {
  return query.orderBy(sql`x.created_at`, 'desc').orderBy(sql`x.item_id`, 'desc') as Q;
}

/**
 * A family row of `alias` (item_colour_families) of the filter's family covering enough of the
 * picture. The numbers are literals, so the planner sees the partial index's predicate.
 */
function ofFamily(alias: string, colour: ColourFilter) {
  return sql<boolean>`${sql.ref(`${alias}.family`)} = ${sql.lit(Math.trunc(colour.family))}
    AND ${sql.ref(`${alias}.share`)} >= ${sql.lit(Math.trunc(colour.minShare))}`;
}

/**
 * Items of the filter's colour family: a probe of item_colour_families' primary key per row of the
 * listing walk (plan §8, "EXISTS probe"), so its cost is bounded by what the walk reads.
 */
export function hasColourNear(eb: ExpressionBuilder<Database, 'items'>, colour: ColourFilter) {
  return eb.exists(
    eb
      .selectFrom('item_colour_families as icf')
      .select(sql`1`.as('one'))
      .whereRef('icf.item_id', '=', 'items.id')
      .where(ofFamily('icf', colour)),
  );
}

/**
 * The items of the filter's colour family, newest first: one range of the partial index
 * `item_colour_families_<minShare>`, already in (created_at, item_id) order, read no further than
 * the page the caller's LIMIT asks for.
 */
export function colourWalk(colour: ColourFilter) {
  return sql<{ item_id: number; created_at: Date }>`(SELECT icf.item_id, icf.created_at
    FROM item_colour_families icf WHERE ${ofFamily('icf', colour)}
    ORDER BY icf.created_at DESC, icf.item_id DESC)`;
}
