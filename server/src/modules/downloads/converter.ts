import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DEFAULT_PRESET_BACKGROUND, renderFileName, safeFileNamePart } from '@dam/contract';
import { decodeImage } from '../../media/decode';
import { encodeCost, type ImageWork, readImageHeader } from '../../media/image-limits';
import type { ObjectStorage } from '../../storage/storage';
import { type PlannedFile, scaledSize } from './plan';
import type { OpenedEntry } from './zip';

/** What is fetched of an object in S3 to read its header before copying it whole. */
const HEADER_BYTES = 64 * 1024;
/** Sources copied from S3 to temporary files for conversion at once, per process. */
const SOURCE_COPIES = 2;

/** Converted and scaled images of a download, made within the process's image budget. */
export class DownloadConverter {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly images: ImageWork,
    private readonly localPath: (key: string) => string | null,
    private readonly warn: (details: Record<string, unknown>, message: string) => void,
  ) {}

  /** Sources being copied from object storage to convert them, and those waiting their turn. */
  private copying = 0;
  private readonly copyQueue: Array<() => void> = [];

  /**
   * Converts (and scales) one image within the process's image budget (media/image-limits.ts).
   * The source is read where it is stored (local driver); on S3 its first 64 KiB are fetched
   * and its pixel size checked before the whole object is copied to a temporary file, at most
   * `SOURCE_COPIES` at once. Its header is checked, then, once the memory its decoding takes is
   * free, it is decoded and encoded into a temporary file, which is what streams out. So N
   * downloads at once wait their turn instead of multiplying memory or disk, and a slow client
   * holds a file open, not decoded pixels. JPEG is written without optimised Huffman tables,
   * which would hold every coefficient of the image until the end.
   */
  async convert(file: PlannedFile, output: 'jpg' | 'png'): Promise<OpenedEntry> {
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
      const input = await this.sourceFile(
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
      // A PSD kept transparent is handed to sharp as raw pixels, which it copies.
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
        image =
          output === 'jpg'
            ? image.jpeg({ quality: 92, chromaSubsampling: '4:4:4', optimiseCoding: false })
            : image.png();
        await image.toFile(target);
      });
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

  /**
   * The file to decode a stored object from: the stored file itself (local driver), or a copy at
   * `copy` once the object's first bytes show an image within the pixel limit. A header beyond
   * the first 64 KiB (a TIFF's directory written last, a PSD's sections) is checked on the copy.
   */
  private async sourceFile(key: string, copy: string, format: 'psd' | 'image'): Promise<string> {
    const local = this.localPath(key);
    if (local) return local;
    const head = `${copy}.head`;
    await pipeline(
      await this.storage.read(key, { start: 0, end: HEADER_BYTES - 1 }),
      fs.createWriteStream(head),
    );
    const early = await readImageHeader(head, format).catch(() => null);
    await fsp.rm(head, { force: true });
    // Only the pixel size is trusted from a truncated file; the cost is estimated on the whole one.
    if (early) this.images.check({ ...early, cost: 0 });
    if (this.copying >= SOURCE_COPIES) await new Promise<void>((start) => this.copyQueue.push(start));
    else this.copying++;
    try {
      await pipeline(await this.storage.read(key), fs.createWriteStream(copy));
    } finally {
      const next = this.copyQueue.shift();
      if (next) next();
      else this.copying--;
    }
    return copy;
  }
}
