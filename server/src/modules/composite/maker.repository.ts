import {
  type ComposeArticleStatus,
  type ComposeJobStatus,
  ItemState,
  ItemType,
  UserStatus,
} from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { likeLiteral } from '../../db/sql-helpers';
import { AccessRepository } from '../access/access.repository';
import { type Viewer, visibleTo } from '../access/visibility.repository';
import { type DownloadSource, DownloadsRepository } from '../downloads/repository';
import { ItemsRepository } from '../items/repository';
import { UploadsRepository } from '../uploads/repository';

/** A job's article as the render handler reads it, with its job's settings. */
export interface ArticleToRender {
  id: number;
  job_id: number;
  position: number;
  art_num: string;
  overrides: unknown;
  attempts: number;
  user_id: number;
  template_id: number;
  template_version: number;
  target_folder_id: number | null;
  options: unknown;
}

export interface JobRow {
  id: number;
  user_id: number;
  template_id: number;
  template_name: string;
  template_version: number;
  target_folder_id: number | null;
  target_folder_name: string | null;
  options: unknown;
  status: ComposeJobStatus;
  article_count: number;
  retry_of: number | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface ArticleRow {
  id: number;
  job_id: number;
  position: number;
  art_num: string;
  overrides: unknown;
  status: ComposeArticleStatus;
  missing: unknown;
  warnings: unknown;
  error: string | null;
  page_height: number | null;
  slice_count: number | null;
  duration_ms: number | null;
}

export interface OutputRow {
  article_id: number;
  kind: 'page' | 'slice';
  slice_index: number;
  item_id: number | null;
  upload_id: number | null;
  name: string;
  width: number;
  height: number;
  bytes: number;
  /** The item is live (not in the recycle bin, not deleted). */
  live: boolean;
  thumb_key: string | null;
}

export interface NewOutput {
  article_id: number;
  kind: 'page' | 'slice';
  slice_index: number;
  item_id: number;
  upload_id: number;
  name: string;
  width: number;
  height: number;
  bytes: number;
}

/** `%`, `_` and `\` are LIKE wildcards; a pattern built from a path or a name stays exact. */

/**
 * How long a render may hold an article (the composite queue's `expireInSeconds`): an article
 * `rendering` since longer was lost with its worker (killed, out of memory on the last attempt)
 * and nothing will finish it.
 */
export const RENDER_LEASE_MS = 15 * 60_000;

/** The error of an article whose render was lost with its worker. */
const LOST_RENDER = 'the render stopped without finishing (its worker was lost); render it again';

/** Statuses an article is still waiting or being worked on in. */
const UNFINISHED: ComposeArticleStatus[] = ['pending', 'rendering'];

/** SQL of composition jobs (issue 16): templates read, jobs and their articles, the files renders wrote. */
export class MakerRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

  transaction<T>(work: (repo: MakerRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new MakerRepository(trx)));
  }

  /**
   * One transaction over this repository and the uploads and items ones, so generated files
   * (uploads/generated.ts) and the rows naming them as outputs commit together.
   */
  withUploads<T>(
    work: (uploads: UploadsRepository, items: ItemsRepository, maker: MakerRepository) => Promise<T>,
  ): Promise<T> {
    return this.db
      .transaction()
      .execute((trx) =>
        work(new UploadsRepository(trx as Db), new ItemsRepository(trx), new MakerRepository(trx)),
      );
  }

  // ── Templates (read only; templates.* writes them) ───────────────────────────────────────

  /** A version of a template not deleted (the current one when `version` is absent). */
  templateVersion(templateId: number, version?: number) {
    return this.db
      .selectFrom('composite_templates as t')
      .innerJoin('composite_template_versions as v', 'v.template_id', 't.id')
      .select(['t.id', 't.name', 't.status', 't.current_version', 'v.version', 'v.spec'])
      .where('t.id', '=', templateId)
      .where('t.deleted_at', 'is', null)
      .where((eb) =>
        version === undefined
          ? eb('v.version', '=', eb.ref('t.current_version'))
          : eb('v.version', '=', version),
      )
      .executeTakeFirst();
  }

  /** A version's spec, whatever became of its template since (a job keeps the version it was started with). */
  versionSpec(templateId: number, version: number) {
    return this.db
      .selectFrom('composite_template_versions')
      .select('spec')
      .where('template_id', '=', templateId)
      .where('version', '=', version)
      .executeTakeFirst();
  }

  /** Storage keys of template assets (fixed images). */
  async assetKeys(assetIds: readonly number[]): Promise<Map<number, string>> {
    if (assetIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('composite_assets')
      .select(['id', 'storage_key'])
      .where('id', 'in', [...assetIds])
      .execute();
    return new Map(rows.map((r) => [r.id, r.storage_key]));
  }

  /** The completeness views (names of missing slots, tags that mark a view). */
  completenessViews() {
    return this.db
      .selectFrom('completeness_views')
      .select(['name', 'code', 'tag_id'])
      .orderBy('position')
      .orderBy('id')
      .execute();
  }

  async tagNames(tagIds: readonly number[]): Promise<Map<number, string>> {
    if (tagIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('tags')
      .select(['id', 'name'])
      .where('id', 'in', [...tagIds])
      .execute();
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }

  /** The SKU row of an article number (compared without regard to case). */
  skuOf(artNum: string) {
    return (
      this.db
        .selectFrom('sku')
        .select(['art_num', 'name', 'series', 'category', 'color', 'season', 'gender'])
        // The index's expression exactly (`sku_art_num_key`), so the lookup is an index scan.
        .where(sql<string>`lower(sku.art_num) COLLATE "C"`, '=', artNum.toLowerCase())
        .executeTakeFirst()
    );
  }

  /** The SKU rows of article numbers, keyed lower-cased. */
  async skusOf(artNums: readonly string[]) {
    if (artNums.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('sku')
      .select(['art_num', 'name', 'series', 'category', 'color', 'season', 'gender'])
      .where(
        sql<boolean>`(lower(sku.art_num) COLLATE "C") IN (SELECT unnest(${sql.val(artNums.map((a) => a.toLowerCase()))}::text[]))`,
      )
      .execute();
    return new Map(rows.map((row) => [row.art_num.toLowerCase(), row]));
  }

  // ── Files of articles ────────────────────────────────────────────────────────────────────

  /** The newest visible record of each format of the live files carrying these article numbers. */
  sourcesByArtNums(artNums: string[], viewer: Viewer): Promise<DownloadSource[]> {
    return new DownloadsRepository(this.db).sourcesByArtNums(artNums, viewer);
  }

  /** The newest visible record of each format of selected files and the files inside selected folders. */
  sourcesOf(itemIds: number[], viewer: Viewer): Promise<DownloadSource[]> {
    return new DownloadsRepository(this.db).sourcesOf(itemIds, viewer);
  }

  /**
   * The distinct article numbers of the live files the viewer can see among `itemIds` and inside
   * the folders among them, at most `limit` (in folder and name order of their first file): one
   * index range per folder (id path prefix), the downloads' visibility rule, no records read.
   */
  async artNumsUnder(itemIds: readonly number[], viewer: Viewer, limit: number): Promise<string[]> {
    if (itemIds.length === 0) return [];
    const roots = await this.db
      .selectFrom('items')
      .select(['id', 'type', 'id_path'])
      .where('id', '=', sql<number>`ANY(${sql.val([...itemIds])}::bigint[])`)
      .where('state', '=', sql.lit(ItemState.normal))
      .execute();
    const fileIds = roots.filter((r) => r.type !== ItemType.folder).map((r) => r.id);
    const folderPaths = roots.filter((r) => r.type === ItemType.folder).map((r) => r.id_path);
    if (fileIds.length === 0 && folderPaths.length === 0) return [];
    const rows = await this.db
      .selectFrom((eb) =>
        eb
          .selectFrom('items')
          .select([
            'items.art_num',
            sql<number>`row_number() OVER (ORDER BY items.folder_path, lower(items.name), items.id)`.as('at'),
          ])
          .where('items.state', '=', sql.lit(ItemState.normal))
          .where('items.type', '<>', sql.lit(ItemType.folder))
          .where('items.art_num', 'is not', null)
          .where('items.art_num', '<>', '')
          .where((eb) => visibleTo(eb, viewer))
          .where((eb) =>
            eb.or([
              ...(fileIds.length > 0
                ? [eb('items.id', '=', sql<number>`ANY(${sql.val(fileIds)}::bigint[])`)]
                : []),
              ...folderPaths.map((path) => eb('items.id_path', 'like', `${likeLiteral(path)}%`)),
            ]),
          )
          .as('f'),
      )
      // Spelled as on the first file that carries it (numbers compare without regard to case).
      .select([
        sql<string>`(array_agg(f.art_num ORDER BY f.at))[1]`.as('art_num'),
        sql<number>`min(f.at)`.as('first'),
      ])
      .groupBy(sql`lower(f.art_num)`)
      .orderBy('first')
      .limit(limit)
      .execute();
    return rows.map((r) => r.art_num);
  }

  /** Which of these items a render wrote (kept out of slot filling). */
  async outputItemIds(itemIds: readonly number[]): Promise<Set<number>> {
    if (itemIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('composite_outputs')
      .select('item_id')
      .where('item_id', '=', sql<number>`ANY(${sql.val([...itemIds])}::bigint[])`)
      .execute();
    return new Set(rows.map((r) => Number(r.item_id)));
  }

  async isOutputItem(itemId: number): Promise<boolean> {
    return (await this.outputItemIds([itemId])).has(itemId);
  }

  async tagsOfItems(itemIds: readonly number[]): Promise<Map<number, number[]>> {
    const tags = new Map<number, number[]>();
    if (itemIds.length === 0) return tags;
    const rows = await this.db
      .selectFrom('item_tags')
      .select(['item_id', 'tag_id'])
      .where('item_id', '=', sql<number>`ANY(${sql.val([...itemIds])}::bigint[])`)
      .orderBy('tag_id')
      .execute();
    for (const row of rows) tags.set(row.item_id, [...(tags.get(row.item_id) ?? []), Number(row.tag_id)]);
    return tags;
  }

  /** Thumbnail and preview keys of upload records. */
  async mediaKeys(uploadIds: readonly number[]) {
    if (uploadIds.length === 0) return new Map<number, { thumb: string | null; preview: string | null }>();
    const rows = await this.db
      .selectFrom('uploads')
      .select(['id', 'thumb_key', 'preview_key'])
      .where('id', 'in', [...uploadIds])
      .execute();
    return new Map(rows.map((r) => [r.id, { thumb: r.thumb_key, preview: r.preview_key }]));
  }

  // ── Jobs ────────────────────────────────────────────────────────────────────────────────

  /** Serialises the starts of one user's jobs (call inside `transaction`), so the running-job limit holds. */
  async lockStarts(userId: number): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(727016, ${userId})`.execute(this.db);
  }

  /**
   * The user's running jobs that still have work: an article pending, or rendering within the
   * lease. A job whose unfinished articles were all lost with their worker does not count.
   */
  async runningJobCount(userId: number, now: Date): Promise<number> {
    const staleBefore = new Date(now.getTime() - RENDER_LEASE_MS);
    const row = await this.db
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
  async insertJob(
    job: {
      user_id: number;
      template_id: number;
      template_version: number;
      target_folder_id: number | null;
      options: unknown;
      retry_of: number | null;
      created_at: Date;
    },
    articles: ReadonlyArray<{ art_num: string; overrides: unknown }>,
  ): Promise<{ jobId: number; articleIds: number[] }> {
    const { id } = await this.db
      .insertInto('composite_jobs')
      .values({
        ...job,
        options: JSON.stringify(job.options),
        status: 'running',
        article_count: articles.length,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = await this.db
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

  private jobs() {
    return this.db
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

  async job(jobId: number): Promise<JobRow | undefined> {
    return (await this.jobs().where('j.id', '=', jobId).executeTakeFirst()) as JobRow | undefined;
  }

  /** One user's jobs, newest first, and how many there are. */
  async jobsOf(
    userId: number,
    status: ComposeJobStatus | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: JobRow[]; total: number }> {
    let list = this.jobs().where('j.user_id', '=', userId);
    let count = this.db
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
  async statusCounts(
    jobIds: readonly number[],
  ): Promise<Map<number, Partial<Record<ComposeArticleStatus, number>>>> {
    const counts = new Map<number, Partial<Record<ComposeArticleStatus, number>>>();
    if (jobIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('composite_job_articles')
      .select((eb) => ['job_id', 'status', eb.fn.countAll<number>().as('n')])
      .where('job_id', 'in', [...jobIds])
      .groupBy(['job_id', 'status'])
      .execute();
    for (const row of rows)
      counts.set(row.job_id, { ...counts.get(row.job_id), [row.status]: Number(row.n) });
    return counts;
  }

  async articles(jobId: number): Promise<ArticleRow[]> {
    const rows = await this.db
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
  async outputsOf(articleIds: readonly number[]): Promise<OutputRow[]> {
    if (articleIds.length === 0) return [];
    const rows = await this.db
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

  async insertOutputs(rows: readonly NewOutput[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
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
  async surplusSlices(where: {
    prefix: string;
    folderId: number | null;
    sliceCount: number;
    keepItemIds: readonly number[];
  }) {
    const prefixLength = where.prefix.length;
    const rows = await this.db
      .selectFrom('items as i')
      .select(['i.id', 'i.name', 'i.id_path', 'i.owner_id', 'i.visibility', 'i.dept_path'])
      .where('i.state', '=', sql.lit(ItemState.normal))
      // A range of the C-collated lower-cased name (the index's expression, exact byte order),
      // lower-cased by the database as the index was, whatever its locale does to non-ASCII.
      .where(sql<boolean>`(lower(i.name) COLLATE "C") >= (lower(${where.prefix}) COLLATE "C")`)
      .where(
        sql<boolean>`(lower(i.name) COLLATE "C") < ((lower(${where.prefix}) || chr(1114111)) COLLATE "C")`,
      )
      .where((eb) =>
        where.folderId === null ? eb('i.parent_id', 'is', null) : eb('i.parent_id', '=', where.folderId),
      )
      .where('i.type', '<>', sql.lit(ItemType.folder))
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('composite_outputs as o')
            .select(sql.lit(1).as('one'))
            .whereRef('o.item_id', '=', 'i.id'),
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
  async cancelPending(jobId: number, now: Date): Promise<number> {
    const result = await this.db
      .updateTable('composite_job_articles')
      .set({ status: 'cancelled', finished_at: now })
      .where('job_id', '=', jobId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    await this.failStale(jobId, now, LOST_RENDER);
    await this.finishJobIfDone(jobId, now);
    return Number(result.numUpdatedRows);
  }

  /** A job's articles rendering for longer than the lease fail with `error`. */
  async failStale(jobId: number, now: Date, error: string): Promise<void> {
    await this.db
      .updateTable('composite_job_articles')
      .set({ status: 'failed', error, finished_at: now })
      .where('job_id', '=', jobId)
      .where('status', '=', 'rendering')
      .where((eb) =>
        eb.or([
          eb('started_at', 'is', null),
          eb('started_at', '<', new Date(now.getTime() - RENDER_LEASE_MS)),
        ]),
      )
      .execute();
  }

  /** Every pending article of a job fails with `error` (its renders could not be queued), and the job finishes. */
  async failPending(jobId: number, now: Date, error: string): Promise<void> {
    await this.db
      .updateTable('composite_job_articles')
      .set({ status: 'failed', error, finished_at: now })
      .where('job_id', '=', jobId)
      .where('status', '=', 'pending')
      .execute();
    await this.finishJobIfDone(jobId, now);
  }

  // ── The render handler ──────────────────────────────────────────────────────────────────

  /**
   * Marks an article rendering (again, after a crash: `rendering` is re-entered) and answers it
   * with its job's settings; a cancelled or finished article answers nothing.
   */
  async startArticle(articleId: number, now: Date): Promise<ArticleToRender | undefined> {
    const started = await this.db
      .updateTable('composite_job_articles')
      .set((eb) => ({ status: 'rendering', attempts: eb('attempts', '+', 1), started_at: now }))
      .where('id', '=', articleId)
      .where('status', 'in', UNFINISHED)
      .returning(['id', 'job_id', 'position', 'art_num', 'overrides', 'attempts'])
      .executeTakeFirst();
    if (!started) return undefined;
    const job = await this.db
      .selectFrom('composite_jobs')
      .select(['user_id', 'template_id', 'template_version', 'target_folder_id', 'options'])
      .where('id', '=', started.job_id)
      .executeTakeFirstOrThrow();
    return { ...started, id: Number(started.id), ...job };
  }

  /** The job of an article. */
  async jobOfArticle(articleId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('composite_job_articles')
      .select('job_id')
      .where('id', '=', articleId)
      .executeTakeFirst();
    return row?.job_id;
  }

  /** Records how an article's render ended (only while it is rendering: a late retry changes nothing). */
  async finishArticle(
    articleId: number,
    values: {
      status: Exclude<ComposeArticleStatus, 'pending' | 'rendering'>;
      missing?: unknown;
      warnings?: unknown;
      error?: string | null;
      page_height?: number | null;
      slice_count?: number | null;
      duration_ms?: number | null;
      finished_at: Date;
    },
  ): Promise<void> {
    const { missing, warnings, ...rest } = values;
    await this.db
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
  async finishJobIfDone(jobId: number, now: Date): Promise<void> {
    await sql`
      UPDATE composite_jobs j SET finished_at = ${now},
        status = CASE WHEN EXISTS (SELECT 1 FROM composite_job_articles a WHERE a.job_id = j.id AND a.status = 'cancelled')
          THEN 'cancelled' ELSE 'done' END
      WHERE j.id = ${jobId} AND j.status = 'running'
        AND NOT EXISTS (SELECT 1 FROM composite_job_articles a WHERE a.job_id = j.id AND a.status IN ('pending', 'rendering'))`.execute(
      this.db,
    );
  }

  /** The job user as the render sees them: live or not, their department. */
  userOf(userId: number) {
    return this.db
      .selectFrom('users as u')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id', 'u.dept_id', 'd.path as dept_path', 'u.status'])
      .where('u.id', '=', userId)
      .where('u.status', '=', UserStatus.normal)
      .executeTakeFirst();
  }

  rolesOfUser(userId: number, deptId: number | null) {
    return new AccessRepository(this.db as Db).rolesOfUser(userId, deptId);
  }
}
