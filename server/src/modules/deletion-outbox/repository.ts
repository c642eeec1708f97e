import { ItemState, UploadStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { MAX_RENDERED_PAGES } from '../../storage/document-pages';

/** A cancelled upload's keys are dead; every other record keeps its objects. */
const UNFINISHED = [UploadStatus.waiting, UploadStatus.uploading, UploadStatus.failed];

/**
 * SQL of the object-deletion outbox (migration 012). The enqueue methods run inside the caller's
 * transaction (pass its `trx`), so the keys are recorded exactly when the rows go.
 */
export class ObjectDeletionsRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

  /**
   * Records every object of these upload records (original, thumbnail, preview, video rendition, page images; with the open
   * multipart upload of the original) for deletion. Call before the records are deleted or
   * cleared. Answers the keys recorded.
   */
  async enqueueUploads(uploadIds: readonly number[], now: Date): Promise<string[]> {
    if (uploadIds.length === 0) return [];
    const result = await sql<{ key: string }>`
      INSERT INTO object_deletions (key, multipart_id, enqueued_at)
      SELECT k.key, k.multipart_id, ${now}
      FROM uploads u
      CROSS JOIN LATERAL (
        VALUES (u.storage_key, u.multipart_id), (u.thumb_key, NULL), (u.preview_key, NULL), (u.play_key, NULL)
        UNION ALL
        -- A document's page images (storage/document-pages.ts: pageKeyOf, at most MAX_RENDERED_PAGES).
        SELECT 'previews/' || u.storage_key || '.page-' || n || '.jpg', NULL
        FROM generate_series(1, LEAST(COALESCE(u.page_count, 0), ${MAX_RENDERED_PAGES})) AS n
      ) AS k (key, multipart_id)
      WHERE u.id = ANY(${sql.val([...uploadIds])}::bigint[]) AND k.key IS NOT NULL
      ON CONFLICT (key) DO UPDATE
        SET multipart_id = COALESCE(EXCLUDED.multipart_id, object_deletions.multipart_id)
      RETURNING key`.execute(this.db);
    return result.rows.map((r) => r.key);
  }

  /** The upload records of the files in these recycle-bin subtrees (all their formats and versions). */
  async uploadIdsOfRecycled(rootIds: readonly number[]): Promise<number[]> {
    if (rootIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('uploads')
      .innerJoin('items', 'items.id', 'uploads.item_id')
      .select('uploads.id')
      .where('items.removed_root_id', 'in', [...rootIds])
      .where('items.state', '=', ItemState.removed)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Records keys found by the sweep (no multipart upload to abort). */
  async enqueueKeys(keys: readonly string[], now: Date): Promise<void> {
    if (keys.length === 0) return;
    await this.db
      .insertInto('object_deletions')
      .values(keys.map((key) => ({ key, multipart_id: null, enqueued_at: now })))
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  find(key: string) {
    return this.db.selectFrom('object_deletions').selectAll().where('key', '=', key).executeTakeFirst();
  }

  /**
   * The storage keys, among `candidates`, that a record other than a cancelled one still holds
   * (an upload in progress included: its object is about to exist).
   */
  async liveStorageKeys(candidates: readonly string[]): Promise<Set<string>> {
    if (candidates.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('uploads')
      .select('storage_key')
      .where('storage_key', 'in', [...new Set(candidates)])
      .where('status', '<>', UploadStatus.cancelled)
      .execute();
    return new Set(rows.map((r) => r.storage_key));
  }

  /** Whether the database holds any upload record at all (the sweep's sanity check). */
  async anyUpload(): Promise<boolean> {
    return (await this.db.selectFrom('uploads').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  async remove(key: string): Promise<void> {
    await this.db.deleteFrom('object_deletions').where('key', '=', key).execute();
  }

  async recordFailure(key: string, error: string, now: Date): Promise<void> {
    await this.db
      .updateTable('object_deletions')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        last_attempt_at: now,
        last_error: error.slice(0, 1000),
      }))
      .where('key', '=', key)
      .execute();
  }

  /** Deletions not tried since `before` (their job was lost or ran out of retries). */
  async stale(before: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('object_deletions')
      .select('key')
      .where(sql<boolean>`COALESCE(last_attempt_at, enqueued_at) < ${before}`)
      .orderBy(sql`COALESCE(last_attempt_at, enqueued_at)`)
      .limit(limit)
      .execute();
    return rows.map((r) => r.key);
  }

  /** Marks a touch on the deletions re-sent, so the next pass does not send them again at once. */
  async touch(keys: readonly string[], now: Date): Promise<void> {
    if (keys.length === 0) return;
    await this.db
      .updateTable('object_deletions')
      .set({ last_attempt_at: now })
      .where('key', 'in', [...keys])
      .execute();
  }

  /**
   * Cancels unfinished uploads (waiting, uploading, failed) untouched since `before`, recording
   * their objects and open multipart uploads for deletion, in one transaction. Answers the keys.
   */
  async abandonUnfinished(before: Date, now: Date, limit: number): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('uploads')
        .select('id')
        .where('status', 'in', UNFINISHED)
        .where('updated_at', '<', before)
        .orderBy('updated_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      return new ObjectDeletionsRepository(trx).cancelUploads(
        rows.map((r) => r.id),
        'abandoned',
        now,
      );
    });
  }

  /**
   * Cancels upload records (call inside the caller's transaction), recording their objects and
   * open multipart uploads for deletion first. Answers the keys.
   */
  async cancelUploads(candidates: readonly number[], reason: string, now: Date): Promise<string[]> {
    if (candidates.length === 0) return [];
    // Locked and checked again: a callback that finished one meanwhile keeps it finished.
    const rows = await this.db
      .selectFrom('uploads')
      .select('id')
      .where('id', 'in', [...candidates])
      .where('status', 'in', UNFINISHED)
      .orderBy('id')
      .forUpdate()
      .execute();
    return this.markCancelled(
      rows.map((r) => r.id),
      now,
      reason,
    );
  }

  /**
   * Marks locked upload records cancelled (inside the caller's transaction, rows already locked):
   * their objects and open multipart uploads go to the outbox first, their part list goes.
   * `reason` is kept as the record's error when given. Answers the keys recorded.
   */
  async markCancelled(ids: readonly number[], now: Date, reason?: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const keys = await this.enqueueUploads(ids, now);
    await this.db
      .updateTable('uploads')
      .set({
        status: UploadStatus.cancelled,
        multipart_id: null,
        part_size: null,
        updated_at: now,
        ...(reason === undefined ? {} : { error: reason }),
      })
      .where('id', 'in', [...ids])
      .execute();
    await this.db
      .deleteFrom('upload_parts')
      .where('upload_id', 'in', [...ids])
      .execute();
    return keys;
  }

  /** Unfinished uploads (waiting, uploading, failed) into folders of these recycle-bin subtrees. */
  async unfinishedUploadIdsIntoRecycled(rootIds: readonly number[]): Promise<number[]> {
    if (rootIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('uploads')
      .innerJoin('items', 'items.id', 'uploads.folder_id')
      .select('uploads.id')
      .where('items.removed_root_id', 'in', [...rootIds])
      .where('items.state', '=', ItemState.removed)
      .where('uploads.status', 'in', UNFINISHED)
      .execute();
    return rows.map((r) => r.id);
  }
}
