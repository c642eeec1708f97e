import { Readable } from 'node:stream';
import { coded } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { ObjectStorage } from '../../storage/storage';
import { ImageTooLargeError } from '../media/image-limits';
import { CONTENT_TYPES, STORE_ONLY } from './content-types';
import type { DownloadConverter } from './converter';
import type { DownloadMetadataWriter } from './metadata-writer';
import type { DownloadPlan, PlannedFile } from './plan';
import type { OpenedEntry, ZipEntry } from './zip';

export const contentTypeOf = (file: PlannedFile): string =>
  CONTENT_TYPES[file.output ?? file.source.format] ?? 'application/octet-stream';

/** The bytes of a planned download: originals (with their metadata written or stripped), conversions, notes. */
export class DownloadEntries {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly converter: DownloadConverter,
    private readonly metadata: DownloadMetadataWriter | null,
    private readonly clock: Clock,
  ) {}

  /**
   * The bytes of one planned file: the original stream, or a converted/scaled image. An image
   * beyond the pixel limit or the image memory budget is SEDL_04.
   */
  async open(file: PlannedFile): Promise<OpenedEntry> {
    try {
      return await this.openEntry(file);
    } catch (error) {
      if (error instanceof ImageTooLargeError)
        throw coded('SEDL_04', { width: error.width, height: error.height, limit: error.maxPixels });
      throw error;
    }
  }

  private async openEntry(file: PlannedFile): Promise<OpenedEntry> {
    if (file.output) return this.converter.convert(file, file.output, file.colour ?? 'srgb');
    const choice = file.metadata ?? 'embed';
    const rewritten = choice === 'keep' ? null : await this.metadata?.original(file, choice);
    return rewritten ?? { stream: await this.storage.read(file.source.storage_key) };
  }

  zipEntries(plan: DownloadPlan): ZipEntry[] {
    const now = this.clock.now();
    const writer = this.metadata;
    return [
      ...plan.files.flatMap((file) => [
        {
          path: file.path,
          compress: !STORE_ONLY.has(file.output ?? file.source.format),
          mtime: now,
          // A problem (an image too large…) names the entry in `_download-problems.txt`.
          open: () => this.openEntry(file),
        },
        // Its `.xmp` sidecar right after it, when the download asked for sidecars (issue 42).
        ...(file.sidecarPath && writer
          ? [{ path: file.sidecarPath, compress: true, mtime: now, open: () => writer.sidecar(file) }]
          : []),
      ]),
      ...plan.notes.map((note) => ({
        path: note.path,
        compress: true,
        mtime: now,
        open: async () => ({ stream: Readable.from([Buffer.from(note.text, 'utf8')]) }),
      })),
    ];
  }
}
