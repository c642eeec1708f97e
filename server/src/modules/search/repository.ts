import { ItemState, ItemType, type MetadataFilter, type ReviewState, SearchFileType } from '@dam/contract';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { likeLiteral } from '../../db/sql-helpers';
import { type Viewer, visibleTo } from '../access/visibility.repository';
import type { ColourFilter } from '../items/colour-filter';
import { hasColourNear, newestAlongColours, selectItemsAlongColours } from '../items/queries.repository';
import type { ItemWithOwner } from '../items/repository';
import { metadataMatches } from '../metadata/search.repository';

/**
 * What to look for: a substring of the name or article number, or whole values of a batch; or
 * anything (a search by colour or embedded metadata alone).
 */
export type SearchMatch =
  | { kind: 'any' }
  | { kind: 'nameContains'; text: string }
  | { kind: 'artNumContains'; text: string }
  | { kind: 'artNumIn'; values: string[] }
  | { kind: 'nameIn'; values: string[] };

/** Item types of a fileType scope (SPEC §2); null for all. */
export function typesOfScope(fileType: number): ItemType[] | null {
  switch (fileType) {
    case SearchFileType.folders:
      return [ItemType.folder];
    case SearchFileType.files:
      return [ItemType.image, ItemType.video, ItemType.other];
    case SearchFileType.images:
      return [ItemType.image];
    case SearchFileType.videos:
      return [ItemType.video];
    default:
      return null;
  }
}

/** `%`, `_` and `\` are LIKE wildcards; a search for them means the characters themselves. */

type Query = SelectQueryBuilder<Database, 'items' | 'users', object>;

/** SQL of the global search: live items the viewer can see, through the search indexes. */
export class SearchRepository {
  constructor(private readonly db: Db) {}

  private matching(
    match: SearchMatch,
    viewer: Viewer,
    types: ItemType[] | null,
    colour: ColourFilter | undefined,
    metadata: MetadataFilter | undefined,
    reviewState?: ReviewState,
  ): Query {
    let query = this.db
      .selectFrom('items')
      .innerJoin('users', 'users.id', 'items.owner_id')
      .where('items.state', '=', ItemState.normal)
      .where((eb) => visibleTo(eb, viewer)) as unknown as Query;
    if (types) query = query.where('items.type', 'in', types);
    // With a colour: a probe of item_colours per item the text search reads (plan §8).
    if (colour) query = query.where((eb) => hasColourNear(eb, colour));
    const embedded = metadataMatches(metadata);
    if (embedded) query = query.where(embedded);
    // Folders have no review: a state asked for lists files only.
    if (reviewState)
      query = query.where('items.review_state', '=', reviewState).where('items.type', '<>', ItemType.folder);
    switch (match.kind) {
      case 'any':
        return query;
      case 'nameContains':
        return query.where(
          sql<boolean>`lower(items.name) LIKE ${`%${likeLiteral(match.text.toLowerCase())}%`}`,
        );
      case 'artNumContains':
        return query
          .where('items.art_num', 'is not', null)
          .where(sql<boolean>`lower(items.art_num) LIKE ${`%${likeLiteral(match.text.toLowerCase())}%`}`);
      // Whole values compare in the "C" collation: the btree indexes of migration 013, never the
      // trigram indexes (which the planner misprices for long lists). `IN (SELECT unnest(…))`, not
      // `= ANY(…)`: the planner estimated `= ANY` of 10,000 constants value by value (120 ms of
      // planning per query); the subquery is planned in under a millisecond as a probe per value.
      case 'artNumIn':
        return query
          .where('items.art_num', 'is not', null)
          .where(
            sql<boolean>`(lower(items.art_num) COLLATE "C") IN (SELECT unnest(${match.values.map((v) => v.toLowerCase())}::text[]))`,
          );
      case 'nameIn':
        return query.where(
          sql<boolean>`(lower(items.name) COLLATE "C") IN (SELECT unnest(${match.values.map((v) => v.toLowerCase())}::text[]))`,
        );
    }
  }

  /** One page (plus one row, to tell whether more follow), folders first. */
  async search(
    match: SearchMatch,
    viewer: Viewer,
    types: ItemType[] | null,
    order: 'normal' | 'nameAsc' | 'nameDesc',
    limit: number,
    offset: number,
    colour?: ColourFilter,
    metadata?: MetadataFilter,
    reviewState?: ReviewState,
  ): Promise<ItemWithOwner[]> {
    return (await this.searchQuery(
      match,
      viewer,
      types,
      order,
      limit,
      offset,
      colour,
      metadata,
      reviewState,
    ).execute()) as unknown as ItemWithOwner[];
  }

  /** The query of `search` (its plan at scale is checked by server/test/query-plans.test.ts). */
  searchQuery(
    match: SearchMatch,
    viewer: Viewer,
    types: ItemType[] | null,
    order: 'normal' | 'nameAsc' | 'nameDesc',
    limit: number,
    offset: number,
    colour?: ColourFilter,
    metadata?: MetadataFilter,
    reviewState?: ReviewState,
  ) {
    if (colour && match.kind === 'any' && order === 'normal')
      return this.colourWalkQuery(colour, viewer, types, limit, offset, metadata, reviewState);
    let query = this.matching(match, viewer, types, colour, metadata, reviewState)
      .selectAll('items')
      .select((eb) => [
        'users.name as user_name',
        eb
          .exists(
            eb
              .selectFrom('collects')
              .whereRef('collects.item_id', '=', 'items.id')
              .where('collects.user_id', '=', viewer.userId)
              .select(sql`1`.as('one')),
          )
          .as('collected'),
      ])
      .orderBy(sql`(items.type <> ${sql.lit(ItemType.folder)})`);
    query =
      order === 'normal'
        ? query.orderBy('items.created_at', 'desc').orderBy('items.id', 'desc')
        : query
            .orderBy(sql`lower(items.name)`, order === 'nameAsc' ? 'asc' : 'desc')
            .orderBy('items.id', order === 'nameAsc' ? 'asc' : 'desc');
    return query.limit(limit).offset(offset);
  }

  /**
   * A search by colour alone, newest first (plan §8): the merged walk over the nearby cells of
   * `item_colours_cell_time`, each row joined to its item by primary key for the visibility rule,
   * one row per item, stopping after a page. Folders have no colours, so "folders first" holds.
   */
  private colourWalkQuery(
    colour: ColourFilter,
    viewer: Viewer,
    types: ItemType[] | null,
    limit: number,
    offset: number,
    metadata: MetadataFilter | undefined,
    reviewState: ReviewState | undefined,
  ) {
    let query = selectItemsAlongColours(this.db, viewer.userId, colour)
      .where('items.state', '=', ItemState.normal)
      .where((eb) => visibleTo(eb, viewer));
    if (types) query = query.where('items.type', 'in', types);
    if (reviewState) query = query.where('items.review_state', '=', reviewState);
    const embedded = metadataMatches(metadata);
    if (embedded) query = query.where(embedded);
    return newestAlongColours(query).limit(limit).offset(offset);
  }

  /** Of a batch's values, those (lower-cased) that match at least one item the viewer can see. */
  async matchedValues(
    match: SearchMatch & { values: string[] },
    viewer: Viewer,
    types: ItemType[] | null,
    colour?: ColourFilter,
    metadata?: MetadataFilter,
    reviewState?: ReviewState,
  ): Promise<Set<string>> {
    const rows = await this.matchedValuesQuery(match, viewer, types, colour, metadata, reviewState).execute();
    return new Set(rows.map((row) => String((row as { value: string }).value)));
  }

  /** The query of `matchedValues` (its plan at scale is checked by server/test/query-plans.test.ts). */
  matchedValuesQuery(
    match: SearchMatch & { values: string[] },
    viewer: Viewer,
    types: ItemType[] | null,
    colour?: ColourFilter,
    metadata?: MetadataFilter,
    reviewState?: ReviewState,
  ) {
    const column = match.kind === 'artNumIn' ? sql`lower(items.art_num)` : sql`lower(items.name)`;
    return this.matching(match, viewer, types, colour, metadata, reviewState)
      .select(column.as('value'))
      .distinct();
  }
}
