import {
  COMPOSE_ARTICLE_STATUSES,
  COMPOSE_FINISHED_STATUSES,
  type ComposeArticleResult,
  type ComposeArticleStatus,
  type ComposeJobSummary,
  type ComposeWarning,
  type MissingSlot,
  type TemplateSpec,
  templateSpecSchema,
} from '@dam/contract';
import type { AuthContext } from '../access/access';
import type { MediaUrls } from '../media/urls';
import type { ArticleRow, JobRow, OutputRow } from './records';

/** How the maker's rows read back (MakerService in ./maker.service): stored specs, job summaries, article results. */

/** A template version's spec as saved (parsed again: defaults of later contract versions apply). */
export function specOf(stored: unknown): TemplateSpec {
  return templateSpecSchema.parse(typeof stored === 'string' ? JSON.parse(stored) : stored);
}

export const asArray = <T>(value: unknown): T[] =>
  (Array.isArray(value) ? value : typeof value === 'string' ? JSON.parse(value) : []) as T[];

/** An article's result as the screens show it: its slots missing, warnings and the files its render wrote. */
export async function articleResult(
  mediaUrls: MediaUrls,
  auth: AuthContext,
  article: ArticleRow,
  outputs: readonly OutputRow[],
): Promise<ComposeArticleResult> {
  const own = outputs.filter((o) => o.article_id === article.id);
  return {
    id: article.id,
    position: article.position,
    artNum: article.art_num,
    status: article.status,
    missing: asArray<MissingSlot>(article.missing),
    warnings: asArray<ComposeWarning>(article.warnings),
    error: article.error,
    pageHeight: article.page_height,
    sliceCount: article.slice_count,
    durationMs: article.duration_ms,
    outputs: await Promise.all(
      own.map(async (o) => ({
        kind: o.kind,
        index: o.slice_index,
        itemId: o.live ? o.item_id : null,
        name: o.name,
        width: o.width,
        height: o.height,
        bytes: o.bytes,
        thumbUrl: o.live ? await mediaUrls.urlOf(o.thumb_key, auth) : null,
      })),
    ),
  };
}

/** A job's row and article counts as the screens show it. */
export function summaryOf(
  job: JobRow,
  counts: Partial<Record<ComposeArticleStatus, number>>,
): ComposeJobSummary {
  const full = Object.fromEntries(COMPOSE_ARTICLE_STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<
    ComposeArticleStatus,
    number
  >;
  const total = Object.values(full).reduce((sum, n) => sum + n, 0);
  const finished = COMPOSE_FINISHED_STATUSES.reduce((sum, s) => sum + full[s], 0);
  return {
    id: job.id,
    templateId: job.template_id,
    templateName: job.template_name,
    version: job.template_version,
    status: job.status,
    articleCount: job.article_count,
    counts: full,
    percent: total === 0 ? 0 : Math.floor((finished * 100) / total),
    targetFolderId: job.target_folder_id,
    targetFolderName: job.target_folder_name,
    retryOf: job.retry_of,
    createdAt: job.created_at.toISOString(),
    finishedAt: job.finished_at?.toISOString() ?? null,
  };
}
