/**
 * Limits of detail-page composition (issue 16) without zod, for the web's editor and the server's
 * renderer alike (composite.ts re-exports them with the schemas). See docs/decisions.md,
 * "Detail-page composition (issue 16)".
 */

/** A page's width: the e-commerce platforms' detail pages are 750–790 px; 2000 px covers print-like uses. */
export const TEMPLATE_WIDTH_MIN = 320;
export const TEMPLATE_WIDTH_MAX = 2000;
export const TEMPLATE_BLOCKS_MAX = 50;
export const TEMPLATE_NAME_MAX_CHARS = 50;
/** Cells of one image grid at most. */
export const GRID_CELLS_MAX = 12;
/** A slice may not be shorter than this (the issue) nor taller than the second figure. */
export const SLICE_HEIGHT_MIN = 200;
export const SLICE_HEIGHT_MAX = 10_000;
export const SLICE_HEIGHT_DEFAULT = 1500;
export const JPEG_QUALITY_MIN = 50;
export const JPEG_QUALITY_MAX = 100;
export const JPEG_QUALITY_DEFAULT = 85;
/** The tallest page rendered (JPEG allows 65,535; the platforms cut far below) and its pixels at most. */
export const PAGE_HEIGHT_MAX = 30_000;
export const PAGE_PIXELS_MAX = 40_000_000;
/** Article numbers of one composition job at most (the issue asks for 200 in one go). */
export const COMPOSE_ARTICLES_MAX = 500;
/** Files of a selection whose article numbers are composed, at most (as downloads). */
export const COMPOSE_SELECTION_MAX = 3000;
/** Unfinished composition jobs of one person at most (SECP_04). */
export const COMPOSE_UNFINISHED_JOBS_PER_USER = 3;
/** A fixed image (brand banner) as uploaded, at most. */
export const TEMPLATE_ASSET_MAX_BYTES = 20 * 1024 * 1024;
/** Widest exact preview the server renders (the editor's column; the real page is rendered at full width). */
export const PREVIEW_WIDTH_MAX = 800;
/** The text of a text block at most, and the words of its short labels. */
export const TEXT_BLOCK_MAX_CHARS = 500;
export const BLOCK_LABEL_MAX_CHARS = 20;
export const OUTPUT_STEM_MAX_CHARS = 30;
export const OUTPUT_STEM_DEFAULT = '详情页';

/** What a text block may put in `{…}`: the article number and the columns of its SKU row. */
export const TEXT_FIELDS = ['artNum', 'name', 'series', 'category', 'color', 'season', 'gender'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export const BLOCK_TYPES = ['image', 'grid', 'text', 'spacer', 'fixed'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export const TemplateStatus = { archived: 0, active: 1 } as const;
export type TemplateStatus = (typeof TemplateStatus)[keyof typeof TemplateStatus];

/** Where one article of a composition job stands. */
export const COMPOSE_ARTICLE_STATUSES = [
  'pending',
  'rendering',
  'done',
  'missing',
  'failed',
  'cancelled',
] as const;
export type ComposeArticleStatus = (typeof COMPOSE_ARTICLE_STATUSES)[number];
/** Statuses an article no longer leaves. */
export const COMPOSE_FINISHED_STATUSES: readonly ComposeArticleStatus[] = [
  'done',
  'missing',
  'failed',
  'cancelled',
];

export const COMPOSE_JOB_STATUSES = ['running', 'done', 'cancelled'] as const;
export type ComposeJobStatus = (typeof COMPOSE_JOB_STATUSES)[number];

/** Why an article's page differs from its template's ideal (shown beside the result). */
export const COMPOSE_WARNING_CODES = ['upscaled', 'textShrunk', 'emptyField', 'overrideUnavailable'] as const;
export type ComposeWarningCode = (typeof COMPOSE_WARNING_CODES)[number];

/** What a composition zip holds: every output, only the slices, or only the whole pages. */
export const COMPOSE_DOWNLOAD_KINDS = ['all', 'slices', 'page'] as const;
export type ComposeDownloadKind = (typeof COMPOSE_DOWNLOAD_KINDS)[number];
