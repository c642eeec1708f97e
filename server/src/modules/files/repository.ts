import { OperationCode, UploadStatus } from '@dam/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ObjectDeletionsRepository } from '../deletion-outbox/repository';
import type { ItemsRepository } from '../items/repository';
import type { LogsRepository } from '../logs/repository';
import type { LogActor } from '../logs/service';

/**
 * The other modules' repositories a files repository works with, each on the handle given (the
 * wiring's: server/src/repositories.ts), so that they join its transaction.
 */
export interface FilesRepositoryPeers {
  items: (db: Db) => ItemsRepository;
  logs: (db: Db) => LogsRepository;
  deletions: (db: Db) => ObjectDeletionsRepository;
}

/** SQL of a file's upload records (its formats and versions). */
export class FilesRepository {
  constructor(
    private readonly db: Db,
    private readonly peers: FilesRepositoryPeers,
  ) {}

  transaction<T>(work: (files: FilesRepository, items: ItemsRepository) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx) => work(new FilesRepository(trx, this.peers), this.peers.items(trx)));
  }

  /**
   * A person opened a file in the viewer (issue 39 item 3): it joins their recent views and, once per
   * opening, counts as a view of the file and as a "view file" entry (FILE13) of the operation log,
   * which the data report counts: all in one transaction. `opening` names the viewer's opening; the
   * same opening asked again (a refetch) counts nothing. Without one, every call counts. Answers
   * whether this call counted.
   */
  async recordOpening(view: {
    userId: number;
    item: { id: number; name: string };
    /** The format shown (the report's file type of a view). */
    format: string | null;
    opening: string | null;
    actor: LogActor;
    now: Date;
  }): Promise<boolean> {
    if (!this.db.isTransaction)
      return this.db.transaction().execute((trx) => new FilesRepository(trx, this.peers).recordOpening(view));
    const counted = await sql<{ user_id: number }>`
      INSERT INTO recent_views (user_id, item_id, viewed_at, opening)
      VALUES (${view.userId}, ${view.item.id}, ${view.now}, ${view.opening})
      ON CONFLICT (user_id, item_id) DO UPDATE SET viewed_at = EXCLUDED.viewed_at, opening = EXCLUDED.opening
      WHERE EXCLUDED.opening IS NULL OR recent_views.opening IS DISTINCT FROM EXCLUDED.opening
      RETURNING user_id`.execute(this.db);
    if (counted.rows.length === 0) return false;
    await this.db
      .updateTable('items')
      .set((eb) => ({ view_count: eb('view_count', '+', 1) }))
      .where('id', '=', view.item.id)
      .execute();
    const logs = this.peers.logs(this.db);
    await logs.insert({
      createdAt: view.now,
      operatorId: view.userId,
      operatorName: view.actor.apiAccess
        ? `API · ${view.actor.apiAccess.name}`
        : await logs.userName(view.userId),
      apiAccessId: view.actor.apiAccess?.id ?? null,
      code: OperationCode.view,
      itemIds: [view.item.id],
      itemNames: [view.item.name],
      itemCount: 1,
      newValue: view.format,
      details: {},
      ip: view.actor.ip,
      userAgent: view.actor.userAgent,
      reported: false,
    });
    return true;
  }

  /** Finished records of a file with their uploader's name, newest first within each format. */
  records(itemId: number) {
    return this.db
      .selectFrom('uploads')
      .innerJoin('users', 'users.id', 'uploads.user_id')
      .selectAll('uploads')
      .select('users.name as user_name')
      .where('uploads.item_id', '=', itemId)
      .where('uploads.status', '=', UploadStatus.done)
      .orderBy('uploads.completed_at', 'desc')
      .orderBy('uploads.id', 'desc')
      .execute();
  }

  async hideFormat(itemId: number, format: string): Promise<number> {
    const result = await this.db
      .updateTable('uploads')
      .set({ hidden: true })
      .where('item_id', '=', itemId)
      .where('status', '=', UploadStatus.done)
      .where('format', '=', format)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Deletes one upload record, recording its objects for deletion. Answers their keys. */
  async deleteRecord(id: number, now: Date): Promise<string[]> {
    const keys = await this.peers.deletions(this.db).enqueueUploads([id], now);
    await this.db.deleteFrom('uploads').where('id', '=', id).execute();
    return keys;
  }

  /** Moves every record of one file to another (a rename that merges two files). */
  async moveRecords(fromItemId: number, toItemId: number): Promise<void> {
    await this.db
      .updateTable('uploads')
      .set({ item_id: toItemId })
      .where('item_id', '=', fromItemId)
      .execute();
  }

  async moveFavouritesAndViews(fromItemId: number, toItemId: number): Promise<void> {
    await sql`INSERT INTO collects (user_id, item_id, created_at)
      SELECT user_id, ${toItemId}, created_at FROM collects WHERE item_id = ${fromItemId}
      ON CONFLICT DO NOTHING`.execute(this.db);
    // The collections it was in keep it, where it stood (issue 43).
    await sql`INSERT INTO collection_items (collection_id, item_id, position, added_by, added_at)
      SELECT collection_id, ${toItemId}, position, added_by, added_at FROM collection_items WHERE item_id = ${fromItemId}
      ON CONFLICT DO NOTHING`.execute(this.db);
    await sql`INSERT INTO recent_views (user_id, item_id, viewed_at)
      SELECT user_id, ${toItemId}, viewed_at FROM recent_views WHERE item_id = ${fromItemId}
      ON CONFLICT (user_id, item_id) DO UPDATE SET viewed_at = GREATEST(recent_views.viewed_at, EXCLUDED.viewed_at)`.execute(
      this.db,
    );
  }

  /** A merged file keeps the tags and channel tags of both (channel names compared without case). */
  async moveTags(fromItemId: number, toItemId: number): Promise<void> {
    await sql`INSERT INTO item_tags (item_id, tag_id)
      SELECT ${toItemId}, tag_id FROM item_tags WHERE item_id = ${fromItemId}
      ON CONFLICT DO NOTHING`.execute(this.db);
    await sql`INSERT INTO channel_tags (item_id, channel_name, created_by, created_at)
      SELECT ${toItemId}, channel_name, created_by, created_at FROM channel_tags WHERE item_id = ${fromItemId}
      ON CONFLICT DO NOTHING`.execute(this.db);
  }

  async deleteItem(itemId: number): Promise<void> {
    await this.db.deleteFrom('items').where('id', '=', itemId).execute();
  }
}
