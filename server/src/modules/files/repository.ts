import { UploadStatus } from '@dam/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { ItemsRepository } from '../items/repository';
import { ObjectDeletionsRepository } from '../objects/repository';

/** SQL of a file's upload records (its formats and versions). */
export class FilesRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (files: FilesRepository, items: ItemsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new FilesRepository(trx), new ItemsRepository(trx)));
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
    const keys = await new ObjectDeletionsRepository(this.db).enqueueUploads([id], now);
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
