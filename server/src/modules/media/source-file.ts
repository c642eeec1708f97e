import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { ObjectStorage } from '../../storage/storage';
import { type ImageWork, readImageHeader } from './image-limits';
import { SNIFF_BYTES, type SniffedContent, sniffContent, sniffFile, UndecodableContentError } from './sniff';

/** What is fetched of an object in S3 to read its header before copying it whole. */
const HEADER_BYTES = 64 * 1024;
/** Sources copied from S3 to temporary files at once, per process (download conversions and detail pages alike). */
const SOURCE_COPIES = 2;

let copying = 0;
const copyQueue: Array<() => void> = [];

/** What a stored object's first bytes are: read in place (local driver), or a range of the store's object. */
export async function sniffStored(
  storage: ObjectStorage,
  localPath: (key: string) => string | null,
  key: string,
): Promise<SniffedContent> {
  const stored = localPath(key);
  if (stored) return sniffFile(stored);
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(key, { start: 0, end: SNIFF_BYTES - 1 }))
    chunks.push(chunk as Buffer);
  return sniffContent(Buffer.concat(chunks).subarray(0, SNIFF_BYTES));
}

/**
 * Local files of stored images, to decode them (download conversions, detail pages): the stored
 * file itself on the local driver; on S3 a copy, made only once the object's first 64 KiB show an
 * image within the pixel limit, at most SOURCE_COPIES at once in this process so that N jobs
 * cannot fill the disk together.
 */
export class SourceFiles {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly images: ImageWork,
    /** Where a store's object is on disk (local driver), or null to copy it. */
    private readonly localPath: (key: string) => string | null,
  ) {}

  /**
   * The file to decode a stored object from: the stored file itself (never to be written to or
   * removed), or a copy at `copy` (the caller's temporary file). A header beyond the first 64 KiB
   * (a TIFF's directory written last, a PSD's sections) is checked by the caller on the copy.
   * An object whose first bytes are no image of `format`'s kind is refused before it is copied.
   */
  async fileOf(key: string, copy: string, format: 'psd' | 'image'): Promise<string> {
    const local = this.localPath(key);
    if (local) return local;
    const head = `${copy}.head`;
    await pipeline(
      await this.storage.read(key, { start: 0, end: HEADER_BYTES - 1 }),
      fs.createWriteStream(head),
    );
    const headBytes = await fsp.readFile(head);
    const content = sniffContent(headBytes.subarray(0, SNIFF_BYTES));
    if (format === 'psd' ? content.kind !== 'psd' : content.kind !== 'raster') {
      await fsp.rm(head, { force: true });
      throw new UndecodableContentError(content);
    }
    const early = await readImageHeader(head, format).catch(() => null);
    await fsp.rm(head, { force: true });
    // Only the pixel size is trusted from a truncated file; the cost is estimated on the whole one.
    if (early) this.images.check({ ...early, cost: 0 });
    if (copying >= SOURCE_COPIES) await new Promise<void>((start) => copyQueue.push(start));
    else copying++;
    try {
      await pipeline(await this.storage.read(key), fs.createWriteStream(copy));
    } finally {
      const next = copyQueue.shift();
      if (next) next();
      else copying--;
    }
    return copy;
  }
}
