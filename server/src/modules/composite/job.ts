import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type ComposeWarning,
  errorMessage,
  nameProblem,
  safeFileNamePart,
  type TemplateSpec,
} from '@dam/contract';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, sessionlessAuth } from '../access/access';
import { canEdit } from '../items/policy';
import { ImageTooLargeError, readImageHeader } from '../media/image-limits';
import type { SourceFiles } from '../media/source-file';
import type { GeneratedFile, GeneratedFiles } from '../uploads/generated';
import { FontUnavailableError } from './engine/render';
import { TextTooLargeError } from './engine/text';
import { type PageRenderer, PageTooLargeError, type RenderedPage, type SlotSource } from './engine/types';
import type { ArticleFiller, SlotChoice } from './fill';
import type { ArticleToRender, MakerRepository } from './maker.repository';
import { type JobOptions, specOf } from './maker.service';

/** Longest error text kept on an article (the column's limit). */
const ERROR_MAX_CHARS = 500;

export interface ComposeJobDependencies {
  repo: MakerRepository;
  filler: ArticleFiller;
  renderer: PageRenderer;
  generated: GeneratedFiles;
  /** Stored objects as local files (the stored file itself, or a checked copy from S3). */
  sources: Pick<SourceFiles, 'fileOf'>;
  clock: Clock;
  /** The tallest page rendered (COMPOSE_MAX_PAGE_HEIGHT). */
  maxPageHeight: number;
  warn: (details: Record<string, unknown>, message: string) => void;
}

/** An article's render that cannot succeed by trying again: it fails at once, naming why. */
class RenderRefused extends Error {}

/** Coded refusals that say "later", not "never". */
const TRANSIENT_CODES = new Set(['SE_429', 'SE_500', 'SE_503']);

/**
 * Failures that another attempt would meet again (a source too large, a page too tall, a missing
 * font, a refusal the services name with a code: the target in the recycle bin, rights lost).
 */
const isPermanent = (error: unknown) =>
  error instanceof RenderRefused ||
  (error instanceof AppError && !TRANSIENT_CODES.has(error.code)) ||
  error instanceof ImageTooLargeError ||
  error instanceof PageTooLargeError ||
  error instanceof FontUnavailableError ||
  error instanceof TextTooLargeError;

/**
 * Output names: `<artNum>_<stem>_00` is the whole page, `_01…` the slices (three digits past 99).
 * The last token is all digits, so `viewCodeOfName` reads no view from it and completeness never
 * counts an output as a shot.
 */
export function outputBaseName(artNum: string, stem: string, index: number, sliceCount: number): string {
  const width = sliceCount > 99 ? 3 : 2;
  return `${safeFileNamePart(artNum)}_${stem}_${String(index).padStart(width, '0')}`;
}

/**
 * The render of one article of a composition job (the composite queue's handler, plan §5): with
 * the job user's rights at this moment, fill the slots, render the page, save its files as DAM
 * files in the target folder, record the outcome, and finish the job after its last article.
 * Re-entrant: a crash mid-render leaves the article `rendering`, which the next attempt takes up;
 * a cancelled or finished article is left alone.
 */
export class ComposeJob {
  constructor(private readonly deps: ComposeJobDependencies) {}

  async run(articleId: number, finalAttempt: boolean): Promise<void> {
    const { repo, clock } = this.deps;
    const article = await repo.startArticle(articleId, clock.now());
    if (!article) {
      // Finished meanwhile (cancelled, or failed as lost): the job may have nothing else left.
      const job = await repo.jobOfArticle(articleId);
      if (job !== undefined) await repo.finishJobIfDone(job, clock.now());
      return;
    }
    const startedAt = Date.now();
    try {
      await this.render(article, startedAt);
    } catch (error) {
      if (!finalAttempt && !isPermanent(error)) throw error;
      const message =
        error instanceof ImageTooLargeError
          ? `image too large: ${error.width}×${error.height}`
          : error instanceof AppError
            ? this.localised(error)
            : String((error as Error).message ?? error);
      await repo.finishArticle(article.id, {
        status: 'failed',
        error: message.slice(0, ERROR_MAX_CHARS),
        duration_ms: Date.now() - startedAt,
        finished_at: clock.now(),
      });
    }
    await repo.finishJobIfDone(article.job_id, clock.now());
  }

  /**
   * A coded refusal as the screens name it: its code and the catalogue's message (Chinese, the
   * catalogue's own language: users have no stored language and the render has no request).
   */
  private localised(error: AppError): string {
    return `${error.code} ${errorMessage(error.code, 'zh', undefined, error.valuesIn('zh'))}`;
  }

  private async render(article: ArticleToRender, startedAt: number): Promise<void> {
    const { repo, filler, clock } = this.deps;
    // A save that committed before a crash (or before finishing the article failed): the outputs
    // are there, so this attempt finishes the article from them instead of saving a second version.
    const earlier = await repo.outputsOf([article.id]);
    if (earlier.length > 0) {
      const page = earlier.find((o) => o.kind === 'page');
      const slices = earlier.filter((o) => o.kind === 'slice');
      await repo.finishArticle(article.id, {
        status: 'done',
        missing: [],
        error: null,
        page_height: page?.height ?? slices.reduce((sum, o) => sum + o.height, 0),
        slice_count: slices.length,
        duration_ms: Date.now() - startedAt,
        finished_at: clock.now(),
      });
      return;
    }
    const options = (
      typeof article.options === 'string' ? JSON.parse(article.options) : article.options
    ) as JobOptions;
    // The target folder was purged since the job started (its id became null): the files must
    // not land at the top level instead.
    if (typeof options.targetFolderId === 'number' && article.target_folder_id === null)
      throw new RenderRefused('the target folder no longer exists');
    const subfolder = options.subfolderPerArticle ? subfolderName(article.art_num) : null;
    const auth = await this.authOf(article.user_id);
    const stored = await repo.versionSpec(article.template_id, article.template_version);
    if (!stored) throw new RenderRefused('template version not found');
    const spec = specOf(stored.spec);
    const choices = asArray<SlotChoice>(article.overrides);
    const filled = await filler.fill(auth, spec, article.art_num, choices);
    if (filled.missing.length > 0) {
      await repo.finishArticle(article.id, {
        status: 'missing',
        missing: filled.missing,
        warnings: filled.warnings,
        duration_ms: Date.now() - startedAt,
        finished_at: clock.now(),
      });
      return;
    }

    const scratchDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-compose-'));
    try {
      const sources = new Map<string, SlotSource | null>();
      const files = new Map<number, string>();
      for (const slot of filled.slots) {
        const chosen = slot.chosen;
        if (!chosen) {
          sources.set(slot.slot, null);
          continue;
        }
        let file = files.get(chosen.uploadId);
        if (!file) {
          file = await this.deps.sources.fileOf(
            chosen.storageKey,
            path.join(scratchDir, `source-${chosen.uploadId}.${chosen.format}`),
            chosen.format === 'psd' ? 'psd' : 'image',
          );
          await this.requireReadable(file, chosen.format, chosen.name);
          files.set(chosen.uploadId, file);
        }
        sources.set(slot.slot, { itemId: chosen.itemId, name: chosen.name, file, format: chosen.format });
      }
      const assets = await this.assetsOf(spec, scratchDir);
      const rendered = await this.deps.renderer.render({
        spec,
        // An article without a SKU row still has its number: `{artNum}` is never left empty.
        fields: filled.fields ?? { artNum: article.art_num },
        sources,
        assets,
        scratchDir,
        want: { page: spec.output.page, slices: spec.output.slices },
        maxPageHeight: this.deps.maxPageHeight,
      });
      await this.save(article, auth, spec, options, subfolder, rendered);
      const warnings: ComposeWarning[] = [...filled.warnings, ...rendered.warnings];
      await repo.finishArticle(article.id, {
        status: 'done',
        missing: [],
        warnings,
        error: null,
        page_height: rendered.height,
        slice_count: rendered.slices.length,
        duration_ms: Date.now() - startedAt,
        finished_at: clock.now(),
      });
    } finally {
      await fsp
        .rm(scratchDir, { recursive: true, force: true })
        .catch((err) =>
          this.deps.warn({ err, dir: scratchDir }, 'could not remove a composition work folder'),
        );
    }
  }

  /**
   * A source whose header the decoders cannot read is damaged: another attempt would meet the same
   * bytes, so the article fails at once, naming the file.
   */
  private async requireReadable(file: string, format: string, name: string): Promise<void> {
    try {
      await readImageHeader(file, format.toLowerCase() === 'psd' ? 'psd' : 'image');
    } catch (error) {
      throw new RenderRefused(`${name}.${format}: damaged image (${(error as Error).message})`);
    }
  }

  /** The job user's rights now (own and department roles), as a share link's owner's are read. */
  private async authOf(userId: number): Promise<AuthContext> {
    const user = await this.deps.repo.userOf(userId);
    if (!user) throw new RenderRefused('the job’s user no longer exists');
    const roles = await this.deps.repo.rolesOfUser(user.id, user.dept_id);
    return sessionlessAuth({ id: user.id, deptId: user.dept_id, deptPath: user.dept_path }, roles);
  }

  /** Local PNGs of the template's fixed images. */
  private async assetsOf(spec: TemplateSpec, scratchDir: string): Promise<Map<number, string>> {
    const ids = spec.blocks.flatMap((block) => (block.type === 'fixed' ? [block.assetId] : []));
    const keys = await this.deps.repo.assetKeys([...new Set(ids)]);
    const assets = new Map<number, string>();
    for (const [id, key] of keys)
      assets.set(id, await this.deps.sources.fileOf(key, path.join(scratchDir, `asset-${id}.png`), 'image'));
    return assets;
  }

  /**
   * Saves the page and slices as files of the target folder (a subfolder per article when asked),
   * with the article number and tags, and records them as this article's outputs in the same
   * transaction. An existing file of the same name is joined as a new version only when it is
   * itself an output (a re-render); a person's own file of that name is never touched.
   */
  private async save(
    article: ArticleToRender,
    auth: AuthContext,
    spec: TemplateSpec,
    options: JobOptions,
    subfolder: string | null,
    rendered: RenderedPage,
  ): Promise<void> {
    const count = rendered.slices.length;
    const outputs: Array<{ kind: 'page' | 'slice'; index: number; file: GeneratedFile }> = [];
    const fileOf = (file: { file: string; width: number; height: number; bytes: number }, index: number) => ({
      file: file.file,
      baseName: outputBaseName(article.art_num, spec.output.stem, index, count),
      format: 'jpg',
      contentType: 'image/jpeg',
      width: file.width,
      height: file.height,
      bytes: file.bytes,
    });
    if (rendered.page) outputs.push({ kind: 'page', index: 0, file: fileOf(rendered.page, 0) });
    rendered.slices.forEach((slice, i) => {
      outputs.push({ kind: 'slice', index: i + 1, file: fileOf(slice, i + 1) });
    });
    const { repo } = this.deps;
    await this.deps.generated.save<MakerRepository>({
      auth,
      folderId: article.target_folder_id,
      subfolder,
      artNum: article.art_num,
      tagIds: options.tagIds ?? [],
      batchNum: `cp${article.job_id}`,
      files: outputs.map((o) => o.file),
      transaction: (work) => repo.withUploads(work),
      mayJoin: (maker, existing) => maker.isOutputItem(existing.id),
      saved: async (maker, saved, items) => {
        await maker.insertOutputs(
          saved.map((file, i) => {
            const output = outputs[i] as (typeof outputs)[number];
            return {
              article_id: article.id,
              kind: output.kind,
              slice_index: output.index,
              item_id: file.itemId,
              upload_id: file.uploadId,
              name: `${file.name}.${file.file.format}`,
              width: file.file.width,
              height: file.file.height,
              bytes: file.file.bytes,
            };
          }),
        );
        // A page that got shorter: the slices an earlier render wrote in this folder under the
        // names this one uses (same article, same stem) past the new count go to the recycle bin
        // (restorable), so the folder holds one consistent set. Without slices, none are touched.
        if (!spec.output.slices || count === 0) return;
        const surplus = await maker.surplusSlices({
          prefix: `${safeFileNamePart(article.art_num)}_${spec.output.stem}_`,
          folderId: saved[0]?.folderId ?? null,
          sliceCount: count,
          keepItemIds: saved.map((file) => file.itemId),
        });
        for (const item of surplus)
          if (canEdit(auth, item))
            await items.removeSubtree(item.id, item.id_path, auth.userId, this.deps.clock.now());
      },
    });
  }
}

/**
 * The subfolder of an article (`subfolderPerArticle`): its number, by the rules of a folder's name
 * (issue 9); a number that cannot be one (`..`, `x.`, `CON`, a `/`) fails the article, naming why.
 */
function subfolderName(artNum: string): string {
  const problem = nameProblem(artNum);
  if (problem)
    throw new RenderRefused(`the article number “${artNum}” cannot be a folder name (${problem.kind})`);
  return artNum.trim();
}

const asArray = <T>(value: unknown): T[] =>
  (Array.isArray(value) ? value : typeof value === 'string' ? JSON.parse(value) : []) as T[];
