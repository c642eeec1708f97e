import { ItemState, ItemType, PreviewStatus, UploadStatus } from '@dam/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { JOB_SCHEMA, MEDIA_JOB_KEY_PREFIX, MEDIA_QUEUE } from '../../jobs/queue';
import type { ItemAccessFacts } from '../items/policy';
import type { UploadsRepository } from '../uploads/repository';

const JOB_TABLE = sql.table(`${JOB_SCHEMA}.job`);

export interface QueueCounts {
  waiting: number;
  active: number;
  failed: number;
  completed: number;
}

export interface FailedJobRow {
  id: string;
  data: unknown;
  output: unknown;
  completed_on: Date | null;
  retry_count: number;
}

export type ItemFacts = ItemAccessFacts & {
  id: number;
  name: string;
  type: number;
  id_path: string;
  state: number;
};

/** SQL of the jobs screen: pg-boss's job table read as the lost-media-job sweep reads it, and the files jobs concern. */
export class JobsAdminRepository {
  /** `uploads`: the uploads' repository on a handle (a transaction) given, injected by the wiring. */
  constructor(
    private readonly db: Db,
    private readonly uploads: (db: Db) => UploadsRepository,
  ) {}

  /** One transaction, with the uploads' SQL (their media jobs are written through it). */
  transaction<T>(work: (jobs: JobsAdminRepository, uploads: UploadsRepository) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx) => work(new JobsAdminRepository(trx, this.uploads), this.uploads(trx)));
  }

  /** Jobs by queue and state: waiting (created or due for a retry), active, failed, completed (retained ones). */
  async counts(queues: readonly string[]): Promise<Map<string, QueueCounts>> {
    const { rows } = await sql<{ name: string; state: string; n: number }>`
      SELECT name, state::text AS state, count(*)::int AS n FROM ${JOB_TABLE}
       WHERE name = ANY(${sql.val([...queues])}::text[])
       GROUP BY name, state`.execute(this.db);
    const counts = new Map<string, QueueCounts>();
    for (const queue of queues) counts.set(queue, { waiting: 0, active: 0, failed: 0, completed: 0 });
    for (const row of rows) {
      const entry = counts.get(row.name);
      if (!entry) continue;
      if (row.state === 'created' || row.state === 'retry') entry.waiting += row.n;
      else if (row.state === 'active') entry.active += row.n;
      else if (row.state === 'failed') entry.failed += row.n;
      else if (row.state === 'completed') entry.completed += row.n;
    }
    return counts;
  }

  /** The newest failed jobs of a queue. */
  async failedJobs(queue: string, limit: number): Promise<FailedJobRow[]> {
    const { rows } = await sql<FailedJobRow>`
      SELECT id::text AS id, data, output, completed_on, retry_count FROM ${JOB_TABLE}
       WHERE name = ${queue} AND state = 'failed'
       ORDER BY completed_on DESC NULLS LAST, id
       LIMIT ${limit}`.execute(this.db);
    return rows;
  }

  /** Ids of a queue's failed jobs, oldest first, up to `limit`. */
  async failedJobIds(queue: string, limit: number): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`
      SELECT id::text AS id FROM ${JOB_TABLE}
       WHERE name = ${queue} AND state = 'failed'
       ORDER BY completed_on NULLS FIRST, id
       LIMIT ${limit}`.execute(this.db);
    return rows.map((row) => row.id);
  }

  /** The upload records named, with the file each belongs to (null when it has none). */
  async uploadFiles(uploadIds: readonly number[]): Promise<Map<number, ItemFacts | null>> {
    if (uploadIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('uploads as u')
      .leftJoin('items as i', 'i.id', 'u.item_id')
      .select([
        'u.id as upload_id',
        'i.id',
        'i.name',
        'i.type',
        'i.id_path',
        'i.state',
        'i.owner_id',
        'i.visibility',
        'i.dept_path',
      ])
      .where('u.id', 'in', [...uploadIds])
      .execute();
    return new Map(
      rows.map((row) => [row.upload_id, row.id === null ? null : ({ ...row, id: row.id } as ItemFacts)]),
    );
  }

  async item(id: number): Promise<ItemFacts | undefined> {
    return this.db
      .selectFrom('items')
      .select(['id', 'name', 'type', 'id_path', 'state', 'owner_id', 'visibility', 'dept_path'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /**
   * The finished upload records of a file, or of every file below a folder (in the recycle bin
   * or not), in id order, up to `limit` (one more tells the caller there are too many).
   */
  async finishedUploadsOf(item: ItemFacts, limit: number): Promise<number[]> {
    let query = this.db
      .selectFrom('uploads as u')
      .select('u.id')
      .where('u.status', '=', UploadStatus.done)
      .orderBy('u.id')
      .limit(limit);
    if (item.type === ItemType.folder) {
      query = query
        .innerJoin('items as i', 'i.id', 'u.item_id')
        .where('i.id_path', 'like', `${item.id_path}%`)
        .where('i.type', '<>', ItemType.folder)
        .where('i.state', '=', ItemState.normal);
    } else {
      query = query.where('u.item_id', '=', item.id);
    }
    return (await query.execute()).map((row) => row.id);
  }

  /** Of these records, those whose media job is waiting, due for a retry or running. */
  async withPendingMediaJob(uploadIds: readonly number[]): Promise<Set<number>> {
    if (uploadIds.length === 0) return new Set();
    const keys = uploadIds.map((id) => `${MEDIA_JOB_KEY_PREFIX}${id}`);
    const { rows } = await sql<{ key: string }>`
      SELECT DISTINCT singleton_key AS key FROM ${JOB_TABLE}
       WHERE name = ${MEDIA_QUEUE} AND singleton_key = ANY(${sql.val(keys)}::text[])
         AND state IN ('created', 'retry', 'active')`.execute(this.db);
    return new Set(rows.map((row) => Number(row.key.slice(MEDIA_JOB_KEY_PREFIX.length))));
  }

  /** Records finished, and those of them whose previews are still to be made (the previews' progress). */
  async previewProgress(): Promise<{ done: number; total: number }> {
    const { rows } = await sql<{ total: number; pending: number }>`
      SELECT count(*)::int AS total,
             count(*) FILTER (WHERE preview_status = ${PreviewStatus.pending})::int AS pending
        FROM uploads WHERE status = ${UploadStatus.done}`.execute(this.db);
    const row = rows[0] ?? { total: 0, pending: 0 };
    return { done: row.total - row.pending, total: row.total };
  }
}
