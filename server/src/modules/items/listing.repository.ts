import { ItemState, ItemType, RankStatus, SortField } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { type Viewer, visibleTo } from '../access/visibility.repository';
import type { ColourFilter } from './colour-filter';
import {
  hasColourNear,
  type ItemWithOwner,
  newestAlongColours,
  selectItems,
  selectItemsAlongColours,
  validOn,
} from './queries.repository';
import type { ListingFilter, ListOrder } from './records';

// SQL of a folder's listing pages (issue 39 orders, tag and colour filters) and the tree's child
// counts: plain functions on a handle, ItemsRepository delegating to them.

/**
 * The sort keys of each field after "folders first", before the id that breaks ties: each order
 * matches one listing index (items_listing_* of migrations 002, 013 and 029) exactly, so a page
 * is an index range whatever the folder's size.
 */
const SORT_KEYS: Record<SortField, ReturnType<typeof sql>[]> = {
  name: [sql`lower(items.name)`],
  uploaded: [sql`items.created_at`],
  modified: [sql`items.updated_at`],
  size: [sql`items.total_size`],
  type: [sql`items.file_formats`, sql`lower(items.name)`],
};

/** The order of a listing request: rankStatus up/down by sortBy (name when left out), else the default. */
export function listOrderOf(rank: RankStatus, sortBy: SortField = SortField.name): ListOrder {
  if (rank === RankStatus.up) return `${sortBy}Asc`;
  if (rank === RankStatus.down) return `${sortBy}Desc`;
  return 'normal';
}

/** The field and direction of an order other than the default. */
export function sortOf(order: Exclude<ListOrder, 'normal'>): { field: SortField; direction: 'asc' | 'desc' } {
  const direction = order.endsWith('Asc') ? 'asc' : 'desc';
  return { field: order.slice(0, order.length - (direction === 'asc' ? 3 : 4)) as SortField, direction };
}

/** From this many live children on, a colour filter walks the colour index (plan §8). */
export const COLOUR_WALK_FOLDER_SIZE = 100_000;

/** One page of a folder's live children visible to the viewer, in one of the index orders. */
export async function listChildren(
  db: Kysely<Database>,
  parentId: number | null,
  viewer: Viewer,
  filter: ListingFilter,
  order: ListOrder,
  limit: number,
  offset: number,
): Promise<ItemWithOwner[]> {
  const walk =
    filter.colour !== undefined &&
    order === 'normal' &&
    (filter.colourWalk ?? (await colourSideIsSmaller(db, parentId, filter.colour)));
  return (await listChildrenQuery(
    db,
    parentId,
    viewer,
    { ...filter, colourWalk: walk },
    order,
    limit,
    offset,
  ).execute()) as ItemWithOwner[];
}

/**
 * Whether the colour filter should walk the colour index rather than probe the folder's rows:
 * whichever is smaller is read. A folder of 100,000 children or more always walks; a smaller one
 * walks when the colour's family holds fewer items, archive-wide, than it has children (a rare
 * colour in a large folder), counted no further than that, so deciding costs at most the smaller.
 */
async function colourSideIsSmaller(
  db: Kysely<Database>,
  parentId: number | null,
  colour: ColourFilter,
): Promise<boolean> {
  const children = await countChildrenUpTo(db, parentId, COLOUR_WALK_FOLDER_SIZE);
  if (children >= COLOUR_WALK_FOLDER_SIZE) return true;
  if (children === 0) return false;
  return (await countColourEntriesUpTo(db, colour, children)) < children;
}

/** Items of the filter's colour family, counting no further than `limit` (a partial index range). */
export async function countColourEntriesUpTo(
  db: Kysely<Database>,
  colour: ColourFilter,
  limit: number,
): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('item_colour_families')
        .select(sql`1`.as('one'))
        .where('family', '=', sql.lit(Math.trunc(colour.family)))
        .where('share', '>=', sql.lit(Math.trunc(colour.minShare)))
        .limit(limit)
        .as('entries'),
    )
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many live children a folder has, counting no further than `limit` (an index-only range). */
export async function countChildrenUpTo(
  db: Kysely<Database>,
  parentId: number | null,
  limit: number,
): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('items')
        .select(sql`1`.as('one'))
        .where((w) => (parentId === null ? w('parent_id', 'is', null) : w('parent_id', '=', parentId)))
        .where('state', '=', ItemState.normal)
        .limit(limit)
        .as('children'),
    )
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The query of `listChildren` (its plan is checked by the tests). */
export function listChildrenQuery(
  db: Kysely<Database>,
  parentId: number | null,
  viewer: Viewer,
  filter: ListingFilter,
  order: ListOrder,
  limit: number,
  offset: number,
) {
  // A colour in a big folder: the colour index's merged walk, each row joined to its item; the
  // folder is then a condition on the item (plan §8, "Folders over 100k children").
  const walk = filter.colour !== undefined && filter.colourWalk === true && order === 'normal';
  let query = (
    walk && filter.colour
      ? selectItemsAlongColours(db, viewer.userId, filter.colour)
      : selectItems(db, viewer.userId)
  )
    .where('items.state', '=', ItemState.normal)
    .where((eb) =>
      parentId === null ? eb('items.parent_id', 'is', null) : eb('items.parent_id', '=', parentId),
    )
    .where((eb) => visibleTo(eb, viewer));
  if (filter.minCreatedAt) query = query.where('items.created_at', '>=', filter.minCreatedAt);
  if (filter.maxCreatedAt) query = query.where('items.created_at', '<=', filter.maxCreatedAt);
  if (filter.minExpireDate) query = query.where('items.expire_end_date', '>=', filter.minExpireDate);
  if (filter.maxExpireDate) query = query.where('items.expire_end_date', '<=', filter.maxExpireDate);
  const day = filter.validOn;
  if (day) query = query.where((eb) => validOn(eb, day));
  if (filter.reviewState)
    query = query
      .where('items.review_state', '=', filter.reviewState)
      .where('items.type', '<>', sql.lit(ItemType.folder));
  // Each group is a probe of item_tags' primary key per row of the listing index (or, for a
  // rare tag, a scan of its index item_tags_tag): never a scan of the links.
  for (const group of filter.tagGroups ?? []) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('item_tags')
          .select(sql`1`.as('one'))
          .whereRef('item_tags.item_id', '=', 'items.id')
          .where('item_tags.tag_id', 'in', group),
      ),
    );
  }
  if (walk) return newestAlongColours(query).limit(limit).offset(offset);
  // Otherwise a probe of item_colours per row of the listing walk: bounded by the folder (plan §8).
  const colour = filter.colour;
  if (colour) query = query.where((eb) => hasColourNear(eb, colour));
  // The leading expressions match the listing indexes exactly, so a page is an index range.
  const foldersFirst = sql`(items.type <> ${sql.lit(ItemType.folder)})`;
  query = query.orderBy(foldersFirst);
  if (order === 'normal') {
    query = query.orderBy('items.created_at', 'desc').orderBy('items.id', 'desc');
  } else {
    const { field, direction } = sortOf(order);
    for (const key of SORT_KEYS[field]) query = query.orderBy(key, direction);
    query = query.orderBy('items.id', direction);
  }
  return query.limit(limit).offset(offset);
}

/**
 * The tag filter of a listing: the ids grouped by dimension (a tag of a group is enough, every
 * group must match); an unknown id is a group of its own, which nothing matches.
 */
export async function tagFilterGroups(db: Kysely<Database>, tagIds: readonly number[]): Promise<number[][]> {
  const ids = [...new Set(tagIds)];
  const rows = await db.selectFrom('tags').select(['id', 'dimension_id']).where('id', 'in', ids).execute();
  const groups = new Map<number, number[]>();
  for (const row of rows) groups.set(row.dimension_id, [...(groups.get(row.dimension_id) ?? []), row.id]);
  const known = new Set(rows.map((r) => r.id));
  return [...groups.values(), ...ids.filter((id) => !known.has(id)).map((id) => [id])];
}

/** Subfolders of a folder visible to the viewer, by name, with whether each has subfolders. */
export function listSubfolders(db: Kysely<Database>, parentId: number | null, viewer: Viewer) {
  return db
    .selectFrom('items')
    .select((eb) => [
      'items.id',
      'items.name',
      'items.folder_path',
      'items.parent_id',
      'items.visibility',
      'items.dept_path',
      'items.owner_id',
      eb
        .exists(
          eb
            .selectFrom('items as child')
            .whereRef('child.parent_id', '=', 'items.id')
            .where('child.type', '=', ItemType.folder)
            .where('child.state', '=', ItemState.normal)
            .select(sql`1`.as('one')),
        )
        .as('has_children'),
    ])
    .where('items.type', '=', ItemType.folder)
    .where('items.state', '=', ItemState.normal)
    .where((eb) =>
      parentId === null ? eb('items.parent_id', 'is', null) : eb('items.parent_id', '=', parentId),
    )
    .where((eb) => visibleTo(eb, viewer))
    .orderBy(sql`lower(items.name)`)
    .orderBy('items.id')
    .limit(2000)
    .execute();
}

/**
 * For each folder, how many of its own live children (files and folders) the viewer may see,
 * counted no further than `cap`: one range of a listing index per folder, so a tree level costs
 * at most `cap` index entries a folder, whatever the folders hold (issue 39 folder tree).
 */
export async function countVisibleChildren(
  db: Kysely<Database>,
  folderIds: number[],
  viewer: Viewer,
  cap: number,
): Promise<Map<number, number>> {
  if (folderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('items as folder')
    .where('folder.id', 'in', folderIds)
    .select((eb) => [
      'folder.id',
      eb
        .selectFrom((inner) =>
          inner
            .selectFrom('items')
            .select(sql`1`.as('one'))
            .whereRef('items.parent_id', '=', 'folder.id')
            .where('items.state', '=', ItemState.normal)
            .where((w) => visibleTo(w, viewer))
            .limit(cap)
            .as('children'),
        )
        .select((c) => c.fn.countAll<string | number>().as('n'))
        .as('n'),
    ])
    .execute();
  return new Map(rows.map((row) => [Number(row.id), Number(row.n ?? 0)]));
}
