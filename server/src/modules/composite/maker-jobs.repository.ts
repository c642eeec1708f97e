import type { ComposeArticleStatus, ComposeJobStatus } from '@dam/contract';
import { ItemState } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import type { ArticleRow, JobRow, NewJob, OutputRow } from './records';

/**
 * SQL of composition jobs as people start and read them (MakerRepository in ./maker.repository
 * delegates here): the running-job limit, a job and its articles written, jobs, articles and the
 * files their renders wrote read back.
 */

/**
 * How long a render may hold an article (the composite queue's `expireInSeconds`): an article
 * `rendering` since longer was lost with its worker (killed, out of memory on the last attempt)
 * and nothing will finish it.
 */
export const RENDER_LEASE_MS = 15 * 60_000;

/**
 * The user's running jobs that still have work: an article pending, or rendering within the
 * lease. A job whose unfinished articles were all lost with their worker does not count.
 */
export async function runningJobCount(db: Kysely<Database>, userId: number, now: Date): Promise<number> {
  const staleBefore = new Date(now.getTime() - RENDER_LEASE_MS);
  const row = await db
    .selectFrom('composite_jobs as j')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('j.user_id', '=', userId)
    .where('j.status', '=', 'running')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('composite_job_articles as a')
          .select(sql.lit(1).as('one'))
          .whereRef('a.job_id', '=', 'j.id')
          .where((a) =>
            a.or([
              a('a.status', '=', 'pending'),
              a.and([
                a('a.status', '=', 'rendering'),
                a.or([a('a.started_at', 'is', null), a('a.started_at', '>=', staleBefore)]),
              ]),
            ]),
          ),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts a job and its articles (call inside `transaction`); answers the job and article ids. */
export async function insertJob(
  db: Kysely<Database>,
  job: NewJob,
  articles: ReadonlyArray<{ art_num: string; overrides: unknown }>,
): Promise<{ jobId: number; articleIds: number[] }> {
  const { id } = await db
    .insertInto('composite_jobs')
    .values({
      ...job,
      options: JSON.stringify(job.options),
      status: 'running',
      article_count: articles.length,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rows = await db
    .insertInto('composite_job_articles')
    .values(
      articles.map((article, position) => ({
        job_id: id,
        position,
        art_num: article.art_num,
        overrides: JSON.stringify(article.overrides),
      })),
    )
    .returning(['id', 'position'])
    .execute();
  rows.sort((a, b) => a.position - b.position);
  return { jobId: id, articleIds: rows.map((r) => Number(r.id)) };
}

function selectJobs(db: Kysely<Database>) {
  return db
    .selectFrom('composite_jobs as j')
    .innerJoin('composite_templates as t', 't.id', 'j.template_id')
    .leftJoin('items as f', 'f.id', 'j.target_folder_id')
    .select([
      'j.id',
      'j.user_id',
      'j.template_id',
      't.name as template_name',
      'j.template_version',
      'j.target_folder_id',
      'f.name as target_folder_name',
      'j.options',
      'j.status',
      'j.article_count',
      'j.retry_of',
      'j.created_at',
      'j.finished_at',
    ]);
}

export async function job(db: Kysely<Database>, jobId: number): Promise<JobRow | undefined> {
  return (await selectJobs(db).where('j.id', '=', jobId).executeTakeFirst()) as JobRow | undefined;
}

/** One user's jobs, newest first, and how many there are. */
export async function jobsOf(
  db: Kysely<Database>,
  userId: number,
  status: ComposeJobStatus | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: JobRow[]; total: number }> {
  let list = selectJobs(db).where('j.user_id', '=', userId);
  let count = db
    .selectFrom('composite_jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId);
  if (status) {
    list = list.where('j.status', '=', status);
    count = count.where('status', '=', status);
  }
  const rows = (await list
    .orderBy('j.created_at', 'desc')
    .orderBy('j.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()) as JobRow[];
  const total = Number((await count.executeTakeFirstOrThrow()).n);
  return { rows, total };
}

/** Articles per status of each job. */
export async function statusCounts(
  db: Kysely<Database>,
  jobIds: readonly number[],
): Promise<Map<number, Partial<Record<ComposeArticleStatus, number>>>> {
  const counts = new Map<number, Partial<Record<ComposeArticleStatus, number>>>();
  if (jobIds.length === 0) return counts;
  const rows = await db
    .selectFrom('composite_job_articles')
    .select((eb) => ['job_id', 'status', eb.fn.countAll<number>().as('n')])
    .where('job_id', 'in', [...jobIds])
    .groupBy(['job_id', 'status'])
    .execute();
  for (const row of rows) counts.set(row.job_id, { ...counts.get(row.job_id), [row.status]: Number(row.n) });
  return counts;
}

export async function articles(db: Kysely<Database>, jobId: number): Promise<ArticleRow[]> {
  const rows = await db
    .selectFrom('composite_job_articles')
    .select([
      'id',
      'job_id',
      'position',
      'art_num',
      'overrides',
      'status',
      'missing',
      'warnings',
      'error',
      'page_height',
      'slice_count',
      'duration_ms',
    ])
    .where('job_id', '=', jobId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The files renders of these articles wrote, with whether each is still a live file. */
export async function outputsOf(db: Kysely<Database>, articleIds: readonly number[]): Promise<OutputRow[]> {
  if (articleIds.length === 0) return [];
  const rows = await db
    .selectFrom('composite_outputs as o')
    .leftJoin('items as i', 'i.id', 'o.item_id')
    .leftJoin('uploads as u', 'u.id', 'o.upload_id')
    .select([
      'o.article_id',
      'o.kind',
      'o.slice_index',
      'o.item_id',
      'o.upload_id',
      'o.name',
      'o.width',
      'o.height',
      'o.bytes',
      'i.state',
      'u.thumb_key',
    ])
    .where('o.article_id', '=', sql<number>`ANY(${sql.val([...articleIds])}::bigint[])`)
    .orderBy('o.article_id')
    .orderBy('o.kind')
    .orderBy('o.slice_index')
    .execute();
  return rows.map(({ state, ...r }) => ({
    ...r,
    article_id: Number(r.article_id),
    item_id: r.item_id === null ? null : Number(r.item_id),
    upload_id: r.upload_id === null ? null : Number(r.upload_id),
    live: state === ItemState.normal,
  }));
}
