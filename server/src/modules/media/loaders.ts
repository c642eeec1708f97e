import sharp from 'sharp';

/**
 * The only libvips loaders this process may run: those of the rasters media/sniff.ts lets through
 * (SHARP_RASTERS) and libvips' own format, in which a PSD's composite is written to a temporary
 * file (media/psd.ts). Each name covers the file, buffer and source variants of its loader.
 */
export const ALLOWED_LOADERS = [
  'VipsForeignLoadJpeg',
  'VipsForeignLoadPng',
  // libnsgif: libvips' GIF loader's class name.
  'VipsForeignLoadNsgif',
  'VipsForeignLoadWebp',
  'VipsForeignLoadTiff',
  'VipsForeignLoadHeif',
  'VipsForeignLoadVipsFile',
] as const;

/**
 * Blocks every other libvips loader for the whole process (SVG, PDF, ImageMagick, matrix, CSV…),
 * so even a file that slipped past the sniff can never reach librsvg, whose `<image href>` and
 * XInclude read files beside the object (issue 38 item 2). Called once at start-up by the server
 * and the worker; the test harness does not call it, since test fixtures draw pictures with
 * sharp's SVG loader in the same process (the sniff alone is what the regression tests prove).
 * Answers the loaders left allowed, for the start-up log.
 */
export function restrictImageLoaders(): readonly string[] {
  sharp.block({ operation: ['VipsForeignLoad'] });
  sharp.unblock({ operation: [...ALLOWED_LOADERS] });
  return ALLOWED_LOADERS;
}
