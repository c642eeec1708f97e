import type { MetadataReader } from '../modules/metadata/reader';
import type { MetadataRepository, UnreadUpload } from '../modules/metadata/repository';
import { type ObjectStorage, StorageError } from '../storage/storage';
import { BackfillLog } from './backfill-log';
import { MediaSources, SOURCE_KIND } from './media-source';

/** Records read a job: one job's work is lost at most when a process stops. */
export const METADATA_BACKFILL_BATCH = 100;
/** The reason stored for a record whose object is not in the store. */
const MISSING = 'the stored file is missing';
/**
 * A batch ends early after this long, the next queued at once: a batch of hostile files (each up
 * to ExifTool's 20 s time-out) stays well inside the job's 15 minutes, after which pg-boss would
 * hand the same batch to another worker.
 */
const BATCH_MS = 5 * 60_000;

export interface MetadataBackfillDependencies {
  repo: Pick<MetadataRepository, 'unread' | 'progress' | 'saveStatus'>;
  /** The media job's own reader (the process's one ExifTool, Platform.metadataTool). */
  reader: Pick<MetadataReader, 'read' | 'nothingToRead'>;
  /** Whether the tool was stopped (shutdown): the batch ends there, its rest read by a later run. */
  stopped: () => boolean;
  storage: ObjectStorage;
  /** Where a store's object is on disk (local driver), or null to copy it. */
  localPath: (key: string) => string | null;
  info: (details: Record<string, unknown>, message: string) => void;
  warn: (details: Record<string, unknown>, message: string) => void;
  now: () => Date;
}

/**
 * Reads the metadata embedded in the files uploaded before issue 42 (the media job reads every
 * new one), a batch a job, oldest first, each from the record's original bytes: the store's own
 * file on the local driver, else a copy in a private temporary folder, made only once the
 * object's first 4 KiB show an image, a PSD, a PDF or a video (modules/media/sniff.ts; anything
 * else is `none` without a copy) and removed right after. One record at a time, and one batch at a
 * time in the whole installation (a stately queue), so the back-fill holds at most one copy.
 * A file ExifTool cannot read is `failed` (MetadataReader) and the back-fill goes on; an object
 * missing from the store is `failed` likewise; bytes the store would not give (a network fault)
 * leave the record without a row, for the next run.
 */
export class MetadataBackfill {
  private readonly log: BackfillLog;
  private readonly sources: MediaSources;
  /**
   * The last record this process handed out: a run goes on after it rather than anti-joining the
   * whole archive again each batch. Null (from the start) after a restart or a finished run.
   */
  private after: number | null = null;

  constructor(
    private readonly deps: MetadataBackfillDependencies,
    private readonly batchSize = METADATA_BACKFILL_BATCH,
  ) {
    this.log = new BackfillLog('metadata back-fill', deps);
    this.sources = new MediaSources(deps);
  }

  /** One batch; answers whether more may be left. */
  async runBatch(): Promise<boolean> {
    if (this.deps.stopped()) return false;
    const batch = await this.deps.repo.unread(this.batchSize, this.after ?? 0);
    if (batch.length > 0) {
      if (!this.log.running) this.log.start(await this.deps.repo.progress());
      const started = this.deps.now().getTime();
      let read = 0;
      for (const upload of batch) {
        // Shutting down: what is left of the batch (no row yet) is read after the restart.
        if (this.deps.stopped()) return false;
        await this.readOne(upload);
        this.after = upload.id;
        read += 1;
        if (read < batch.length && this.deps.now().getTime() - started > BATCH_MS) break;
      }
      this.log.advance(read);
      if (read < batch.length || batch.length === this.batchSize) return true;
    }
    this.log.finish();
    this.after = null;
    return false;
  }

  private async readOne(upload: UnreadUpload): Promise<void> {
    try {
      const content = await this.sources.sniff(upload.storage_key);
      if (!SOURCE_KIND[content.kind]) {
        await this.deps.reader.nothingToRead(upload.id);
        return;
      }
      // No tool writes beside the file: the local driver's own file is read in place.
      await this.sources.withLocalCopy(upload.storage_key, content.format, false, (file) =>
        this.deps.reader.read(upload.id, file),
      );
    } catch (error) {
      if (!this.isMissing(error, upload.storage_key)) {
        // Left without a row: the next run (after a restart) tries it again.
        this.deps.warn({ uploadId: upload.id }, `metadata back-fill: ${(error as Error).message}`);
        return;
      }
      this.deps.warn({ uploadId: upload.id, key: upload.storage_key }, `metadata back-fill: ${MISSING}`);
      await this.deps.repo
        .saveStatus(upload.id, 'failed', MISSING)
        .catch((saving: Error) =>
          this.deps.warn({ uploadId: upload.id }, `metadata back-fill: ${saving.message}`),
        );
    }
  }

  /** The object is not in the store (S3's NoSuchKey, the local driver's file gone). */
  private isMissing(error: unknown, key: string): boolean {
    if (error instanceof StorageError) return error.reason === 'not-found';
    const { code, path } = error as NodeJS.ErrnoException;
    return code === 'ENOENT' && path !== undefined && path === this.deps.localPath(key);
  }
}
