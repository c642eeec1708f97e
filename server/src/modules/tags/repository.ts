import { ItemState, ItemType } from '@dam/contract';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ChannelTagTable, TagDimensionTable, TagTable } from '../../db/schema';
import { type Viewer, visibleTo } from '../access/visibility.repository';
import type { ItemsRepository } from '../items/repository';

export type DimensionRow = Selectable<TagDimensionTable>;
export type TagRow = Selectable<TagTable>;
export type ChannelTagRow = Selectable<ChannelTagTable>;

/** A file of the tag workbook's range. */
export interface RangeFile {
  id: number;
  name: string;
  folder_path: string;
  art_num: string | null;
}

/** What the import needs to know of an item to check it. */
export interface ImportItem {
  id: number;
  name: string;
  type: number;
  state: number;
  owner_id: number;
  visibility: 'shared' | 'private';
  dept_path: string;
}

/** Every change to dimensions and tags (and every import) holds this lock until commit. */
const STRUCTURE_LOCK = 727_009;

/** `[[1, [5, 6]], …]` → two parallel arrays for `unnest`: one row per (owner, tag). */
function pairs(sets: ReadonlyMap<number, readonly number[]>): { owners: number[]; tags: number[] } {
  const owners: number[] = [];
  const tags: number[] = [];
  for (const [owner, tagIds] of sets) {
    for (const tagId of tagIds) {
      owners.push(owner);
      tags.push(tagId);
    }
  }
  return { owners, tags };
}

/** Tag ids per owner (item or SKU); every key asked for has an entry, empty when untagged. */
function groupBy(rows: ReadonlyArray<{ key: number; tag_id: number }>, keys: Iterable<number>) {
  const map = new Map<number, number[]>();
  for (const key of keys) map.set(key, []);
  for (const row of rows) {
    const list = map.get(row.key);
    if (list) list.push(row.tag_id);
    else map.set(row.key, [row.tag_id]);
  }
  return map;
}

/** SQL of tag dimensions, tags, their links to items and SKUs, and channel tags. */
export class TagsRepository {
  constructor(
    private readonly db: Db,
    /** The items repository on a handle (the wiring's: server/src/repositories.ts). */
    private readonly itemsOn: (db: Db) => ItemsRepository,
  ) {}

  /** One transaction over tags and items. */
  transaction<T>(work: (tags: TagsRepository, items: ItemsRepository) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx) => work(new TagsRepository(trx, this.itemsOn), this.itemsOn(trx)));
  }

  /** Serialises changes to the tag structure (and imports) across transactions and processes. */
  async lockStructure(): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(${STRUCTURE_LOCK})`.execute(this.db);
  }

  dimensions(): Promise<DimensionRow[]> {
    return this.db.selectFrom('tag_dimensions').selectAll().orderBy('position').orderBy('id').execute();
  }

  tags(): Promise<TagRow[]> {
    return this.db.selectFrom('tags').selectAll().orderBy('position').orderBy('id').execute();
  }

  /**
   * The ids among `ids` that exist, locked against deletion until commit (a tag deleted meanwhile
   * would otherwise fail the insert of a link).
   */
  async lockTags(ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('tags')
      .select('id')
      .where(sql<boolean>`id = ANY(${sql.val([...ids])}::bigint[])`)
      .forShare()
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** How many items and SKUs carry each tag (index-only scans of the reverse indexes). */
  async usage(): Promise<Map<number, { items: number; skus: number }>> {
    const [items, skus] = await Promise.all([
      this.db
        .selectFrom('item_tags')
        .select(['tag_id', (eb) => eb.fn.countAll<string>().as('n')])
        .groupBy('tag_id')
        .execute(),
      this.db
        .selectFrom('sku_tags')
        .select(['tag_id', (eb) => eb.fn.countAll<string>().as('n')])
        .groupBy('tag_id')
        .execute(),
    ]);
    const usage = new Map<number, { items: number; skus: number }>();
    for (const row of items) usage.set(row.tag_id, { items: Number(row.n), skus: 0 });
    for (const row of skus) {
      const entry = usage.get(row.tag_id) ?? { items: 0, skus: 0 };
      entry.skus = Number(row.n);
      usage.set(row.tag_id, entry);
    }
    return usage;
  }

  async insertDimension(
    values: { name: string; required: boolean; parent_id: number | null; position: number },
    now: Date,
  ): Promise<number> {
    const row = await this.db
      .insertInto('tag_dimensions')
      .values({ ...values, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updateDimension(
    id: number,
    values: { name: string; required: boolean; parent_id: number | null; position?: number },
    now: Date,
  ): Promise<void> {
    await this.db
      .updateTable('tag_dimensions')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes a dimension; its tags and their links go with it (ON DELETE CASCADE). */
  async deleteDimension(id: number): Promise<void> {
    await this.db.deleteFrom('tag_dimensions').where('id', '=', id).execute();
  }

  async setDimensionPosition(id: number, position: number): Promise<void> {
    await this.db.updateTable('tag_dimensions').set({ position }).where('id', '=', id).execute();
  }

  async insertTag(
    values: { dimension_id: number; name: string; parent_id: number | null; position: number },
    now: Date,
  ): Promise<number> {
    const row = await this.db
      .insertInto('tags')
      .values({ ...values, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async updateTag(
    id: number,
    values: { name: string; parent_id: number | null; position: number },
    now: Date,
  ): Promise<void> {
    await this.db
      .updateTable('tags')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Gives tags names no real tag can have (they hold a control character), so that renames within
   * one dimension (swapping two names) never meet the unique index half-way.
   */
  async parkTagNames(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('tags')
      .set({ name: sql`chr(1) || id::text` })
      .where('id', 'in', [...ids])
      .execute();
  }

  /** Deletes tags; their links to items and SKUs go with them (ON DELETE CASCADE). */
  async deleteTags(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .deleteFrom('tags')
      .where('id', 'in', [...ids])
      .execute();
  }

  // --- Tags of items --------------------------------------------------------------------------

  /** Tag ids of each item (every item asked for has an entry). */
  async tagIdsOfItems(itemIds: readonly number[]): Promise<Map<number, number[]>> {
    if (itemIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('item_tags')
      .select(['item_id as key', 'tag_id'])
      .where(sql<boolean>`item_id = ANY(${sql.val([...itemIds])}::bigint[])`)
      .execute();
    return groupBy(rows, itemIds);
  }

  /** Makes `tagIds` the tags of every item of `itemIds` (two statements whatever the sizes). */
  async replaceItemTags(itemIds: readonly number[], tagIds: readonly number[]): Promise<void> {
    await this.db
      .deleteFrom('item_tags')
      .where(sql<boolean>`item_id = ANY(${sql.val([...itemIds])}::bigint[])`)
      .execute();
    await this.addItemTags(itemIds, tagIds);
  }

  /** Adds `tagIds` to every item of `itemIds` (what an item has already stays). */
  async addItemTags(itemIds: readonly number[], tagIds: readonly number[]): Promise<void> {
    if (itemIds.length === 0 || tagIds.length === 0) return;
    await sql`
      INSERT INTO item_tags (item_id, tag_id)
      SELECT i, t FROM unnest(${sql.val([...itemIds])}::bigint[]) AS i
        CROSS JOIN unnest(${sql.val([...tagIds])}::bigint[]) AS t
      ON CONFLICT DO NOTHING`.execute(this.db);
  }

  /** Sets each item's whole tag set as given (the import): old links out, new ones in. */
  async setItemTagSets(sets: ReadonlyMap<number, readonly number[]>): Promise<void> {
    if (sets.size === 0) return;
    await this.db
      .deleteFrom('item_tags')
      .where(sql<boolean>`item_id = ANY(${sql.val([...sets.keys()])}::bigint[])`)
      .execute();
    const { owners, tags } = pairs(sets);
    if (owners.length === 0) return;
    await sql`
      INSERT INTO item_tags (item_id, tag_id)
      SELECT * FROM unnest(${sql.val(owners)}::bigint[], ${sql.val(tags)}::bigint[])
      ON CONFLICT DO NOTHING`.execute(this.db);
  }

  /** The columns the import checks, of these ids (any state). */
  itemsForImport(ids: readonly number[]): Promise<ImportItem[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('items')
      .select(['id', 'name', 'type', 'state', 'owner_id', 'visibility', 'dept_path'])
      .where(sql<boolean>`id = ANY(${sql.val([...ids])}::bigint[])`)
      .execute();
  }

  /**
   * Live files the viewer can see among `fileIds` and inside the folders at `folderIdPaths`
   * (recursively), by folder path and name; at most `limit`.
   */
  filesInRange(
    range: { fileIds: readonly number[]; folderIdPaths: readonly string[] },
    viewer: Viewer,
    limit: number,
  ): Promise<RangeFile[]> {
    return this.db
      .selectFrom('items')
      .select(['items.id', 'items.name', 'items.folder_path', 'items.art_num'])
      .where('items.state', '=', ItemState.normal)
      .where('items.type', '<>', ItemType.folder)
      .where((eb) => visibleTo(eb, viewer))
      .where((eb) =>
        eb.or([
          ...(range.fileIds.length > 0
            ? [sql<boolean>`items.id = ANY(${sql.val([...range.fileIds])}::bigint[])`]
            : []),
          ...range.folderIdPaths.map((path) => eb('items.id_path', 'like', `${path}%`)),
        ]),
      )
      .orderBy('items.folder_path')
      .orderBy(sql`lower(items.name)`)
      .orderBy('items.id')
      .limit(limit)
      .execute();
  }

  // --- Channel tags -----------------------------------------------------------------------------

  /** Locks an item's row against concurrent channel-tag changes (not against tagging or reads). */
  async lockItem(itemId: number): Promise<void> {
    await this.db.selectFrom('items').select('id').where('id', '=', itemId).forNoKeyUpdate().execute();
  }

  channelTags(itemId: number): Promise<ChannelTagRow[]> {
    return this.db
      .selectFrom('channel_tags')
      .selectAll()
      .where('item_id', '=', itemId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  findChannelTag(id: number): Promise<ChannelTagRow | undefined> {
    return this.db.selectFrom('channel_tags').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insertChannelTag(itemId: number, channelName: string, userId: number, now: Date): Promise<ChannelTagRow> {
    return this.db
      .insertInto('channel_tags')
      .values({ item_id: itemId, channel_name: channelName, created_by: userId, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async deleteChannelTag(id: number): Promise<void> {
    await this.db.deleteFrom('channel_tags').where('id', '=', id).execute();
  }

  // --- Tags of SKUs -------------------------------------------------------------------------------

  /** SKUs of these article numbers (any case): id and stored spelling. */
  skusByArtNums(artNums: readonly string[]): Promise<Array<{ id: number; art_num: string }>> {
    if (artNums.length === 0) return Promise.resolve([]);
    const keys = [...new Set(artNums.map((a) => a.toLowerCase()))];
    return this.db
      .selectFrom('sku')
      .select(['id', 'art_num'])
      .where(sql<boolean>`lower(sku.art_num) COLLATE "C" = ANY(${sql.val(keys)}::text[])`)
      .execute();
  }

  async tagIdsOfSkus(skuIds: readonly number[]): Promise<Map<number, number[]>> {
    if (skuIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('sku_tags')
      .select(['sku_id as key', 'tag_id'])
      .where(sql<boolean>`sku_id = ANY(${sql.val([...skuIds])}::bigint[])`)
      .execute();
    return groupBy(rows, skuIds);
  }

  async replaceSkuTags(skuId: number, tagIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('sku_tags').where('sku_id', '=', skuId).execute();
    if (tagIds.length === 0) return;
    await this.db
      .insertInto('sku_tags')
      .values(tagIds.map((tagId) => ({ sku_id: skuId, tag_id: tagId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
