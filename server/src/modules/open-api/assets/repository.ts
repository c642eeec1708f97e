import { ItemState, ItemType, type ReviewState, UploadStatus } from '@dam/contract';
import { sql } from 'kysely';
import type { Db } from '../../../db/database';
import { likeLiteral } from '../../../db/sql-helpers';
import { type Viewer, visibleTo } from '../../access/visibility.repository';

/** `%`, `_` and `\` are LIKE wildcards; an id path never holds them, but a pattern stays exact. */

/** Who is looking, and (issue 43) the one review state they ask for, if any: a shop system's `approved`. */
export type AssetViewer = Viewer & { reviewState?: ReviewState | undefined };

/** What an asset summary is made of: one file item's columns. */
export interface AssetRow {
  id: number;
  name: string;
  art_num: string | null;
  parent_id: number | null;
  folder_path: string;
  file_formats: string | null;
  expire_start_date: string | null;
  expire_end_date: string | null;
  created_at: Date;
  updated_at: Date;
  review_state: ReviewState;
}

const ASSET_COLUMNS = [
  'items.id',
  'items.name',
  'items.art_num',
  'items.parent_id',
  'items.folder_path',
  'items.file_formats',
  'items.expire_start_date',
  'items.expire_end_date',
  'items.created_at',
  'items.updated_at',
  'items.review_state',
] as const;

/** The creation time of an item to the microsecond, in UTC (a JavaScript Date keeps milliseconds). */
const CREATED_KEY = sql<string>`to_char(items.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;

/**
 * SQL of the open API's asset calls (issue 15). Every list is one query, an index range that stops
 * after a page (keyset paging) or, for article numbers, one index probe per number asked; the
 * visibility rule is the items module's (`visibleTo`). The flags are inlined (`sql.lit`) so the
 * partial indexes' predicates match in every plan.
 */
export class OpenAssetsRepository {
  constructor(private readonly db: Db) {}

  private liveFiles(viewer: AssetViewer) {
    return this.db
      .selectFrom('items')
      .where('items.state', '=', sql.lit(ItemState.normal))
      .where('items.type', '<>', sql.lit(ItemType.folder))
      .where((eb) => visibleTo(eb, viewer))
      .$if(viewer.reviewState !== undefined, (q) =>
        q.where('items.review_state', '=', viewer.reviewState as ReviewState),
      );
  }

  /**
   * For each article number asked (each once), its newest `perArtNum` live files the viewer may
   * see, compared without regard to case: one probe of `items_art_num_key` per number (a lateral
   * join on the numbers), so the cost follows the numbers asked, not the archive. `formats`: only
   * files holding at least one of them.
   */
  byArtNumsQuery(
    artNums: readonly string[],
    viewer: AssetViewer,
    formats: readonly string[] | null,
    perArtNum: number,
  ) {
    return this.db
      .selectFrom(sql<{ value: string }>`(SELECT unnest(${[...artNums]}::text[]) AS value)`.as('asked'))
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('items')
            .select(ASSET_COLUMNS)
            .where('items.state', '=', sql.lit(ItemState.normal))
            .where('items.art_num', 'is not', null)
            .where(sql<boolean>`(lower(items.art_num) COLLATE "C") = (lower(asked.value) COLLATE "C")`)
            .where('items.type', '<>', sql.lit(ItemType.folder))
            .where((inner) => visibleTo(inner, viewer))
            .$if(viewer.reviewState !== undefined, (q) =>
              q.where('items.review_state', '=', viewer.reviewState as ReviewState),
            )
            .$if(formats !== null, (q) =>
              q.where(
                sql<boolean>`string_to_array(items.file_formats, ',') && ${[...(formats ?? [])]}::text[]`,
              ),
            )
            .orderBy('items.created_at', 'desc')
            .orderBy('items.id', 'desc')
            .limit(perArtNum)
            .as('hit'),
        (join) => join.onTrue(),
      )
      .select('asked.value as asked')
      .selectAll('hit');
  }

  async byArtNums(
    artNums: readonly string[],
    viewer: AssetViewer,
    formats: readonly string[] | null,
    perArtNum: number,
  ): Promise<Array<AssetRow & { asked: string }>> {
    if (artNums.length === 0) return [];
    return (await this.byArtNumsQuery(artNums, viewer, formats, perArtNum).execute()) as Array<
      AssetRow & { asked: string }
    >;
  }

  /** Files carrying a tag, by item id after `afterItemId`: a range of `item_tags_tag (tag_id, item_id)`. */
  byTagQuery(tagId: number, viewer: AssetViewer, afterItemId: number | null, limit: number) {
    return this.liveFiles(viewer)
      .innerJoin('item_tags', 'item_tags.item_id', 'items.id')
      .select(ASSET_COLUMNS)
      .where('item_tags.tag_id', '=', tagId)
      .$if(afterItemId !== null, (q) => q.where('item_tags.item_id', '>', afterItemId as number))
      .orderBy('item_tags.item_id')
      .limit(limit);
  }

  async byTag(
    tagId: number,
    viewer: AssetViewer,
    afterItemId: number | null,
    limit: number,
  ): Promise<AssetRow[]> {
    return (await this.byTagQuery(tagId, viewer, afterItemId, limit).execute()) as AssetRow[];
  }

  /**
   * A folder's own files, newest first, after the keyset (`createdKey` as this query answers it,
   * to the microsecond): a range of `items_listing_time`.
   */
  childrenQuery(
    folderId: number,
    viewer: AssetViewer,
    after: { createdKey: string; id: number } | null,
    limit: number,
  ) {
    return this.liveFiles(viewer)
      .select([...ASSET_COLUMNS, CREATED_KEY.as('created_key')])
      .where('items.parent_id', '=', folderId)
      .$if(after !== null, (q) =>
        q.where(
          sql<boolean>`(items.created_at, items.id) < (${after?.createdKey}::timestamp AT TIME ZONE 'UTC', ${after?.id}::bigint)`,
        ),
      )
      .orderBy('items.created_at', 'desc')
      .orderBy('items.id', 'desc')
      .limit(limit);
  }

  async children(
    folderId: number,
    viewer: AssetViewer,
    after: { createdKey: string; id: number } | null,
    limit: number,
  ): Promise<Array<AssetRow & { created_key: string }>> {
    return (await this.childrenQuery(folderId, viewer, after, limit).execute()) as Array<
      AssetRow & { created_key: string }
    >;
  }

  /**
   * Every file below a folder (its id path `folderIdPath`), in id-path order after `afterIdPath`:
   * a range of `items_id_path` (text_pattern_ops, hence the `~>~` / `~<~` byte-order operators).
   */
  subtreeQuery(folderIdPath: string, viewer: AssetViewer, afterIdPath: string | null, limit: number) {
    return this.liveFiles(viewer)
      .select([...ASSET_COLUMNS, 'items.id_path'])
      .where('items.id_path', 'like', `${likeLiteral(folderIdPath)}%`)
      .$if(afterIdPath !== null, (q) => q.where(sql<boolean>`items.id_path ~>~ ${afterIdPath}`))
      .orderBy(sql`items.id_path USING ~<~`)
      .limit(limit);
  }

  async subtree(
    folderIdPath: string,
    viewer: AssetViewer,
    afterIdPath: string | null,
    limit: number,
  ): Promise<Array<AssetRow & { id_path: string }>> {
    return (await this.subtreeQuery(folderIdPath, viewer, afterIdPath, limit).execute()) as Array<
      AssetRow & { id_path: string }
    >;
  }

  /** An item with what the access rules look at (any type, any state). */
  item(id: number) {
    return this.db
      .selectFrom('items')
      .select([
        ...ASSET_COLUMNS,
        'items.type',
        'items.state',
        'items.owner_id',
        'items.visibility',
        'items.dept_path',
        'items.id_path',
        'items.cover_key',
      ])
      .where('items.id', '=', id)
      .executeTakeFirst();
  }

  /** Items by id with what the access rules look at (any type, any state); the missing are absent. */
  itemsByIds(ids: readonly number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('items')
      .select([
        ...ASSET_COLUMNS,
        'items.type',
        'items.state',
        'items.owner_id',
        'items.visibility',
        'items.dept_path',
      ])
      .where('items.id', 'in', [...ids])
      .execute();
  }

  tagExists(tagId: number): Promise<boolean> {
    return this.db
      .selectFrom('tags')
      .select('id')
      .where('id', '=', tagId)
      .executeTakeFirst()
      .then((row) => row !== undefined);
  }

  /**
   * Each visible format of a file with its current version (the newest finished record that is
   * not hidden) and how many versions it has.
   */
  formatsOf(itemId: number) {
    return this.db
      .selectFrom('uploads')
      .distinctOn('uploads.format')
      .select([
        'uploads.id',
        'uploads.format',
        'uploads.file_size',
        'uploads.width',
        'uploads.height',
        'uploads.storage_key',
        'uploads.preview_key',
        'uploads.completed_at',
        'uploads.created_at',
        sql<number>`(count(*) OVER (PARTITION BY uploads.format))::int`.as('versions'),
      ])
      .where('uploads.item_id', '=', itemId)
      .where('uploads.status', '=', sql.lit(UploadStatus.done))
      .where('uploads.hidden', '=', sql.lit(false))
      .orderBy('uploads.format')
      .orderBy('uploads.completed_at', 'desc')
      .orderBy('uploads.id', 'desc')
      .execute();
  }
}
