import type { Block, FillRule, TemplateSpec } from './composite';
import { ruleKey, ruleSlotName, type SlotNaming } from './composite-slot-names';
import { PAGE_PIXELS_MAX, TEXT_FIELDS, type TextField } from './composite-values';

/**
 * The geometry of a detail page (issue 16): one pure function shared by the server's renderer, the
 * web's HTML preview and the tests, so all three agree on every block's offset.
 *
 * Heights in a template are the **content's** (inside the padding): a block is its content height
 * plus its top and bottom padding. So a padding can never eat a block's content, and the schema only
 * has to check the horizontal padding against the page width.
 */

export interface ImageSize {
  width: number;
  height: number;
}

export interface LayoutInputs {
  /**
   * Per slot key (`blockId`, or `blockId:cell` in a grid) the chosen image's upright size, or null
   * when the article has no file for it. A key that is absent means "not known" (the preview of a
   * template without an article): the slot is laid out with DEFAULT_SLOT_ASPECT and never skipped.
   */
  slots?: Readonly<Record<string, ImageSize | null | undefined>>;
  /** Per template asset id its size (fixed blocks with an automatic height). */
  assets?: Readonly<Record<number, ImageSize | undefined>>;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type LayoutBoxKind = 'image' | 'text' | 'fill' | 'fixed';

/** One drawn thing: a block (with its padding), or one cell of a grid. */
export interface LayoutBox extends Rect {
  blockId: string;
  /** A grid's cell index (0-based, as in the slot key). */
  cell?: number;
  kind: LayoutBoxKind;
  /** Inside the padding: where the image or text goes. */
  content: Rect;
}

export interface PageLayout {
  width: number;
  height: number;
  boxes: LayoutBox[];
  /**
   * Where a slice may be cut without cutting an image: between blocks and between a grid's rows,
   * ascending, strictly inside (0, height).
   */
  boundaries: number[];
  /** Blocks left out (optional slot without a file, grid with `required: 'none'` and no file at all). */
  skipped: string[];
}

/**
 * Height ÷ width of a slot whose image is not known (preview without an article) and whose height
 * follows the image: square, as most e-commerce product shots are (800×800, 1000×1000).
 */
export const DEFAULT_SLOT_ASPECT = 1;

/** A slot's key: `blockId` for an image block, `blockId:cell` (0-based) for a grid's cell. */
export function slotKey(blockId: string, cell?: number): string {
  return cell === undefined ? blockId : `${blockId}:${cell}`;
}

export interface SlotInfo {
  slot: string;
  blockId: string;
  /** A grid's cell index (0-based). */
  cell?: number;
  /**
   * How the slot is named to people: the block's label (with the cell's number, 1-based, in a grid:
   * `细节 2`), else what it holds in the reader's language (`正面 图片`, `Image 2`; slotNaming), with
   * a number when several unlabelled slots hold the same (`Detail image 2`). Never the block's id.
   */
  label: string;
  rule: FillRule;
  /** Without a file here the article is not rendered: an image block's `required`, a grid's `all`. */
  required: boolean;
  /** The grid's rule for the whole block (`any`: at least one cell of it). */
  gridRequired?: 'all' | 'any' | 'none';
}

/**
 * Every image slot of a template, in page order, named for `naming` (English with codes and tag ids
 * when absent).
 */
export function slotKeysOf(
  spec: Pick<TemplateSpec, 'blocks'>,
  naming: SlotNaming = { lang: 'en' },
): SlotInfo[] {
  const slots: SlotInfo[] = [];
  // Unlabelled slots holding the same thing are numbered: how many there are of each, and so far.
  const unnamed = new Map<string, number>();
  for (const block of spec.blocks) {
    if (block.type === 'image' && !block.label)
      unnamed.set(ruleKey(block.rule), (unnamed.get(ruleKey(block.rule)) ?? 0) + 1);
    if (block.type === 'grid' && !block.label)
      for (const rule of block.cells) unnamed.set(ruleKey(rule), (unnamed.get(ruleKey(rule)) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  const nameOf = (rule: FillRule) => {
    const key = ruleKey(rule);
    const index = (seen.get(key) ?? 0) + 1;
    seen.set(key, index);
    const name = ruleSlotName(rule, naming);
    return (unnamed.get(key) ?? 0) > 1 ? `${name} ${index}` : name;
  };
  for (const block of spec.blocks) {
    if (block.type === 'image')
      slots.push({
        slot: block.id,
        blockId: block.id,
        label: block.label || nameOf(block.rule),
        rule: block.rule,
        required: block.required,
      });
    if (block.type === 'grid')
      block.cells.forEach((rule, cell) => {
        slots.push({
          slot: slotKey(block.id, cell),
          blockId: block.id,
          cell,
          label: block.label ? `${block.label} ${cell + 1}` : nameOf(rule),
          rule,
          required: block.required === 'all',
          gridRequired: block.required,
        });
      });
  }
  return slots;
}

/**
 * The slots that keep an article from being rendered, given which slots have a file: required image
 * blocks and `all` grid cells without one, and every cell of an `any` grid that has none at all.
 */
export function unfilledRequiredSlots(
  spec: Pick<TemplateSpec, 'blocks'>,
  hasFile: (slot: string) => boolean,
  naming?: SlotNaming,
): SlotInfo[] {
  const slots = slotKeysOf(spec, naming);
  const anyGridFilled = new Set(
    slots.filter((slot) => slot.gridRequired === 'any' && hasFile(slot.slot)).map((slot) => slot.blockId),
  );
  return slots.filter((slot) => {
    if (hasFile(slot.slot)) return false;
    if (slot.gridRequired === 'any') return !anyGridFilled.has(slot.blockId);
    return slot.required;
  });
}

function autoHeight(contentWidth: number, size: ImageSize | null | undefined): number {
  const aspect = size && size.width > 0 && size.height > 0 ? size.height / size.width : DEFAULT_SLOT_ASPECT;
  return Math.max(1, Math.round(contentWidth * aspect));
}

/** Grid geometry: each column's x offset and width inside the content (the last takes the remainder). */
export function gridColumns(contentWidth: number, columns: number, gap: number): { x: number; w: number }[] {
  const cellWidth = Math.max(1, Math.floor((contentWidth - (columns - 1) * gap) / columns));
  return Array.from({ length: columns }, (_, column) => {
    const x = column * (cellWidth + gap);
    return { x, w: column === columns - 1 ? Math.max(1, contentWidth - x) : cellWidth };
  });
}

/** Lays the blocks out top to bottom at the template's width. */
export function layoutPage(
  spec: Pick<TemplateSpec, 'width' | 'blocks'>,
  inputs: LayoutInputs = {},
): PageLayout {
  const slots = inputs.slots ?? {};
  const assets = inputs.assets ?? {};
  const boxes: LayoutBox[] = [];
  const boundaries: number[] = [];
  const skipped: string[] = [];
  let y = 0;

  const padded = (
    block: Block & { padding: { top: number; right: number; bottom: number; left: number } },
  ) => {
    const { top, right, bottom, left } = block.padding;
    const contentWidth = Math.max(1, spec.width - left - right);
    return { top, bottom, left, contentWidth };
  };

  for (const block of spec.blocks) {
    if (block.type === 'spacer') {
      const box = { x: 0, y, w: spec.width, h: block.height };
      boxes.push({ blockId: block.id, kind: 'fill', ...box, content: { ...box } });
      y += block.height;
    } else if (block.type === 'grid') {
      const cellKeys = block.cells.map((_, cell) => slotKey(block.id, cell));
      if (block.required === 'none' && cellKeys.every((key) => slots[key] === null)) {
        skipped.push(block.id);
        continue;
      }
      const { top, bottom, left, contentWidth } = padded(block);
      const columns = gridColumns(contentWidth, block.columns, block.gap);
      const cellHeight = block.cellHeight ?? (columns[0] as { w: number }).w;
      const rows = Math.ceil(block.cells.length / block.columns);
      const contentTop = y + top;
      block.cells.forEach((_, cell) => {
        const row = Math.floor(cell / block.columns);
        const column = columns[cell % block.columns] as { x: number; w: number };
        const rect = {
          x: left + column.x,
          y: contentTop + row * (cellHeight + block.gap),
          w: column.w,
          h: cellHeight,
        };
        boxes.push({ blockId: block.id, cell, kind: 'image', ...rect, content: { ...rect } });
      });
      // Between rows, so a slice keeps a row's images whole: the cut goes at the top of the next row.
      for (let row = 1; row < rows; row++) boundaries.push(contentTop + row * (cellHeight + block.gap));
      y += top + rows * cellHeight + (rows - 1) * block.gap + bottom;
    } else {
      if (block.type === 'image' && !block.required && slots[block.id] === null) {
        skipped.push(block.id);
        continue;
      }
      const { top, bottom, left, contentWidth } = padded(block);
      const contentHeight =
        block.type === 'text'
          ? block.height
          : (block.height ??
            autoHeight(contentWidth, block.type === 'image' ? slots[block.id] : assets[block.assetId]));
      const kind: LayoutBoxKind = block.type === 'image' ? 'image' : block.type;
      boxes.push({
        blockId: block.id,
        kind,
        x: 0,
        y,
        w: spec.width,
        h: top + contentHeight + bottom,
        content: { x: left, y: y + top, w: contentWidth, h: contentHeight },
      });
      y += top + contentHeight + bottom;
    }
    boundaries.push(y);
  }

  const height = y;
  const inside = [...new Set(boundaries)].filter((b) => b > 0 && b < height).sort((a, b) => a - b);
  return { width: spec.width, height, boxes, boundaries: inside, skipped };
}

/** An image that adds 1 px to its block whatever the width: the flattest picture there can be. */
const FLATTEST: ImageSize = { width: Number.MAX_SAFE_INTEGER, height: 1 };

/**
 * The least height a page of this template has, whatever the article's images: every image whose
 * height follows its picture counted 1 px tall (fixed images at their own size when `assets` has
 * it), and every block an article may leave out (an optional image, a grid with `required: 'none'`)
 * left out. A template above the page limit with this height can render no article at all.
 */
export function leastPageHeight(
  spec: Pick<TemplateSpec, 'width' | 'blocks'>,
  assets: Readonly<Record<number, ImageSize | undefined>> = {},
): number {
  const slots: Record<string, ImageSize | null> = {};
  for (const slot of slotKeysOf(spec)) {
    const optional = slot.gridRequired ? slot.gridRequired === 'none' : !slot.required;
    slots[slot.slot] = optional ? null : FLATTEST;
  }
  const sizes: Record<number, ImageSize> = {};
  for (const block of spec.blocks)
    if (block.type === 'fixed') sizes[block.assetId] = assets[block.assetId] ?? FLATTEST;
  return layoutPage(spec, { slots, assets: sizes }).height;
}

/**
 * The tallest page the renderer draws at this width: the configured height (COMPOSE_MAX_PAGE_HEIGHT)
 * and PAGE_PIXELS_MAX pixels, whichever is less.
 */
export function pageHeightLimit(width: number, maxPageHeight: number): number {
  return Math.min(maxPageHeight, Math.floor(PAGE_PIXELS_MAX / width));
}

export interface SliceRange {
  top: number;
  height: number;
}

/**
 * Cuts a page of `height` into slices of at most `max`: each cut goes at the last boundary in
 * (top + max/2, top + max], so images stay whole where they can, else hard at top + max. The lower
 * bound keeps a boundary near the top from making a sliver of a slice.
 */
export function sliceRanges(height: number, boundaries: readonly number[], max: number): SliceRange[] {
  const sorted = [...boundaries].sort((a, b) => a - b);
  const ranges: SliceRange[] = [];
  let top = 0;
  while (top < height) {
    if (height - top <= max) {
      ranges.push({ top, height: height - top });
      break;
    }
    let cut = top + max;
    for (let i = sorted.length - 1; i >= 0; i--) {
      const boundary = sorted[i] as number;
      if (boundary <= top + max && boundary > top + max / 2) {
        cut = boundary;
        break;
      }
    }
    ranges.push({ top, height: cut - top });
    top = cut;
  }
  return ranges;
}

export interface FilledText {
  text: string;
  /** The fields the text names that are empty for this article (a warning each), in order of first use. */
  emptyFields: TextField[];
}

/**
 * Puts an article's fields into a text block's `{artNum}`, `{name}` …; an empty or absent field
 * (or no SKU row at all: `fields` null) gives ''. Unknown placeholders are left as written (the
 * schema refuses them when the template is saved). No escaping: that is the renderer's (pango markup).
 */
export function fillText(text: string, fields: Partial<Record<TextField, string | null>> | null): FilledText {
  const empty: TextField[] = [];
  const filled = text.replace(/\{([^{}]*)\}/g, (whole, name: string) => {
    if (!isTextField(name)) return whole;
    const value = fields?.[name] ?? '';
    if (value.trim() === '' && !empty.includes(name)) empty.push(name);
    return value;
  });
  return { text: filled, emptyFields: empty };
}

function isTextField(name: string): name is TextField {
  return (TEXT_FIELDS as readonly string[]).includes(name);
}
