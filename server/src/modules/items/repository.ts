import { ItemState, ItemType, UploadStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import type { Viewer } from '../access/visibility.repository';
import type { ColourFilter } from './colour-filter';
import {
  countChildrenUpTo,
  countColourEntriesUpTo,
  countVisibleChildren,
  listChildren,
  listChildrenQuery,
  listSubfolders,
  tagFilterGroups,
} from './listing.repository';
import { type ItemWithOwner, selectItems } from './queries.repository';
import type { ListingFilter, ListOrder, NewFolder } from './records';

export type { Viewer } from '../access/visibility.repository';
export { COLOUR_WALK_FOLDER_SIZE, listOrderOf, sortOf } from './listing.repository';
export type { ItemWithOwner } from './queries.repository';
export type { ListingFilter, ListOrder, NewFolder } from './records';

/** SQL of folders and files. Every list goes through `visibleTo`, so nothing leaks past scopes. */
export class ItemsRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

  transaction<T>(work: (repo: ItemsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new ItemsRepository(trx)));
  }

  async findById(id: number, userId: number): Promise<ItemWithOwner | undefined> {
    return (await selectItems(this.db, userId).where('items.id', '=', id).executeTakeFirst()) as
      | ItemWithOwner
      | undefined;
  }

  async findByIds(ids: number[], userId: number): Promise<ItemWithOwner[]> {
    if (ids.length === 0) return [];
    return (await selectItems(this.db, userId).where('items.id', 'in', ids).execute()) as ItemWithOwner[];
  }

  /** The live folder at a display path such as `/Shoes/2026 SS`. */
  findLiveFolderByPath(folderPath: string, name: string) {
    return this.db
      .selectFrom('items')
      .select('id')
      .where('type', '=', ItemType.folder)
      .where('state', '=', ItemState.normal)
      .where('folder_path', '=', folderPath)
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
      .executeTakeFirst();
  }

  /** One page of a folder's live children visible to the viewer, in one of the index orders. */
  listChildren(
    parentId: number | null,
    viewer: Viewer,
    filter: ListingFilter,
    order: ListOrder,
    limit: number,
    offset: number,
  ): Promise<ItemWithOwner[]> {
    return listChildren(this.db, parentId, viewer, filter, order, limit, offset);
  }

  /** Items of the filter's colour family, counting no further than `limit` (a partial index range). */
  countColourEntriesUpTo(colour: ColourFilter, limit: number): Promise<number> {
    return countColourEntriesUpTo(this.db, colour, limit);
  }

  /** How many live children a folder has, counting no further than `limit` (an index-only range). */
  countChildrenUpTo(parentId: number | null, limit: number): Promise<number> {
    return countChildrenUpTo(this.db, parentId, limit);
  }

  /** The query of `listChildren` (its plan is checked by the tests). */
  listChildrenQuery(
    parentId: number | null,
    viewer: Viewer,
    filter: ListingFilter,
    order: ListOrder,
    limit: number,
    offset: number,
  ) {
    return listChildrenQuery(this.db, parentId, viewer, filter, order, limit, offset);
  }

  /** The tag filter of a listing, grouped by dimension (see `tagFilterGroups` of listing.repository). */
  tagFilterGroups(tagIds: readonly number[]): Promise<number[][]> {
    return tagFilterGroups(this.db, tagIds);
  }

  /** Subfolders of a folder visible to the viewer, by name, with whether each has subfolders. */
  listSubfolders(parentId: number | null, viewer: Viewer) {
    return listSubfolders(this.db, parentId, viewer);
  }

  /** Per folder, how many of its own live children the viewer may see, counted no further than `cap`. */
  countVisibleChildren(folderIds: number[], viewer: Viewer, cap: number): Promise<Map<number, number>> {
    return countVisibleChildren(this.db, folderIds, viewer, cap);
  }

  /** Names of the folders on an id path, top first. */
  async namesOnPath(idPath: string): Promise<Array<{ id: number; name: string }>> {
    const ids = idPath.split('/').filter(Boolean).map(Number);
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('items').select(['id', 'name']).where('id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async insertFolder(folder: NewFolder): Promise<number> {
    // The id path needs the id, so draw it from the identity sequence first.
    const { rows } = await sql<{
      id: number;
    }>`SELECT nextval(pg_get_serial_sequence('items', 'id'))::bigint AS id`.execute(this.db);
    const id = Number(rows[0]?.id);
    await this.db
      .insertInto('items')
      .values({
        id,
        type: ItemType.folder,
        parent_id: folder.parent_id,
        name: folder.name,
        id_path: `${folder.parentIdPath}${id}/`,
        folder_path: folder.folder_path,
        owner_id: folder.owner_id,
        dept_path: folder.dept_path,
        visibility: folder.visibility,
        created_at: folder.created_at,
        updated_at: folder.created_at,
      })
      .execute();
    return id;
  }

  /**
   * Deletes a file that has no upload record left (one whose only record became another file's
   * version); its favourites, views and tags go with it. A folder or a file with records stays.
   */
  async deleteFileWithoutRecords(id: number): Promise<void> {
    await this.db
      .deleteFrom('items')
      .where('id', '=', id)
      .where('type', '<>', ItemType.folder)
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('uploads').select('uploads.id').where('uploads.item_id', '=', id))),
      )
      .execute();
  }

  /** Locks the rows of `ids` for the rest of the transaction, in id order (no two callers cross). */
  async lockRows(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.selectFrom('items').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
  }

  /** Serialises work on one name in one folder across transactions and processes. */
  async lockName(parentId: number | null, name: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(727002, hashtext(${`${parentId ?? 0}/${name.toLowerCase()}`}))`.execute(
      this.db,
    );
  }

  findLiveFileByName(parentId: number | null, baseName: string) {
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('state', '=', ItemState.normal)
      .where('type', '<>', ItemType.folder)
      .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId)))
      .where((eb) => eb(eb.fn('lower', ['name']), '=', baseName.toLowerCase()))
      .executeTakeFirst();
  }

  findLiveSubfolder(parentId: number | null, name: string) {
    return this.db
      .selectFrom('items')
      .selectAll()
      .where('state', '=', ItemState.normal)
      .where('type', '=', ItemType.folder)
      .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId)))
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
      .executeTakeFirst();
  }

  async insertFile(file: NewFolder & { type: ItemType }): Promise<number> {
    const { rows } = await sql<{
      id: number;
    }>`SELECT nextval(pg_get_serial_sequence('items', 'id'))::bigint AS id`.execute(this.db);
    const id = Number(rows[0]?.id);
    await this.db
      .insertInto('items')
      .values({
        id,
        type: file.type,
        parent_id: file.parent_id,
        name: file.name,
        id_path: `${file.parentIdPath}${id}/`,
        folder_path: file.folder_path,
        owner_id: file.owner_id,
        dept_path: file.dept_path,
        visibility: file.visibility,
        created_at: file.created_at,
        updated_at: file.created_at,
      })
      .execute();
    return id;
  }

  /**
   * Recomputes what a logical file shows from its finished, visible upload records: its formats
   * (in order of first arrival), size (latest record of each format), type and preview; and its
   * colours for the colour search, copied from the cover upload's (none without a cover or without
   * colours). One call of the database function `refresh_file_summary` (migration 026): it locks
   * the items row first, so two refreshes of one item (two media jobs) write its colours one after
   * the other, and it is a fifth of the embedded database's time of the same statements sent one
   * by one.
   */
  async refreshFileSummary(itemId: number, now: Date): Promise<void> {
    await sql`SELECT refresh_file_summary(${itemId}, ${now})`.execute(this.db);
  }

  /**
   * Only the item's colours from its cover upload (the fingerprint back-fill): the item itself is
   * not touched, so its "updated" time stays the last change a person made.
   */
  async refreshColours(itemId: number): Promise<void> {
    if (!this.db.isTransaction) {
      await this.transaction((repo) => repo.refreshColours(itemId));
      return;
    }
    const { rows } = await sql<{ cover_upload_id: number | string | null }>`
      SELECT (
        SELECT u.id FROM uploads u
        WHERE u.item_id = i.id AND u.status = ${sql.lit(UploadStatus.done)} AND NOT u.hidden AND u.thumb_key IS NOT NULL
          AND NOT EXISTS (
            SELECT 1 FROM uploads newer WHERE newer.item_id = u.item_id AND newer.format = u.format
              AND newer.status = ${sql.lit(UploadStatus.done)} AND NOT newer.hidden
              AND (newer.completed_at, newer.id) > (u.completed_at, u.id))
        ORDER BY u.completed_at DESC, u.id DESC LIMIT 1) AS cover_upload_id
      FROM items i WHERE i.id = ${itemId} FOR UPDATE`.execute(this.db);
    const item = rows[0];
    if (!item) return;
    // The same replacement `refresh_file_summary` makes (migration 026).
    await sql`SELECT replace_item_colours(${itemId}, ${item.cover_upload_id})`.execute(this.db);
  }

  async setFileMetadata(
    itemId: number,
    values: { type: ItemType; art_num?: string; expire_start_date?: string; expire_end_date?: string },
  ): Promise<void> {
    await this.db.updateTable('items').set(values).where('id', '=', itemId).execute();
  }

  async updateMetadata(
    id: number,
    values: { expire_start_date?: string | null; expire_end_date?: string | null; art_num?: string | null },
    now: Date,
  ): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async renameItem(id: number, name: string, now: Date): Promise<void> {
    await this.db.updateTable('items').set({ name, updated_at: now }).where('id', '=', id).execute();
  }

  /**
   * Re-roots a subtree: every row under `oldIdPath` gets its id path and display path rewritten in
   * one statement, whatever the subtree's size. `visibility` (when given) applies to all of it.
   */
  async rewriteSubtree(change: {
    oldIdPath: string;
    newIdPath: string;
    /** Display path of the subtree root itself before and after, e.g. `/A/B` → `/C/B`. */
    oldFullPath: string;
    newFullPath: string;
    visibility?: 'shared' | 'private';
    now: Date;
  }): Promise<void> {
    const oldLen = change.oldIdPath.length;
    const oldFullLen = change.oldFullPath.length;
    await this.db
      .updateTable('items')
      .set({
        id_path: sql`${change.newIdPath} || substr(id_path, ${oldLen + 1})`,
        // Only descendants carry the old full path as their folder path prefix.
        folder_path: sql`CASE WHEN id_path = ${change.oldIdPath} THEN folder_path
          ELSE ${change.newFullPath} || substr(folder_path, ${oldFullLen + 1}) END`,
        ...(change.visibility ? { visibility: change.visibility } : {}),
        updated_at: change.now,
      })
      .where('id_path', 'like', `${change.oldIdPath}%`)
      .execute();
  }

  async setParent(id: number, parentId: number | null, folderPath: string): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ parent_id: parentId, folder_path: folderPath })
      .where('id', '=', id)
      .execute();
  }

  /** Whether any live item under these subtrees is private. */
  async subtreeHasPrivate(idPaths: string[]): Promise<boolean> {
    if (idPaths.length === 0) return false;
    const row = await this.db
      .selectFrom('items')
      .select('id')
      .where('state', '=', ItemState.normal)
      .where('visibility', '=', 'private')
      .where((eb) => eb.or(idPaths.map((p) => eb('id_path', 'like', `${p}%`))))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Sends live subtrees to the recycle bin; `rootId` marks what the user deleted. */
  async removeSubtree(rootId: number, idPath: string, userId: number, now: Date): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ state: ItemState.removed, removed_at: now, removed_by: userId, removed_root_id: rootId })
      .where('id_path', 'like', `${idPath}%`)
      .where('state', '=', ItemState.normal)
      .execute();
  }

  async nameTaken(
    parentId: number | null,
    isFolder: boolean,
    name: string,
    exceptId?: number,
  ): Promise<boolean> {
    let query = this.db
      .selectFrom('items')
      .select('id')
      .where('state', '=', ItemState.normal)
      .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId)))
      .where(
        isFolder
          ? sql<boolean>`type = ${sql.lit(ItemType.folder)}`
          : sql<boolean>`type <> ${sql.lit(ItemType.folder)}`,
      )
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return (await query.limit(1).executeTakeFirst()) !== undefined;
  }
}
