import type { ComposeJobStatus } from '@dam/contract';
import { UserStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import type { AccessRepository } from '../access/access.repository';
import type { Viewer } from '../access/visibility.repository';
import type { DownloadSource, DownloadsRepository } from '../downloads/repository';
import type { ItemsRepository } from '../items/repository';
import type { UploadsRepository } from '../uploads/repository';
import { artNumsUnder } from './article-numbers.repository';
import {
  articles,
  insertJob,
  job,
  jobsOf,
  outputsOf,
  runningJobCount,
  statusCounts,
} from './maker-jobs.repository';
import type {
  ArticleEnding,
  ArticleRow,
  ArticleToRender,
  JobRow,
  NewJob,
  NewOutput,
  OutputRow,
} from './records';
import {
  cancelPending,
  failPending,
  failStale,
  finishArticle,
  finishJobIfDone,
  insertOutputs,
  jobOfArticle,
  startArticle,
  surplusSlices,
} from './render.repository';

export { RENDER_LEASE_MS } from './maker-jobs.repository';
export type { ArticleRow, ArticleToRender, JobRow, NewOutput, OutputRow } from './records';

/**
 * The repositories of other modules a composition reads through or writes with, made on a handle
 * given (this repository's, or a transaction's): injected by the wiring (composite/wiring.ts).
 */
export interface MakerPeers {
  uploads(db: Db): UploadsRepository;
  items(db: Db): ItemsRepository;
  downloads(db: Db): DownloadsRepository;
  access(db: Db): AccessRepository;
}

/** SQL of composition jobs (issue 16): templates read, jobs and their articles, the files renders wrote. */
export class MakerRepository {
  constructor(
    private readonly db: Db | Kysely<Database>,
    private readonly peers: MakerPeers,
  ) {}

  transaction<T>(work: (repo: MakerRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new MakerRepository(trx, this.peers)));
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
        work(this.peers.uploads(trx), this.peers.items(trx), new MakerRepository(trx, this.peers)),
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
    return this.peers.downloads(this.db).sourcesByArtNums(artNums, viewer);
  }

  /** The newest visible record of each format of selected files and the files inside selected folders. */
  sourcesOf(itemIds: number[], viewer: Viewer): Promise<DownloadSource[]> {
    return this.peers.downloads(this.db).sourcesOf(itemIds, viewer);
  }

  /** The distinct article numbers of the live files the viewer can see among `itemIds` and inside the folders among them. */
  artNumsUnder(itemIds: readonly number[], viewer: Viewer, limit: number): Promise<string[]> {
    return artNumsUnder(this.db, itemIds, viewer, limit);
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

  /** The user's running jobs that still have work (an article pending, or rendering within the lease). */
  runningJobCount(userId: number, now: Date): Promise<number> {
    return runningJobCount(this.db, userId, now);
  }

  /** Inserts a job and its articles (call inside `transaction`); answers the job and article ids. */
  insertJob(job: NewJob, articles: ReadonlyArray<{ art_num: string; overrides: unknown }>) {
    return insertJob(this.db, job, articles);
  }

  job(jobId: number): Promise<JobRow | undefined> {
    return job(this.db, jobId);
  }

  /** One user's jobs, newest first, and how many there are. */
  jobsOf(userId: number, status: ComposeJobStatus | undefined, limit: number, offset: number) {
    return jobsOf(this.db, userId, status, limit, offset);
  }

  /** Articles per status of each job. */
  statusCounts(jobIds: readonly number[]) {
    return statusCounts(this.db, jobIds);
  }

  articles(jobId: number): Promise<ArticleRow[]> {
    return articles(this.db, jobId);
  }

  /** The files renders of these articles wrote, with whether each is still a live file. */
  outputsOf(articleIds: readonly number[]): Promise<OutputRow[]> {
    return outputsOf(this.db, articleIds);
  }

  insertOutputs(rows: readonly NewOutput[]): Promise<void> {
    return insertOutputs(this.db, rows);
  }

  /** Slices an earlier render left in a folder under the names a render writes, past `sliceCount`. */
  surplusSlices(where: Parameters<typeof surplusSlices>[1]) {
    return surplusSlices(this.db, where);
  }

  /** Cancels a job's pending articles, fails its lost renders, finishes it when nothing is left; answers how many were cancelled. */
  cancelPending(jobId: number, now: Date): Promise<number> {
    return cancelPending(this.db, jobId, now);
  }

  /** A job's articles rendering for longer than the lease fail with `error`. */
  failStale(jobId: number, now: Date, error: string): Promise<void> {
    return failStale(this.db, jobId, now, error);
  }

  /** Every pending article of a job fails with `error` (its renders could not be queued), and the job finishes. */
  failPending(jobId: number, now: Date, error: string): Promise<void> {
    return failPending(this.db, jobId, now, error);
  }

  // ── The render handler ──────────────────────────────────────────────────────────────────

  /** Marks an article rendering and answers it with its job's settings; a cancelled or finished article answers nothing. */
  startArticle(articleId: number, now: Date): Promise<ArticleToRender | undefined> {
    return startArticle(this.db, articleId, now);
  }

  /** The job of an article. */
  jobOfArticle(articleId: number): Promise<number | undefined> {
    return jobOfArticle(this.db, articleId);
  }

  /** Records how an article's render ended (only while it is rendering: a late retry changes nothing). */
  finishArticle(articleId: number, values: ArticleEnding): Promise<void> {
    return finishArticle(this.db, articleId, values);
  }

  /** A running job none of whose articles is pending or rendering is finished (cancelled when any was). */
  finishJobIfDone(jobId: number, now: Date): Promise<void> {
    return finishJobIfDone(this.db, jobId, now);
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
    return this.peers.access(this.db).rolesOfUser(userId, deptId);
  }
}
