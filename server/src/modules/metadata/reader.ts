import type { EmbeddedMetadataTool, ReadTags } from './exiftool';
import { extractMetadata } from './extract';
import { readJpegTags } from './jpeg-reader';
import type { MetadataRepository } from './repository';

/**
 * The media job's metadata step (issue 42): what ExifTool reads from a record's bytes is stored
 * beside its thumbnail. It never costs the thumbnail: a file ExifTool cannot read is `failed` with
 * the reason, and the job goes on. At shutdown (the tool stopped) nothing is stored, so the
 * back-fill reads the record later.
 */
export class MetadataReader {
  constructor(
    private readonly deps: {
      repo: MetadataRepository;
      tool: EmbeddedMetadataTool;
      warn: (details: Record<string, unknown>, message: string) => void;
      /** Runs once the record's metadata is stored (the keyword → tag mapping); its failure is only logged. */
      afterSave?: (uploadId: number) => Promise<void>;
    },
  ) {}

  /**
   * Reads `file` (the record's bytes, a local file) and stores what it holds: a JPEG whose
   * metadata the in-process reader settles as ExifTool would (jpeg-reader.ts) is read here, every
   * other file by ExifTool.
   */
  async read(uploadId: number, file: string): Promise<void> {
    let tags: ReadTags;
    try {
      tags = (await readJpegTags(file).catch(() => null)) ?? (await this.deps.tool.read(file));
    } catch (error) {
      if (this.deps.tool.stopped) return;
      const reason = (error as Error).message;
      this.deps.warn({ uploadId }, `metadata not read: ${reason}`);
      await this.deps.repo.saveStatus(uploadId, 'failed', reason);
      return;
    }
    await this.deps.repo.save(uploadId, extractMetadata(tags));
    await this.deps.afterSave?.(uploadId).catch((error: Error) => {
      this.deps.warn({ uploadId }, `metadata stored, not mapped to tags: ${error.message}`);
    });
  }

  /** A record whose bytes hold nothing the platform reads (no image, document or video). */
  async nothingToRead(uploadId: number): Promise<void> {
    await this.deps.repo.saveStatus(uploadId, 'none', null);
  }
}
