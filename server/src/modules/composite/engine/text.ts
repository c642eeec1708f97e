import type { Rect } from '@dam/contract';
import sharp, { type OutputInfo } from 'sharp';
import type { ImageWork } from '../../media/image-limits';
import type { ComposeFont } from './types';

const MB = 1024 * 1024;

/**
 * The longest text a block draws once its placeholders are filled (an article's fields can make
 * a short template text long); the rest is cut, with a warning.
 */
export const FILLED_TEXT_MAX_CHARS = 2000;

/** `text` cut to FILLED_TEXT_MAX_CHARS characters (whole code points), and whether it was cut. */
export function capFilledText(text: string): { text: string; cut: boolean } {
  const chars = [...text];
  if (chars.length <= FILLED_TEXT_MAX_CHARS) return { text, cut: false };
  return { text: chars.slice(0, FILLED_TEXT_MAX_CHARS).join(''), cut: true };
}

/**
 * Text pango or cairo cannot draw at this size ("invalid value (typically too big)" for the
 * surface): another attempt would meet it again. Jobs fail the article; previews answer SECP_07.
 */
export class TextTooLargeError extends Error {
  override name = 'TextTooLargeError';
  /** The text block, once the renderer knows it. */
  blockId: string | null = null;
}

/** What libvips says when a text surface is beyond cairo's or pango's limits. */
const TOO_LARGE = /too big|invalid value|cairo|pango/i;

/**
 * The bytes an unfitted rendering of `text` may hold: its width, times a generous height (every
 * character a full em wide, lines 1.5 em), times 4 bytes, twice (pango's surface and the image).
 */
export function textCost(
  text: string,
  style: Pick<TextStyle, 'size' | 'lineSpacing'>,
  width: number,
): number {
  const chars = [...text].length;
  const lines = Math.ceil((chars * style.size) / Math.max(1, width)) + (text.match(/\n/g)?.length ?? 0) + 1;
  const height = lines * (style.size * 1.5 + Math.max(0, style.lineSpacing ?? 0));
  return width * height * 4 * 2;
}

/**
 * Text of a detail page, drawn by pango through sharp's text input (not SVG: pango wraps lines,
 * an SVG would need line breaking by hand). See docs/plans/issue-16-composition.md §3 and §9.
 */

/**
 * The text as pango markup content: `&`, `<` and `>` escaped, so neither an author's text nor an
 * article's fields can add markup (a raw `<` is "invalid markup" and fails the render).
 */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface TextStyle {
  font: ComposeFont;
  /** Pixels (at 72 dpi a point is a pixel). */
  size: number;
  colour: string;
  bold: boolean;
  align: 'left' | 'centre' | 'right';
  verticalAlign: 'top' | 'middle' | 'bottom';
  /** Extra pixels between lines; null: the font's own. */
  lineSpacing: number | null;
}

export interface PlacedText {
  /** The rendered text (`file`, or a cropped copy beside it). */
  file: string;
  /** Where the text's ink box goes on the page. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** The text did not fit its box at its size and was made smaller. */
  shrunk: boolean;
}

/**
 * Renders `text` into `file` (libvips format, RGBA, transparent around the glyphs) and says where
 * it goes inside `content`. libvips crops the result to the ink box, so it is placed by that box.
 * Text taller (or wider) than the box is rendered again with `height`, which makes pango pick a
 * smaller resolution; text that fits is never autofitted, since autofit also enlarges short text.
 */
export async function renderText(
  text: string,
  style: TextStyle,
  content: Rect,
  file: string,
  images: ImageWork,
): Promise<PlacedText> {
  const weight = style.bold ? ' weight="bold"' : '';
  const base = {
    text: `<span foreground="${style.colour}"${weight}>${escapeMarkup(text)}</span>`,
    // The comma ends the family list, so a family ending in a style word (… Light) stays whole.
    font: `${style.font.family}, ${style.size}`,
    fontfile: (style.bold ? style.font.boldFile : null) ?? style.font.file,
    width: content.w,
    align: style.align,
    wrap: 'word-char' as const,
    rgba: true,
    ...(style.lineSpacing !== null ? { spacing: style.lineSpacing } : {}),
  };
  // Each rendering holds its pixels within the image budget. Text whose unfitted rendering would
  // not fit the budget cannot fit its box either: it goes straight to the fitted rendering, whose
  // size is the box's.
  const fittedCost = 16 * MB + content.w * content.h * 4 * 2;
  const unfittedCost = 16 * MB + textCost(text, style, content.w);
  const draw = (options: Record<string, unknown>, cost: number) =>
    images
      .run(cost, () => sharp({ text: { ...base, ...options } }).toFile(file))
      .catch((error: unknown) => {
        if (error instanceof Error && TOO_LARGE.test(error.message))
          throw new TextTooLargeError(`the text is too large to draw (${error.message.trim()})`);
        throw error;
      });
  let info: OutputInfo | null = null;
  let shrunk = false;
  if (unfittedCost <= images.limits.memoryBytes / 2) info = await draw({ dpi: 72 }, unfittedCost);
  if (!info || info.height > content.h || info.width > content.w) {
    // `dpi` and `height` together are refused by sharp.
    info = await draw({ height: content.h }, fittedCost);
    shrunk = true;
  }
  let placed = file;
  const width = Math.min(info.width, content.w);
  const height = Math.min(info.height, content.h);
  if (width < info.width || height < info.height) {
    // Autofit rounds its resolution: a pixel or two over the box is cut rather than drawn outside it.
    placed = file.replace(/\.v$/, '-cropped.v');
    await images.run(fittedCost, () =>
      sharp(file).extract({ left: 0, top: 0, width, height }).toFile(placed),
    );
  }
  const spareX = content.w - width;
  const spareY = content.h - height;
  const left =
    content.x + (style.align === 'left' ? 0 : style.align === 'right' ? spareX : Math.floor(spareX / 2));
  const top =
    content.y +
    (style.verticalAlign === 'top' ? 0 : style.verticalAlign === 'bottom' ? spareY : Math.floor(spareY / 2));
  return { file: placed, left, top, width, height, shrunk };
}
