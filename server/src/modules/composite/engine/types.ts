import type { ComposeWarning, SlotNaming, TemplateSpec, TextField } from '@dam/contract';

/**
 * What the detail-page renderer needs and gives (issue 16), so the template service (preview) and
 * the maker (jobs) are written against it. The engine (sharp/libvips, pango text) implements it.
 */

/** A font text blocks may name: the family is read from the file, never typed by hand. */
export interface ComposeFont {
  id: string;
  family: string;
  file: string;
  boldFile: string | null;
  /** The file covers CJK ideographs (OS/2 ulUnicodeRange, CJK Unified Ideographs). */
  cjk: boolean;
  available: boolean;
  /** Why it is not available (file missing, not a font). */
  problem: string | null;
}

export interface FontRegistry {
  list(): readonly ComposeFont[];
  /** The font of an id, available or not; undefined: no such id. */
  get(id: string): ComposeFont | undefined;
  /** The ids of a spec's text blocks that name an unknown or unavailable font. */
  missingFonts(spec: TemplateSpec): string[];
}

/** The file chosen for one slot: a local path (copied from S3 when needed) and what it is. */
export interface SlotSource {
  itemId: number;
  name: string;
  /** Local file to decode. */
  file: string;
  /** The stored format (`jpg`, `png`, `psd` …). */
  format: string;
}

export interface RenderInput {
  spec: TemplateSpec;
  /**
   * Values of `{field}` in text blocks; null: the article has no SKU row (fields empty, warned). A
   * preview without an article that wants the placeholders shown passes `{ artNum: '{artNum}', … }`.
   */
  fields: Partial<Record<TextField, string>> | null;
  /**
   * Per slot (`blockId`, or `blockId:cell` in a grid): its file, or null when the article has none
   * (an optional slot is then left out of the page, composite-layout.ts). In a preview a slot absent
   * from the map is "not known" (no article): laid out at DEFAULT_SLOT_ASPECT and drawn as a grey
   * box with its label, never left out; in a job absent and null are the same.
   */
  sources: ReadonlyMap<string, SlotSource | null>;
  /** Local PNG paths of the fixed images (template assets) by asset id. */
  assets: ReadonlyMap<number, string>;
  /** A folder the renderer may write in; removed by the renderer's caller. */
  scratchDir: string;
  /** What to write: the whole page, the slices (the template's output settings, or both for a preview). */
  want: { page: boolean; slices: boolean };
  /** Preview: the page scaled down to at most this width (slots without a source drawn as labelled grey boxes). */
  previewWidth?: number;
  /** The tallest page rendered (COMPOSE_MAX_PAGE_HEIGHT). */
  maxPageHeight: number;
  /** How a preview's grey boxes are labelled: the reader's language, view and tag names. */
  naming?: SlotNaming;
}

export interface RenderedFile {
  file: string;
  width: number;
  height: number;
  bytes: number;
}

export interface RenderedPage {
  width: number;
  height: number;
  page: RenderedFile | null;
  /** Top to bottom; each at most the template's slice height. */
  slices: (RenderedFile & { top: number })[];
  warnings: ComposeWarning[];
}

/** The page is taller than COMPOSE_MAX_PAGE_HEIGHT or has more pixels than PAGE_PIXELS_MAX. */
export class PageTooLargeError extends Error {
  constructor(
    readonly height: number,
    readonly max: number,
  ) {
    super(`page too tall: ${height} > ${max}`);
  }
}

export interface PageRenderer {
  render(input: RenderInput): Promise<RenderedPage>;
}
