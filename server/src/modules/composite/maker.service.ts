import {
  COMPOSE_ARTICLES_MAX,
  COMPOSE_FINISHED_STATUSES,
  COMPOSE_UNFINISHED_JOBS_PER_USER,
  type FolderRef,
  isTopLevel,
  type Language,
  type MakerArticle,
  type MakerPlan,
  type MakerStatus,
  type makerArticleRequestSchema,
  type makerDownloadRequestSchema,
  type makerImageRequestSchema,
  type makerPlanRequestSchema,
  type refreshUserSendRequestSchema,
  type SlotOverride,
  safeFileNamePart,
  TemplateStatus,
  type userSendRequestSchema,
} from '@dam/contract';
import type { z } from 'zod';
import { AppError, coded, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, fileScopeFilter } from '../access/access';
import type { DownloadsService } from '../downloads/service';
import { uniquePath } from '../downloads/zip';
import { resolveFolder } from '../items/lookup';
import { canUploadInto } from '../items/policy';
import type { ItemsRepository } from '../items/repository';
import type { MediaUrls } from '../media/urls';
import type { FontRegistry } from './engine/types';
import type { ArticleFiller, SlotChoice } from './fill';
import { articleResult, asArray, specOf, summaryOf } from './maker.presenter';
import type { MakerRepository } from './maker.repository';
import type { JobOptions, JobRow } from './records';

export { specOf } from './maker.presenter';
export type { JobOptions } from './records';

type PlanRequest = z.output<typeof makerPlanRequestSchema>;
type ArticleRequest = z.output<typeof makerArticleRequestSchema>;
type ImageRequest = z.output<typeof makerImageRequestSchema>;
type UserSendRequest = z.output<typeof userSendRequestSchema>;
type RefreshRequest = z.output<typeof refreshUserSendRequestSchema>;
type DownloadRequest = z.output<typeof makerDownloadRequestSchema>;

/** A job started: what the operation log names. */
export interface StartedJob {
  jobId: number;
  templateId: number;
  templateName: string;
  version: number;
  articleCount: number;
  targetFolderId: number | null;
}

/** Jobs of this many articles or fewer are fetched before larger batches (someone waits at the screen). */
const URGENT_ARTICLES = 10;

export interface MakerDependencies {
  repo: MakerRepository;
  filler: ArticleFiller;
  fonts: FontRegistry;
  items: ItemsRepository;
  /** Checks tag sets as uploads do (unknown tags, required dimensions). */
  tags: { checkTagSets(sets: ReadonlyArray<readonly number[]>): Promise<void> };
  downloads: DownloadsService;
  mediaUrls: MediaUrls;
  clock: Clock;
  /** Queues article renders on the composite queue; absent (some tests): nothing renders. */
  enqueue?: (articleIds: readonly number[], urgent: boolean) => Promise<void>;
}

/**
 * The maker of detail pages (issue 16, plan §5): which articles a template can render, one
 * article's slots, and composition jobs (one row per article, rendered on the composite queue by
 * `job.ts`). Composing needs no function code; what is checked is the effect: every source file
 * must be one the caller may download, and the target a folder they may upload into. Jobs are
 * their owner's alone (SECP_05 for anyone else's, as for an unknown one).
 */
export class MakerService {
  constructor(private readonly deps: MakerDependencies) {}

  /** A template version offered for composing (active, not deleted), or SECP_01. */
  private async activeVersion(templateId: number, version?: number) {
    const row = await this.deps.repo.templateVersion(templateId, version);
    if (!row || row.status !== TemplateStatus.active) throw new AppError('SECP_01');
    return { ...row, spec: specOf(row.spec) };
  }

  /** Which articles can be rendered and what each one misses. */
  async plan(auth: AuthContext, request: PlanRequest, lang: Language = 'zh'): Promise<MakerPlan> {
    const template = await this.activeVersion(request.templateId, request.version);
    const artNums = await this.artNumsOf(auth, request);
    const { filler, repo } = this.deps;
    const [candidates, skus, context] = await Promise.all([
      filler.candidatesOf(auth, artNums),
      repo.skusOf(artNums),
      filler.contextOf(template.spec, lang),
    ]);
    const articles: MakerPlan['articles'] = [];
    const unmatched: string[] = [];
    for (const artNum of artNums) {
      const own = candidates.get(artNum.toLowerCase()) ?? [];
      if (own.length === 0) unmatched.push(artNum);
      const sku = skus.get(artNum.toLowerCase());
      const filled = filler.fillFrom(template.spec, artNum, own, new Map(), [], sku, context);
      articles.push({
        artNum,
        skuName: sku?.name ?? null,
        complete: filled.missing.length === 0,
        missing: filled.missing,
        chosen: filled.slots.flatMap((slot) =>
          slot.chosen ? [{ slot: slot.slot, itemId: slot.chosen.itemId }] : [],
        ),
      });
    }
    return { templateId: template.id, version: template.version, articles, unmatched };
  }

  /**
   * The article numbers asked for: those typed, then those of the selected files and of the files
   * in selected folders the caller can see (distinct, in order); more than a job takes is refused.
   */
  private async artNumsOf(auth: AuthContext, request: PlanRequest): Promise<string[]> {
    const seen = new Set<string>();
    const artNums: string[] = [];
    const add = (artNum: string) => {
      const key = artNum.toLowerCase();
      if (seen.has(key)) return;
      seen.add(key);
      artNums.push(artNum);
    };
    for (const artNum of request.artNums ?? []) add(artNum);
    if (request.folderDataIdList?.length) {
      // One more than a job takes is enough to know the selection is too large.
      const found = await this.deps.repo.artNumsUnder(
        request.folderDataIdList,
        { userId: auth.userId, view: fileScopeFilter(auth, 'view') },
        COMPOSE_ARTICLES_MAX + 1,
      );
      for (const artNum of found) add(artNum);
      if (artNums.length > COMPOSE_ARTICLES_MAX) throw invalidField('folderDataIdList', 'tooMany');
    }
    return artNums;
  }

  /** One article's slots as filled, and the files the caller could pick instead. */
  async article(auth: AuthContext, request: ArticleRequest, lang: Language = 'zh'): Promise<MakerArticle> {
    const template = await this.activeVersion(request.templateId, request.version);
    const context = await this.deps.filler.contextOf(template.spec, lang);
    const filled = await this.deps.filler.fill(auth, template.spec, request.artNum, [], context);
    const keys = await this.deps.repo.mediaKeys(filled.candidates.map((c) => c.uploadId));
    const candidates = await Promise.all(
      filled.candidates.map(async (c) => ({
        itemId: c.itemId,
        name: c.name,
        viewCode: c.viewCode,
        tagIds: c.tagIds,
        width: c.width,
        height: c.height,
        thumbUrl: await this.deps.mediaUrls.urlOf(keys.get(c.uploadId)?.thumb ?? null, auth),
        previewUrl: await this.deps.mediaUrls.urlOf(keys.get(c.uploadId)?.preview ?? null, auth),
      })),
    );
    return {
      artNum: request.artNum,
      fields: filled.fields,
      slots: filled.slots.map((slot) => ({
        slot: slot.slot,
        label: slot.label,
        rule: slot.rule,
        required: slot.required,
        chosen: slot.chosen?.itemId ?? null,
      })),
      candidates,
    };
  }

  /**
   * Starts a job. Checked in this order, each before anything is written, so a refusal creates
   * nothing: the template version (SECP_01), its fonts (SECP_03), the target folder (SE_502), the
   * tags, the running-job limit (SECP_04). Then one transaction writes the job and its articles;
   * their renders are queued after it committed.
   */
  async start(auth: AuthContext, request: ImageRequest, retryOf: number | null = null): Promise<StartedJob> {
    const { repo, fonts, tags, clock } = this.deps;
    const template = await this.activeVersion(request.templateId, request.version);
    const missingFonts = fonts.missingFonts(template.spec);
    if (missingFonts.length > 0) throw coded('SECP_03', { detail: missingFonts.join(', ') });
    const targetFolderId = await this.uploadableTarget(auth, request.targetFolderId);
    await tags.checkTagSets([request.tagIdList]);

    const overridesOf = new Map<string, SlotChoice[]>();
    for (const override of request.overrides) {
      const key = override.artNum.toLowerCase();
      overridesOf.set(key, [
        ...(overridesOf.get(key) ?? []),
        { slot: override.slot, itemId: override.itemId },
      ]);
    }
    const options: JobOptions = {
      tagIds: request.tagIdList,
      subfolderPerArticle: request.subfolderPerArticle,
      targetFolderId,
    };
    const created = await repo.transaction(async (trx) => {
      await trx.lockStarts(auth.userId);
      const running = await trx.runningJobCount(auth.userId, clock.now());
      if (running >= COMPOSE_UNFINISHED_JOBS_PER_USER) throw coded('SECP_04', { detail: running });
      return trx.insertJob(
        {
          user_id: auth.userId,
          template_id: template.id,
          template_version: template.version,
          target_folder_id: targetFolderId,
          options,
          retry_of: retryOf,
          created_at: clock.now(),
        },
        request.artNums.map((artNum) => ({
          art_num: artNum,
          overrides: overridesOf.get(artNum.toLowerCase()) ?? [],
        })),
      );
    });
    try {
      await this.deps.enqueue?.(created.articleIds, created.articleIds.length <= URGENT_ARTICLES);
    } catch (error) {
      // Nothing would ever render these articles: they fail, so the job finishes (and does not
      // count against the running-job limit); the caller sees the error.
      await repo.failPending(created.jobId, clock.now(), 'the renders could not be queued; render it again');
      throw error;
    }
    return {
      jobId: created.jobId,
      templateId: template.id,
      templateName: template.name,
      version: template.version,
      articleCount: created.articleIds.length,
      targetFolderId,
    };
  }

  /** The target folder's id (null: the top level) when the caller may upload into it, else SE_502. */
  private async uploadableTarget(auth: AuthContext, ref: FolderRef): Promise<number | null> {
    const folder = isTopLevel(ref) ? null : await resolveFolder(this.deps.items, auth, { id: ref });
    if (!canUploadInto(auth, folder)) throw new AppError('SE_502');
    return folder?.id ?? null;
  }

  /** The caller's own job, or SECP_05 (another user's job is not revealed). */
  private async ownJob(auth: AuthContext, jobId: number): Promise<JobRow> {
    const job = await this.deps.repo.job(jobId);
    if (!job || job.user_id !== auth.userId) throw new AppError('SECP_05');
    return job;
  }

  async status(auth: AuthContext, jobId: number): Promise<MakerStatus> {
    const job = await this.ownJob(auth, jobId);
    const [articles, counts] = await Promise.all([
      this.deps.repo.articles(jobId),
      this.deps.repo.statusCounts([jobId]),
    ]);
    const outputs = await this.deps.repo.outputsOf(articles.map((a) => a.id));
    return {
      job: summaryOf(job, counts.get(jobId) ?? {}),
      articles: await Promise.all(
        articles.map((article) => articleResult(this.deps.mediaUrls, auth, article, outputs)),
      ),
    };
  }

  /** The caller's jobs, newest first. */
  async list(auth: AuthContext, request: UserSendRequest) {
    const { rows, total } = await this.deps.repo.jobsOf(
      auth.userId,
      request.status,
      request.pageSize,
      (request.pageNo - 1) * request.pageSize,
    );
    const counts = await this.deps.repo.statusCounts(rows.map((r) => r.id));
    return {
      list: rows.map((row) => summaryOf(row, counts.get(row.id) ?? {})),
      total,
      pageNo: request.pageNo,
      pageSize: request.pageSize,
    };
  }

  /**
   * Renders again, as a new job of the same version and options, the articles a job left missing,
   * failed or cancelled (or those named): once the missing view is uploaded, this closes the loop.
   * The new job is checked as any start is.
   */
  async refresh(auth: AuthContext, request: RefreshRequest): Promise<StartedJob> {
    const job = await this.ownJob(auth, request.jobId);
    const articles = await this.deps.repo.articles(job.id);
    const named = request.artNums ? new Set(request.artNums.map((a) => a.toLowerCase())) : null;
    // An article still pending or rendering is not started a second time.
    const again = articles.filter((a) =>
      named
        ? named.has(a.art_num.toLowerCase()) && COMPOSE_FINISHED_STATUSES.includes(a.status)
        : a.status === 'missing' || a.status === 'failed' || a.status === 'cancelled',
    );
    if (again.length === 0)
      throw invalidField(named ? 'artNums' : 'jobId', named ? 'invalidValue' : 'wrongState');
    const options = (typeof job.options === 'string' ? JSON.parse(job.options) : job.options) as JobOptions;
    // The folder the job wrote into was purged: rendering again at the top level is not what was asked.
    if (typeof options.targetFolderId === 'number' && job.target_folder_id === null)
      throw invalidField('jobId', 'targetGone');
    const overrides: SlotOverride[] = again.flatMap((a) =>
      asArray<SlotChoice>(a.overrides).map((o) => ({ artNum: a.art_num, slot: o.slot, itemId: o.itemId })),
    );
    return this.start(
      auth,
      {
        templateId: job.template_id,
        version: job.template_version,
        artNums: again.map((a) => a.art_num),
        overrides,
        targetFolderId: job.target_folder_id ?? 'all',
        tagIdList: options.tagIds ?? [],
        subfolderPerArticle: options.subfolderPerArticle === true,
      },
      job.id,
    );
  }

  /** Pending articles are cancelled (the one rendering finishes); again changes nothing. */
  async cancel(auth: AuthContext, jobId: number): Promise<void> {
    await this.ownJob(auth, jobId);
    await this.deps.repo.cancelPending(jobId, this.deps.clock.now());
  }

  /**
   * A batch-download link of a job's live outputs, a folder per article: planned by the downloads
   * module (so download permission is checked again, and redeeming counts and logs the download).
   */
  async downloadLink(auth: AuthContext, request: DownloadRequest): Promise<string> {
    const job = await this.ownJob(auth, request.jobId);
    const articles = await this.deps.repo.articles(job.id);
    const wanted = request.articleIds ? new Set(request.articleIds) : null;
    const chosen = articles.filter((a) => !wanted || wanted.has(a.id));
    const artNumOf = new Map(chosen.map((a) => [a.id, a.art_num]));
    const outputs = (await this.deps.repo.outputsOf(chosen.map((a) => a.id))).filter(
      (o) =>
        o.live &&
        o.upload_id !== null &&
        (request.include === 'all' || (request.include === 'page' ? o.kind === 'page' : o.kind === 'slice')),
    );
    if (outputs.length === 0) throw new AppError('SEDL_02');
    const folderOfItem = new Map(
      outputs.map((o) => [o.item_id, safeFileNamePart(artNumOf.get(o.article_id) ?? '')]),
    );
    const plan = await this.deps.downloads.plan(
      auth,
      {
        uploadIdList: outputs.map((o) => o.upload_id as number),
        folderDataIdList: [],
        downloadFolderDataDTOList: [],
        isShareDownload: 0,
      },
      { count: false },
    );
    const taken = new Set<string>();
    const files = plan.files.map((file) => ({
      ...file,
      path: uniquePath(taken, `${folderOfItem.get(file.itemId) ?? ''}/${file.path}`),
    }));
    return this.deps.downloads.ticketLink(auth, { ...plan, files, forceZip: true });
  }
}
