import { splitFileName } from '@dam/contract';

/** A picture's size in pixels. */
export interface Pixels {
  width: number;
  height: number;
}

/** Formats whose size the browser reads from the file itself. */
const READABLE = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp']);

/**
 * A picked picture's pixel size as the browser reads it (an image element: EXIF orientation
 * applied, nothing drawn), or null for a format it does not read or a file it cannot decode.
 */
export function readPixels(file: File, fileName = file.name): Promise<Pixels | null> {
  if (!READABLE.has(splitFileName(fileName).format)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    const done = (pixels: Pixels | null) => {
      URL.revokeObjectURL(url);
      resolve(pixels);
    };
    image.onload = () => done({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => done(null);
    image.src = url;
  });
}

/** "1600 × 1200", as the viewer's information shows a size. */
export const shownPixels = (pixels: Pixels) => `${pixels.width} × ${pixels.height}`;

/** A size from a width and height that may be unknown (null or 0). */
export function pixelsFrom(
  width: number | null | undefined,
  height: number | null | undefined,
): Pixels | null {
  return width && height ? { width, height } : null;
}

/**
 * Whether a new copy of `format` would replace a larger current version (issue 39 item 9): only a
 * copy of one of the file's formats (`formats`: "jpg,png") replaces one, and "larger" counts
 * pixels, whatever the orientation.
 */
export function replacesLarger(
  copy: { format: string; pixels: Pixels | null },
  current: { formats: string | null; pixels: Pixels | null },
): boolean {
  if (!copy.pixels || !current.pixels || !copy.format) return false;
  if (!(current.formats ?? '').split(',').includes(copy.format)) return false;
  return copy.pixels.width * copy.pixels.height < current.pixels.width * current.pixels.height;
}
