import type { Readable } from 'node:stream';
import type { ComposeArticleStatus, ComposeJobStatus } from '@dam/contract';
import type { CompositeOutputTable } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { ObjectStorage } from '../../storage/storage';
import type { ImageWork } from '../media/image-limits';
import type { MediaUrls } from '../media/urls';
import type { RateLimiter } from '../ratelimit/limiter';
import type { FontRegistry, PageRenderer } from './engine/types';
import type { ArticleFiller } from './fill';
import type { TemplatesRepository } from './templates.repository';

/** Row and input types of the composition jobs' SQL (MakerRepository and the functions it delegates to). */

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

/** An output's row as the table holds it, with what the listing joins in. */
export interface OutputRow extends CompositeOutputTable {
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

/** A job as `insertJob` writes it (its articles go beside it). */
export interface NewJob {
  user_id: number;
  template_id: number;
  template_version: number;
  target_folder_id: number | null;
  options: unknown;
  retry_of: number | null;
  created_at: Date;
}

/** How an article's render ended, as `finishArticle` records it. */
export interface ArticleEnding {
  status: Exclude<ComposeArticleStatus, 'pending' | 'rendering'>;
  missing?: unknown;
  warnings?: unknown;
  error?: string | null;
  page_height?: number | null;
  slice_count?: number | null;
  duration_ms?: number | null;
  finished_at: Date;
}

/** A job's settings besides its template and articles (composite_jobs.options). */
export interface JobOptions {
  tagIds: number[];
  subfolderPerArticle: boolean;
  /**
   * The target folder as asked for (null: the top level). `target_folder_id` becomes null when the
   * folder is purged; this tells "the top level" from "the folder is gone". Absent on no job
   * (migration 024 and this field shipped together).
   */
  targetFolderId?: number | null;
}

/** What an uploaded fixed image looks like to the service: its bytes, and whether they were cut off. */
export interface AssetUpload {
  stream: Readable;
  /** True once the stream was cut at TEMPLATE_ASSET_MAX_BYTES (known after it has ended). */
  truncated(): boolean;
}

/** What a save did, for the operation log (nothing changed: no entry). */
export interface TemplateSaved {
  id: number;
  version: number;
  name: string;
  created: boolean;
  /** What changed of an existing template: a new version, the name, the status. */
  changes: { spec: boolean; name: boolean; status: boolean };
}

export interface TemplatesDependencies {
  repo: TemplatesRepository;
  fonts: FontRegistry;
  renderer: PageRenderer;
  storage: ObjectStorage;
  /** Where a stored object is on disk (local driver), or null: it is then copied to read it. */
  localPath: (key: string) => string | null;
  images: ImageWork;
  mediaUrls: MediaUrls;
  limiter: RateLimiter;
  /** Fills a preview's slots from an article's files (the maker's slot filling); absent: grey boxes. */
  filler?: Pick<ArticleFiller, 'fill' | 'contextOf'>;
  clock: Clock;
  /** COMPOSE_MAX_PAGE_HEIGHT. */
  maxPageHeight: number;
  warn: (details: Record<string, unknown>, message: string) => void;
}
