import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PRESET_BACKGROUND, renderFileName, safeFileNamePart } from '@dam/contract';
import type { ObjectStorage } from '../../storage/storage';
import { decodeImage } from '../media/decode';
import { encodeCost, type ImageWork, readImageHeader } from '../media/image-limits';
import { SourceFiles } from '../media/source-file';
import type { DownloadMetadataWriter } from './metadata-writer';
import { type PlannedFile, scaledSize } from './plan';
import type { OpenedEntry } from './zip';

/**
 * The colours of a converted image: `srgb` converts from the embedded profile (or the untagged
 * default, media/icc.ts) into sRGB and attaches sRGB; `keep` leaves the numbers in the source's
 * own profile and attaches that profile. A CMYK source is converted to sRGB either way: a PNG
 * cannot hold CMYK, and sharp's `keepIccProfile` on CMYK drops the black channel.
 */
export type DownloadColour = 'srgb' | 'keep';

/** Converted and scaled images of a download, made within the process's image budget. */
export class DownloadConverter {
  private readonly sources: SourceFiles;

  constructor(
    storage: ObjectStorage,
    private readonly images: ImageWork,
    localPath: (key: string) => string | null,
    private readonly warn: (details: Record<string, unknown>, message: string) => void,
    private readonly metadata: DownloadMetadataWriter | null = null,
  ) {
    this.sources = new SourceFiles(storage, images, localPath);
  }

  /**
   * Converts (and scales) one image within the process's image budget (media/image-limits.ts).
   * The source is read where it is stored (local driver); on S3 its first 64 KiB are fetched
   * and its pixel size checked before the whole object is copied to a temporary file, a few at
   * once per process (media/source-file.ts). Its header is checked, then, once the memory its decoding takes is
   * free, it is decoded and encoded into a temporary file, which is what streams out. So N
   * downloads at once wait their turn instead of multiplying memory or disk, and a slow client
   * holds a file open, not decoded pixels. JPEG is written without optimised Huffman tables,
   * which would hold every coefficient of the image until the end. `colour`: see DownloadColour.
   */
  async convert(
    file: PlannedFile,
    output: 'jpg' | 'png',
    colour: DownloadColour = 'srgb',
  ): Promise<OpenedEntry> {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-convert-'));
    // A failed removal is only a stray temporary folder: reported, never an unhandled rejection.
    const cleanup = () =>
      fsp
        .rm(dir, { recursive: true, force: true })
        .catch((error) => this.warn({ err: error, dir }, 'could not remove a conversion folder'));
    try {
      const isPsd = file.source.format === 'psd';
      const format = isPsd ? 'psd' : 'image';
      const extension = safeFileNamePart(file.source.format);
      const input = await this.sources.fileOf(
        file.source.storage_key,
        path.join(dir, `source.${extension}`),
        format,
      );
      const header = await readImageHeader(input, format);
      this.images.check(header);
      // The decoded size (after EXIF orientation) names and scales the output exactly.
      const size = scaledSize(header.uprightWidth, header.uprightHeight, file.scalePx, file.enlarge ?? false);
      const background = output === 'jpg' ? (file.background ?? DEFAULT_PRESET_BACKGROUND) : file.background;
      const target = path.join(dir, `output.${output}`);
      // A PSD kept transparent may be handed to sharp as raw pixels (16/32-bit), which it copies.
      const copied = isPsd && !background ? header.width * header.height * 4 : 0;
      await this.images.run(header.cost + copied + encodeCost(size.width), async () => {
        let image = await decodeImage(input, {
          format,
          background,
          limitInputPixels: this.images.limits.maxPixels,
          scratchDir: dir,
        });
        if (size.width !== header.uprightWidth || size.height !== header.uprightHeight)
          image = image.resize(size.width, size.height, { fit: 'fill' });
        // From the embedded profile into sRGB, which is attached (media/icc.ts: perceptual intent).
        const keep = colour === 'keep' && (await image.metadata()).space !== 'cmyk';
        image = keep ? image.keepIccProfile() : image.withIccProfile('srgb');
        image =
          output === 'jpg'
            ? image.jpeg({ quality: 92, chromaSubsampling: '4:4:4', optimiseCoding: false })
            : image.png();
        await image.toFile(target);
      });
      if (this.metadata && (file.metadata ?? 'embed') === 'embed') {
        // sharp wrote no metadata; a failure to add the platform's sends the image without it.
        await this.metadata.converted(target, output, file).catch((error: Error) => {
          this.warn({ err: error, key: file.source.storage_key }, 'converted image sent without metadata');
        });
      }
      const stream = fs.createReadStream(target);
      stream.once('close', () => void cleanup());
      const named = file.naming
        ? `${file.naming.folder}${renderFileName(file.naming.template, {
            ...file.naming,
            format: output,
            width: size.width,
            height: size.height,
          })}`
        : undefined;
      return named ? { stream, path: named } : { stream };
    } catch (error) {
      await cleanup();
      throw error;
    }
  }
}
