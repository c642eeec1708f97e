import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  type Block,
  type ComposeWarning,
  fillText,
  fixedSlotName,
  type ImageSize,
  type LayoutBox,
  layoutPage,
  PAGE_PIXELS_MAX,
  type Rect,
  type SlotInfo,
  sliceRanges,
  slotKey,
  slotKeysOf,
} from '@dam/contract';
import sharp, { type OverlayOptions } from 'sharp';
import { decodeImage } from '../../media/decode';
import { encodeCost, type ImageHeader, type ImageWork, readImageHeader } from '../../media/image-limits';
import { capFilledText, renderText, type TextStyle, TextTooLargeError } from './text';
import {
  type ComposeFont,
  type FontRegistry,
  type PageRenderer,
  PageTooLargeError,
  type RenderedPage,
  type RenderInput,
} from './types';

const MB = 1024 * 1024;
/** The exact preview is looked at, not kept: a lighter JPEG keeps the editor's round trip short. */
const PREVIEW_QUALITY = 80;
/** A slot without a file in a preview: a light grey box with its label in a darker grey. */
const PLACEHOLDER_FILL = '#e6e6e6';
const PLACEHOLDER_INK = '#8c8c8c';

/** A text block names a font this server does not have (the services refuse such templates first: SECP_03). */
export class FontUnavailableError extends Error {
  override name = 'FontUnavailableError';
  constructor(readonly fontId: string) {
    super(`font ${fontId} is not available on this server`);
  }
}

type ImageFit = { fit: 'cover' | 'contain'; position: 'centre' | 'top' | 'bottom' | 'left' | 'right' };

const decodeFormat = (format: string): 'psd' | 'image' => (format.toLowerCase() === 'psd' ? 'psd' : 'image');

/**
 * Renders detail pages with sharp/libvips (docs/plans/issue-16-composition.md §3). Every image is
 * decoded within the process's image budget (ImageWork, shared with media jobs and download
 * conversions), one at a time, into an overlay file at its final size; then the page is composed
 * from those files under one more share of the budget. Nothing waits for budget while holding
 * some, so two renders cannot deadlock on it. The whole page is a libvips file on disk (4 bytes a
 * pixel), of which the JPEG encoders read only the rows they need.
 */
export class SharpPageRenderer implements PageRenderer {
  constructor(
    private readonly images: ImageWork,
    private readonly fonts: FontRegistry,
  ) {}

  async render(input: RenderInput): Promise<RenderedPage> {
    const { spec } = input;
    const preview = input.previewWidth !== undefined;
    const work = await fsp.mkdtemp(path.join(input.scratchDir, 'work-'));
    try {
      const headers = new Map<string, ImageHeader>();
      const headerOf = async (file: string, format: string) => {
        let header = headers.get(file);
        if (!header) {
          header = await readImageHeader(file, decodeFormat(format));
          // Beyond the pixel limit or the memory budget: refused before the page is laid out.
          this.images.check(header);
          headers.set(file, header);
        }
        return header;
      };

      // Sizes for the layout. In a preview a slot absent from `sources` is not known (no article):
      // laid out at the default aspect and drawn as a labelled box, never left out.
      const slots = slotKeysOf(spec, input.naming);
      const slotSizes: Record<string, ImageSize | null> = {};
      for (const slot of slots) {
        if (preview && !input.sources.has(slot.slot)) continue;
        const source = input.sources.get(slot.slot);
        if (!source) {
          slotSizes[slot.slot] = null;
          continue;
        }
        const header = await headerOf(source.file, source.format);
        slotSizes[slot.slot] = { width: header.uprightWidth, height: header.uprightHeight };
      }
      const assetSizes: Record<number, ImageSize> = {};
      for (const block of spec.blocks) {
        if (block.type !== 'fixed') continue;
        const file = input.assets.get(block.assetId);
        if (!file) {
          if (preview) continue;
          throw new Error(`template asset ${block.assetId} is missing`);
        }
        const header = await headerOf(file, 'png');
        assetSizes[block.assetId] = { width: header.uprightWidth, height: header.uprightHeight };
      }

      const layout = layoutPage(spec, { slots: slotSizes, assets: assetSizes });
      const { width, height } = layout;
      if (height > input.maxPageHeight) throw new PageTooLargeError(height, input.maxPageHeight);
      if (width * height > PAGE_PIXELS_MAX)
        throw new PageTooLargeError(height, Math.floor(PAGE_PIXELS_MAX / width));
      if (height === 0) throw new Error('the page is empty: every block of it was left out');

      const warnings: ComposeWarning[] = [];
      const overlays = await this.overlays(input, layout.boxes, slots, headerOf, work, warnings);

      const pageFile = path.join(work, 'page.v');
      const result: RenderedPage = { width, height, page: null, slices: [], warnings };
      await this.images.run(16 * MB + width * 4 * 2048 * 3, async () => {
        await sharp({ create: { width, height, channels: 3, background: spec.background } })
          .composite(overlays)
          .toFile(pageFile);
        if (input.previewWidth !== undefined) {
          const target = path.join(input.scratchDir, 'preview.jpg');
          const info = await sharp(pageFile)
            .resize({ width: Math.min(input.previewWidth, width) })
            .jpeg({ quality: PREVIEW_QUALITY, chromaSubsampling: '4:2:0', optimiseCoding: false })
            .toFile(target);
          result.page = { file: target, width: info.width, height: info.height, bytes: info.size };
          return;
        }
        const quality = spec.output.quality;
        if (input.want.page) {
          // Unoptimised Huffman tables: optimising them holds every coefficient of the page (121 → 212 MB
          // for a 790×19260 page, measured) for 10 % fewer bytes.
          const target = path.join(input.scratchDir, 'page.jpg');
          const info = await sharp(pageFile)
            .jpeg({ quality, chromaSubsampling: '4:2:0', optimiseCoding: false })
            .toFile(target);
          result.page = { file: target, width: info.width, height: info.height, bytes: info.size };
        }
        if (input.want.slices) {
          const ranges = sliceRanges(height, layout.boundaries, spec.output.sliceMaxHeight);
          for (const [index, range] of ranges.entries()) {
            const target = path.join(input.scratchDir, `slice-${String(index + 1).padStart(2, '0')}.jpg`);
            // A slice is 1–2 MP: optimised coding is cheap there.
            const info = await sharp(pageFile)
              .extract({ left: 0, top: range.top, width, height: range.height })
              .jpeg({ quality, chromaSubsampling: '4:2:0', optimiseCoding: true })
              .toFile(target);
            result.slices.push({
              file: target,
              top: range.top,
              width: info.width,
              height: info.height,
              bytes: info.size,
            });
          }
        }
      });
      return result;
    } finally {
      // The outputs stay in scratchDir for the caller; the page file and overlays (up to 160 MB) go now.
      await fsp.rm(work, { recursive: true, force: true });
    }
  }

  /** The page's overlays, top to bottom: fills, images at their box's size, text. */
  private async overlays(
    input: RenderInput,
    boxes: readonly LayoutBox[],
    slots: readonly SlotInfo[],
    headerOf: (file: string, format: string) => Promise<ImageHeader>,
    work: string,
    warnings: ComposeWarning[],
  ): Promise<OverlayOptions[]> {
    const { spec } = input;
    const preview = input.previewWidth !== undefined;
    const blocks = new Map<string, Block>(spec.blocks.map((block) => [block.id, block]));
    const labels = new Map(slots.map((slot) => [slot.slot, slot.label]));
    const made = new Map<string, string>();
    const overlays: OverlayOptions[] = [];
    let count = 0;
    const nextFile = (kind: string) => path.join(work, `${kind}-${++count}.v`);
    const fill = (rect: Rect, colour: string | null) => {
      if (!colour || colour.toLowerCase() === spec.background.toLowerCase()) return;
      overlays.push({
        input: { create: { width: rect.w, height: rect.h, channels: 3, background: colour } },
        left: rect.x,
        top: rect.y,
      });
    };
    const placeholder = async (rect: Rect, label: string) => {
      fill(rect, PLACEHOLDER_FILL);
      const font = this.placeholderFont();
      if (!font || !label.trim()) return;
      const size = Math.max(12, Math.min(36, Math.round(Math.min(rect.w, rect.h) / 8)));
      const inner = { x: rect.x + 4, y: rect.y + 4, w: Math.max(1, rect.w - 8), h: Math.max(1, rect.h - 8) };
      const style: TextStyle = {
        font,
        size,
        colour: PLACEHOLDER_INK,
        bold: false,
        align: 'centre',
        verticalAlign: 'middle',
        lineSpacing: null,
      };
      const placed = await renderText(label, style, inner, nextFile('label'), this.images);
      overlays.push({ input: placed.file, left: placed.left, top: placed.top });
    };
    const image = async (file: string, format: string, rect: Rect, fit: ImageFit, background: string) => {
      const key = JSON.stringify([file, rect.w, rect.h, fit.fit, fit.position, background]);
      let overlay = made.get(key);
      if (!overlay) {
        overlay = nextFile('overlay');
        await this.imageOverlay(file, format, await headerOf(file, format), rect, fit, background, overlay);
        made.set(key, overlay);
      }
      overlays.push({ input: overlay, left: rect.x, top: rect.y });
    };

    for (const box of boxes) {
      const block = blocks.get(box.blockId);
      if (!block) continue;
      if (block.type === 'spacer') {
        fill(box, block.colour);
      } else if (block.type === 'text') {
        fill(box, block.background);
        const filled = fillText(block.text, input.fields);
        for (const field of filled.emptyFields)
          warnings.push({ code: 'emptyField', slot: block.id, detail: field });
        // Placeholders can make a short text long (83 × {name}): what is drawn is capped.
        const capped = capFilledText(filled.text);
        if (!capped.text.trim()) continue;
        const font = this.fonts.get(block.fontId);
        if (!font?.available) throw new FontUnavailableError(block.fontId);
        const placed = await renderText(
          capped.text,
          { ...block, font },
          box.content,
          nextFile('text'),
          this.images,
        ).catch((error: unknown) => {
          if (error instanceof TextTooLargeError) error.blockId = block.id;
          throw error;
        });
        if (capped.cut) warnings.push({ code: 'textShrunk', slot: block.id, detail: 'truncated' });
        if (placed.shrunk) warnings.push({ code: 'textShrunk', slot: block.id });
        overlays.push({ input: placed.file, left: placed.left, top: placed.top });
      } else if (block.type === 'fixed') {
        const file = input.assets.get(block.assetId);
        if (file) await image(file, 'png', box.content, block, block.background ?? spec.background);
        else await placeholder(box.content, block.label || fixedSlotName(input.naming?.lang ?? 'zh'));
      } else {
        const slot = slotKey(block.id, box.cell);
        const source = input.sources.get(slot);
        if (source) {
          const header = await headerOf(source.file, source.format);
          const { w, h } = box.content;
          const scale =
            block.fit === 'cover'
              ? Math.max(w / header.uprightWidth, h / header.uprightHeight)
              : Math.min(w / header.uprightWidth, h / header.uprightHeight);
          if (scale > 1) warnings.push({ code: 'upscaled', slot, detail: source.name });
          await image(source.file, source.format, box.content, block, block.background ?? spec.background);
        } else if (preview) {
          await placeholder(box.content, labels.get(slot) ?? slot);
        }
        // In a job an empty slot is an optional grid cell (`any`/`none`): it stays background.
      }
    }
    return overlays;
  }

  /**
   * One image at a box's size, flattened onto `background`, into a libvips file. Its decode takes
   * its share of the image budget; a PSD's composite gets a folder of its own (decode.ts names its
   * temporary file).
   */
  private async imageOverlay(
    file: string,
    format: string,
    header: ImageHeader,
    rect: Rect,
    fit: ImageFit,
    background: string,
    target: string,
  ): Promise<void> {
    const scratchDir = `${target}.d`;
    await fsp.mkdir(scratchDir);
    try {
      await this.images.run(header.cost + encodeCost(rect.w), async () => {
        const decoded = await decodeImage(file, {
          format: decodeFormat(format),
          background,
          limitInputPixels: this.images.limits.maxPixels,
          scratchDir,
        });
        await decoded
          .resize(rect.w, rect.h, { fit: fit.fit, position: fit.position, background })
          .toFile(target);
      });
    } finally {
      await fsp.rm(scratchDir, { recursive: true, force: true });
    }
  }

  /** The labels of a preview's empty slots: a CJK font when there is one (labels are often Chinese). */
  private placeholderFont(): ComposeFont | undefined {
    const available = this.fonts.list().filter((font) => font.available);
    return available.find((font) => font.cjk) ?? available[0];
  }
}

/** The renderer of this process (services.ts): the shared image budget and the fonts read at start-up. */
export function createPageRenderer(deps: { images: ImageWork; fonts: FontRegistry }): PageRenderer {
  return new SharpPageRenderer(deps.images, deps.fonts);
}
