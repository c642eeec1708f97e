import { ItemType } from '@dam/contract';
import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, ItemRow } from '../../db/schema';
import type { FileScopeFilter } from '../access/access';
import type { ColourFilter } from './colour-filter';

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
 * `selectItems` of the items with a colour near the filter's, read along the merged walk of
 * `colourWalk` (as `x`), one row per item: order it with `newestAlongColours`, add the
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
    .innerJoin('users', 'users.id', 'items.owner_id')
    .distinctOn(['x.created_at', 'x.item_id']) as unknown as ItemsQuery;
  return withOwnerAndCollected(walk, userId);
}

/** The order of `selectItemsAlongColours`: newest first, as the walk reads (folders have no colours). */
export function newestAlongColours<Q extends ItemsQuery>(query: Q): Q {
  return query.orderBy(sql`x.created_at`, 'desc').orderBy(sql`x.item_id`, 'desc') as Q;
}

/**
 * A colour row of `alias` (item_colours) near the filter's colour: heavy enough, and within the
 * radius by ΔE in OKLab, computed on the stored × 1000 integers (int4: at most 3 × 2000², no
 * overflow). The numbers are the filter's own integers, written as literals.
 */
function colourNear(alias: string, colour: ColourFilter) {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const delta = (name: 'l' | 'a' | 'b') => sql`(${column(name)} - ${sql.lit(Math.round(colour[name]))})`;
  return sql<boolean>`${column('weight')} >= ${sql.lit(Math.round(colour.minWeight))}
    AND ${delta('l')} * ${delta('l')} + ${delta('a')} * ${delta('a')} + ${delta('b')} * ${delta('b')}
      <= ${sql.lit(Math.round(colour.radius) ** 2)}`;
}

const cellList = (colour: ColourFilter) => sql.join(colour.cells.map((cell) => sql.lit(Math.trunc(cell))));

/**
 * Items with a colour near the filter's: a probe of item_colours' primary key per row of the
 * listing walk (plan §8, "EXISTS probe"), so its cost is bounded by what the walk reads.
 */
export function hasColourNear(eb: ExpressionBuilder<Database, 'items'>, colour: ColourFilter) {
  if (colour.cells.length === 0) return eb.val(false);
  return eb.exists(
    eb
      .selectFrom('item_colours as ic')
      .select(sql`1`.as('one'))
      .whereRef('ic.item_id', '=', 'items.id')
      .where(sql<boolean>`ic.cell IN (${cellList(colour)})`)
      .where(colourNear('ic', colour)),
  );
}

/**
 * The colour rows near the filter's colour, newest item first (plan §8, "merged walk"): one range
 * of `item_colours_cell_time` per nearby cell, each already in (created_at, item_id) order, which
 * PostgreSQL merges (Merge Append) and stops reading after a page. An item may come once per
 * matching colour: the caller keeps one row per (created_at, item_id).
 */
export function colourWalk(colour: ColourFilter) {
  const cells = colour.cells.length > 0 ? colour.cells : [-1];
  return sql<{ item_id: number; created_at: Date }>`(${sql.join(
    cells.map(
      (cell) => sql`(SELECT ic.item_id, ic.created_at FROM item_colours ic
        WHERE ic.cell = ${sql.lit(Math.trunc(cell))} AND ${colourNear('ic', colour)}
        ORDER BY ic.created_at DESC, ic.item_id DESC)`,
    ),
    sql` UNION ALL `,
  )})`;
}
