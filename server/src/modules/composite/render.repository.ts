import type { ComposeArticleStatus } from '@dam/contract';
import { ItemState, ItemType } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import { RENDER_LEASE_MS } from './maker-jobs.repository';
import type { ArticleEnding, ArticleToRender, NewOutput } from './records';

/**
 * SQL of an article's render and of its job's end (MakerRepository in ./maker.repository
 * delegates here): starting and finishing an article, the files it wrote and the slices an
 * earlier render left, cancelling, failing lost renders, finishing a job.
 */

/** The error of an article whose render was lost with its worker. */
const LOST_RENDER = 'the render stopped without finishing (its worker was lost); render it again';

/** Statuses an article is still waiting or being worked on in. */
const UNFINISHED: ComposeArticleStatus[] = ['pending', 'rendering'];

export async function insertOutputs(db: Kysely<Database>, rows: readonly NewOutput[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('composite_outputs')
    .values([...rows])
    .onConflict((oc) =>
      oc.columns(['article_id', 'kind', 'slice_index']).doUpdateSet((eb) => ({
        item_id: eb.ref('excluded.item_id'),
        upload_id: eb.ref('excluded.upload_id'),
        name: eb.ref('excluded.name'),
        width: eb.ref('excluded.width'),
        height: eb.ref('excluded.height'),
        bytes: eb.ref('excluded.bytes'),
      })),
    )
    .execute();
}

/**
 * Slices an earlier render left in a folder under the names a render writes (`prefix` +
 * index, or `… (n)` when a person's file had taken the name) past `sliceCount`: live files that
 * are outputs (never a person's file), other than those just saved. Found by the name prefix
 * on `items_name_key` (lower(name) COLLATE "C"), then the folder; the index is read from the name.
 */
export async function surplusSlices(
  db: Kysely<Database>,
  where: {
    prefix: string;
    folderId: number | null;
    sliceCount: number;
    keepItemIds: readonly number[];
  },
) {
  const prefixLength = where.prefix.length;
  const rows = await db
    .selectFrom('items as i')
    .select(['i.id', 'i.name', 'i.id_path', 'i.owner_id', 'i.visibility', 'i.dept_path'])
    .where('i.state', '=', sql.lit(ItemState.normal))
    // A range of the C-collated lower-cased name (the index's expression, exact byte order),
    // lower-cased by the database as the index was, whatever its locale does to non-ASCII.
    .where(sql<boolean>`(lower(i.name) COLLATE "C") >= (lower(${where.prefix}) COLLATE "C")`)
    .where(sql<boolean>`(lower(i.name) COLLATE "C") < ((lower(${where.prefix}) || chr(1114111)) COLLATE "C")`)
    .where((eb) =>
      where.folderId === null ? eb('i.parent_id', 'is', null) : eb('i.parent_id', '=', where.folderId),
    )
    .where('i.type', '<>', sql.lit(ItemType.folder))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('composite_outputs as o').select(sql.lit(1).as('one')).whereRef('o.item_id', '=', 'i.id'),
      ),
    )
    .execute();
  const keep = new Set(where.keepItemIds);
  return rows.filter((row) => {
    const match = /^(\d+)(?: \(\d+\))?$/.exec(row.name.slice(prefixLength));
    return match !== null && Number(match[1]) > where.sliceCount && !keep.has(Number(row.id));
  });
}

/**
 * Pending articles of a job become cancelled, and articles rendering for longer than the lease
 * (lost with their worker) failed; a job with nothing left rendering is finished. Answers how
 * many articles were cancelled.
 */
export async function cancelPending(db: Kysely<Database>, jobId: number, now: Date): Promise<number> {
  const result = await db
    .updateTable('composite_job_articles')
    .set({ status: 'cancelled', finished_at: now })
    .where('job_id', '=', jobId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  await failStale(db, jobId, now, LOST_RENDER);
  await finishJobIfDone(db, jobId, now);
  return Number(result.numUpdatedRows);
}

/** A job's articles rendering for longer than the lease fail with `error`. */
export async function failStale(
  db: Kysely<Database>,
  jobId: number,
  now: Date,
  error: string,
): Promise<void> {
  await db
    .updateTable('composite_job_articles')
    .set({ status: 'failed', error, finished_at: now })
    .where('job_id', '=', jobId)
    .where('status', '=', 'rendering')
    .where((eb) =>
      eb.or([eb('started_at', 'is', null), eb('started_at', '<', new Date(now.getTime() - RENDER_LEASE_MS))]),
    )
    .execute();
}

/** Every pending article of a job fails with `error` (its renders could not be queued), and the job finishes. */
export async function failPending(
  db: Kysely<Database>,
  jobId: number,
  now: Date,
  error: string,
): Promise<void> {
  await db
    .updateTable('composite_job_articles')
    .set({ status: 'failed', error, finished_at: now })
    .where('job_id', '=', jobId)
    .where('status', '=', 'pending')
    .execute();
  await finishJobIfDone(db, jobId, now);
}

/**
 * Marks an article rendering (again, after a crash: `rendering` is re-entered) and answers it
 * with its job's settings; a cancelled or finished article answers nothing.
 */
export async function startArticle(
  db: Kysely<Database>,
  articleId: number,
  now: Date,
): Promise<ArticleToRender | undefined> {
  const started = await db
    .updateTable('composite_job_articles')
    .set((eb) => ({ status: 'rendering', attempts: eb('attempts', '+', 1), started_at: now }))
    .where('id', '=', articleId)
    .where('status', 'in', UNFINISHED)
    .returning(['id', 'job_id', 'position', 'art_num', 'overrides', 'attempts'])
    .executeTakeFirst();
  if (!started) return undefined;
  const job = await db
    .selectFrom('composite_jobs')
    .select(['user_id', 'template_id', 'template_version', 'target_folder_id', 'options'])
    .where('id', '=', started.job_id)
    .executeTakeFirstOrThrow();
  return { ...started, id: Number(started.id), ...job };
}

/** The job of an article. */
export async function jobOfArticle(db: Kysely<Database>, articleId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('composite_job_articles')
    .select('job_id')
    .where('id', '=', articleId)
    .executeTakeFirst();
  return row?.job_id;
}

/** Records how an article's render ended (only while it is rendering: a late retry changes nothing). */
export async function finishArticle(
  db: Kysely<Database>,
  articleId: number,
  values: ArticleEnding,
): Promise<void> {
  const { missing, warnings, ...rest } = values;
  await db
    .updateTable('composite_job_articles')
    .set({
      ...rest,
      ...(missing === undefined ? {} : { missing: JSON.stringify(missing) }),
      ...(warnings === undefined ? {} : { warnings: JSON.stringify(warnings) }),
    })
    .where('id', '=', articleId)
    .where('status', '=', 'rendering')
    .execute();
}

/** A running job none of whose articles is pending or rendering is finished (cancelled when any was). */
export async function finishJobIfDone(db: Kysely<Database>, jobId: number, now: Date): Promise<void> {
  await sql`
    UPDATE composite_jobs j SET finished_at = ${now},
      status = CASE WHEN EXISTS (SELECT 1 FROM composite_job_articles a WHERE a.job_id = j.id AND a.status = 'cancelled')
        THEN 'cancelled' ELSE 'done' END
    WHERE j.id = ${jobId} AND j.status = 'running'
      AND NOT EXISTS (SELECT 1 FROM composite_job_articles a WHERE a.job_id = j.id AND a.status IN ('pending', 'rendering'))`.execute(
    db,
  );
}
