import { randomBytes } from 'node:crypto';
import { PreviewStatus, UploadStatus } from '@dam/contract';
import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { UploadRow, UploadTable } from '../../db/schema';
import { JOB_SCHEMA, MEDIA_JOB_KEY_PREFIX, MEDIA_QUEUE } from '../../jobs/queue';
import type { ObjectDeletionsRepository } from '../deletion-outbox/repository';
import type { FilesRepository } from '../files/repository';
import type { ItemsRepository } from '../items/repository';

export type NewUpload = Insertable<UploadTable>;

/**
 * Writes the media job (thumbnail, preview) of a record that goes live, with the handle given:
 * inside the transaction that makes the record live, so both commit or neither (the job queue's
 * own SQL, jobs/queue.ts).
 */
export type MediaJobWriter = (uploadId: number, db: Db) => Promise<void>;

/** Key of the transaction-scoped advisory lock a pass of the lost-media-job sweep holds. */
const MEDIA_SWEEP_LOCK = 727_038;

/**
 * The other modules' repositories an uploads repository works with, each on the handle given (the
 * wiring's: server/src/repositories.ts), so that they join its transaction.
 */
export interface UploadsRepositoryPeers {
  items: (db: Db) => ItemsRepository;
  files: (db: Db) => FilesRepository;
  deletions: (db: Db) => ObjectDeletionsRepository;
}

/** SQL of upload records and their stored parts. */
export class UploadsRepository {
  constructor(
    private readonly db: Db,
    private readonly peers: UploadsRepositoryPeers,
  ) {}

  /** Tells the review (issue 43) of a file's new shown version, on this handle (the upload's transaction). */
  newVersionShown(
    itemId: number,
    userId: number,
    now: Date,
    review:
      | { afterNewVersion(db: Db, itemId: number, userId: number, now: Date): Promise<number[]> }
      | undefined,
  ): Promise<number[]> {
    return review ? review.afterNewVersion(this.db, itemId, userId, now) : Promise.resolve([]);
  }

  /** One transaction over uploads and items. */
  transaction<T>(work: (uploads: UploadsRepository, items: ItemsRepository) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx) => work(new UploadsRepository(trx, this.peers), this.peers.items(trx)));
  }

  /** Writes the media job of a record going live in this repository's transaction (no queue: none). */
  async writeMediaJob(uploadId: number, write: MediaJobWriter | null): Promise<void> {
    await write?.(uploadId, this.db);
  }

  /**
   * Waits for any other pass of the lost-media-job sweep to end (any process), for the rest of
   * the transaction: two passes at once would both find the same record without a job.
   */
  async lockMediaSweep(): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(${MEDIA_SWEEP_LOCK})`.execute(this.db);
  }

  /**
   * Finished records after `afterId`, in id order, whose media job never ran to an end (preview
   * still pending) and that have no media job waiting, due for a retry or running: their job was
   * lost. Reads pg-boss's job table by the job's key (jobs/queue.ts mediaJobKey).
   */
  async previewPendingWithoutMediaJob(afterId: number, limit: number): Promise<number[]> {
    // NOT IN over the keys, not NOT EXISTS: the waiting keys are hashed once (a hashed subplan)
    // whatever pg-boss's table statistics say; an anti join planned from a guess of one job row
    // compared every pending record with every job (3.4 s for 5 000 of each on PostgreSQL).
    // The subplan is hashed only while the planner's guess of the keys fits in hash_mem; the
    // sweep runs with at most MEDIA_SWEEP_MAX_WAITING keys (a few MB), so the room is made
    // ample for this transaction, whatever the statistics guess.
    await sql`SET LOCAL work_mem = '32MB'`.execute(this.db);
    const { rows } = await sql<{ id: number }>`
      SELECT u.id FROM uploads u
       WHERE u.status = ${UploadStatus.done} AND u.preview_status = ${PreviewStatus.pending}
         AND u.id > ${afterId}
         AND ${MEDIA_JOB_KEY_PREFIX} || u.id::text NOT IN (
           SELECT j.singleton_key FROM ${sql.table(`${JOB_SCHEMA}.job`)} j
            WHERE j.name = ${MEDIA_QUEUE} AND j.singleton_key IS NOT NULL
              AND j.state IN ('created', 'retry', 'active'))
       ORDER BY u.id
       LIMIT ${limit}`.execute(this.db);
    return rows.map((r) => r.id);
  }

  /** How many media jobs are waiting, due for a retry or running, counted up to `atMost`. */
  async countWaitingMediaJobs(atMost: number): Promise<number> {
    const { rows } = await sql<{ waiting: number }>`
      SELECT count(*)::int AS waiting FROM (
        SELECT 1 FROM ${sql.table(`${JOB_SCHEMA}.job`)} j
         WHERE j.name = ${MEDIA_QUEUE} AND j.state IN ('created', 'retry', 'active')
         LIMIT ${atMost}) w`.execute(this.db);
    return rows[0]?.waiting ?? 0;
  }

  async insertMany(rows: NewUpload[]): Promise<UploadRow[]> {
    if (rows.length === 0) return [];
    return this.db.insertInto('uploads').values(rows).returningAll().execute();
  }

  findById(id: number): Promise<UploadRow | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByStorageKey(key: string): Promise<UploadRow | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('storage_key', '=', key).executeTakeFirst();
  }

  /** Locks the record for the rest of the transaction, so two callbacks cannot both finish it. */
  findByIdForUpdate(id: number): Promise<UploadRow | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  findByIds(ids: number[]): Promise<UploadRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('uploads').selectAll().where('id', 'in', ids).execute();
  }

  async update(id: number, values: Partial<Omit<UploadRow, 'id'>>): Promise<void> {
    await this.db.updateTable('uploads').set(values).where('id', '=', id).execute();
  }

  /** Updates the record and answers the file it is a record of now (null: none, or no such record). */
  async updateReturningItem(id: number, values: Partial<Omit<UploadRow, 'id'>>): Promise<number | null> {
    const row = await this.db
      .updateTable('uploads')
      .set(values)
      .where('id', '=', id)
      .returning('item_id')
      .executeTakeFirst();
    return row?.item_id ?? null;
  }

  /** Updates the record unless it is finished or cancelled (checked in the same statement). */
  async updateWhileOpen(id: number, values: Partial<Omit<UploadRow, 'id'>>): Promise<void> {
    await this.db
      .updateTable('uploads')
      .set(values)
      .where('id', '=', id)
      .where('status', 'not in', [UploadStatus.done, UploadStatus.cancelled])
      .execute();
  }

  async updateMany(ids: number[], values: Partial<Omit<UploadRow, 'id'>>): Promise<void> {
    if (ids.length === 0) return;
    await this.db.updateTable('uploads').set(values).where('id', 'in', ids).execute();
  }

  parts(uploadId: number) {
    return this.db
      .selectFrom('upload_parts')
      .select(['part_number as partNumber', 'size', 'etag'])
      .where('upload_id', '=', uploadId)
      .orderBy('part_number')
      .execute();
  }

  /**
   * Records a stored part in one statement, and only if its upload is still open under that
   * multipart id, the number is one of the file's parts and the size the one that number must have
   * (the last part: the rest of the file). Answers whether it did. The record is read FOR SHARE:
   * on PostgreSQL a callback finishing or cancelling the upload holds it FOR UPDATE, and this
   * statement then waits and sees the record as that left it, so no part is recorded into an
   * upload that has just closed (without the lock, the insert's own key check waited, then went
   * on with what it had read before).
   */
  async recordPartWhileOpen(
    upload: { id: number } | { storageKey: string },
    multipartId: string,
    part: { partNumber: number; size: number; etag: string },
  ): Promise<boolean> {
    const which = 'id' in upload ? sql`id = ${upload.id}` : sql`storage_key = ${upload.storageKey}`;
    const { rows } = await sql<{ upload_id: number }>`
      INSERT INTO upload_parts (upload_id, part_number, size, etag)
      SELECT id, ${part.partNumber}, ${part.size}, ${part.etag}
        FROM uploads
       WHERE ${which}
         AND multipart_id = ${multipartId}
         AND status = ${UploadStatus.uploading}
         AND part_size > 0
         AND ${part.partNumber}::int BETWEEN 1 AND GREATEST(1, CEIL(file_size::numeric / part_size))
         AND ${part.size}::bigint = LEAST(part_size, file_size - part_size::bigint * (${part.partNumber}::int - 1))
         FOR SHARE
      ON CONFLICT (upload_id, part_number) DO UPDATE SET size = EXCLUDED.size, etag = EXCLUDED.etag
      RETURNING upload_id`.execute(this.db);
    return rows.length > 0;
  }

  /** Drops the record of a part whose place in the data file was written over and not completed. */
  async forgetPart(storageKey: string, multipartId: string, partNumber: number): Promise<void> {
    await sql`DELETE FROM upload_parts
       WHERE part_number = ${partNumber}
         AND upload_id = (SELECT id FROM uploads WHERE storage_key = ${storageKey} AND multipart_id = ${multipartId})`.execute(
      this.db,
    );
  }

  /**
   * Adds an upload's tags to its file; tags deleted since the batch was made are skipped (their
   * ids were checked then, and a tag manager may have removed one meanwhile).
   */
  async addItemTags(itemId: number, tagIds: readonly number[]): Promise<void> {
    if (tagIds.length === 0) return;
    await sql`INSERT INTO item_tags (item_id, tag_id)
      SELECT ${itemId}, id FROM tags WHERE id = ANY(${sql.val([...tagIds])}::bigint[]) FOR KEY SHARE
      ON CONFLICT DO NOTHING`.execute(this.db);
  }

  /**
   * What a file merged into another hands on before it goes, as a rename's merge does: its tags,
   * channel tags, favourites and recent views. Share links keep pointing at the file that went
   * (a link never starts showing another file); see docs/decisions.md.
   */
  async handOnToFile(fromItemId: number, toItemId: number): Promise<void> {
    const files = this.peers.files(this.db);
    await files.moveTags(fromItemId, toItemId);
    await files.moveFavouritesAndViews(fromItemId, toItemId);
  }

  /** How many records of any state a file has (they go with it if it is deleted). */
  /** Whether a file has a finished, shown record of `format` other than `exceptId` (its current one). */
  async hasShownRecordOf(itemId: number, format: string, exceptId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('uploads')
      .select('id')
      .where('item_id', '=', itemId)
      .where('format', '=', format)
      .where('status', '=', UploadStatus.done)
      .where('hidden', '=', false)
      .where('id', '<>', exceptId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async countOfItem(itemId: number): Promise<number> {
    const row = await this.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('item_id', '=', itemId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Cancels records unless one is finished, locking them first so that a callback cannot finish
   * one meanwhile; their objects and open multipart uploads are recorded for deletion. Answers
   * the keys recorded, or null (nothing changed) when a record is finished.
   */
  async cancelUnfinished(ids: readonly number[], now: Date): Promise<string[] | null> {
    if (ids.length === 0) return [];
    const locked = await this.db
      .selectFrom('uploads')
      .select(['id', 'status'])
      .where('id', 'in', [...ids])
      .orderBy('id')
      .forUpdate()
      .execute();
    if (locked.some((r) => r.status === UploadStatus.done)) return null;
    return this.peers.deletions(this.db).markCancelled(ids, now);
  }

  async clearParts(uploadId: number): Promise<void> {
    await this.db.deleteFrom('upload_parts').where('upload_id', '=', uploadId).execute();
  }

  /** The user's records in the given states, newest first. */
  listByStatus(userId: number, statuses: UploadStatus[], limit: number, offset: number) {
    return this.db
      .selectFrom('uploads')
      .leftJoin('items as folder', 'folder.id', 'uploads.folder_id')
      .selectAll('uploads')
      .select(['folder.folder_path as parent_path', 'folder.name as folder_name'])
      .where('uploads.user_id', '=', userId)
      .where('uploads.status', 'in', statuses)
      .orderBy('uploads.created_at', 'desc')
      .orderBy('uploads.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** A secret shared by every process of this instance, made on first use. */
  async sharedSecret(name: string): Promise<string> {
    await this.db
      .insertInto('app_settings')
      .values({ key: name, value: randomBytes(32).toString('base64url') })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('app_settings')
      .select('value')
      .where('key', '=', name)
      .executeTakeFirstOrThrow();
    return row.value;
  }
}
