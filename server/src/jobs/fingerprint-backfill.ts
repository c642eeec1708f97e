import type { Readable } from 'node:stream';
import type { FingerprintResult } from '@dam/contract';
import type { ItemsRepository } from '../modules/items/repository';
import { fingerprintOfRaster } from '../modules/media/fingerprint';
import type {
  FingerprintsRepository,
  UnfingerprintedUpload,
} from '../modules/similar/fingerprints.repository';
import type { ObjectStorage } from '../storage/storage';
import { BackfillLog } from './backfill-log';

/** Uploads fingerprinted a job: one job's work is lost at most when a process stops. */
export const BACKFILL_BATCH = 200;

export interface BackfillDependencies {
  fingerprints: FingerprintsRepository;
  items: ItemsRepository;
  storage: ObjectStorage;
  /** What runs once a fingerprint is stored (the pairs of the duplicate report). */
  stored: (uploadId: number) => Promise<void>;
  info: (details: Record<string, unknown>, message: string) => void;
  warn: (details: Record<string, unknown>, message: string) => void;
  now: () => Date;
}

/**
 * Fingerprints the files uploaded before near-duplicate detection (issue 17, plan §2.2), a batch
 * a job, oldest first, each from its stored 500-px thumbnail (measured: at most 4 bits from the
 * original's hash), never decoding an original again. Transparent images uploaded before then have
 * thumbnails on black, and are hashed as such (docs/decisions.md). A file whose fingerprint cannot
 * be made gets the status `failed` and the back-fill goes on; the next run tries it again.
 */
export class FingerprintBackfill {
  private readonly log: BackfillLog;
  /**
   * The last upload this process handed out: a run goes on after it rather than anti-joining the
   * whole archive again each batch. Null (from the start) after a restart or a finished run.
   */
  private after: number | null = null;

  constructor(
    private readonly deps: BackfillDependencies,
    private readonly batchSize = BACKFILL_BATCH,
  ) {
    this.log = new BackfillLog('fingerprint back-fill', deps);
  }

  /** One batch; answers whether more may be left. */
  async runBatch(): Promise<boolean> {
    const batch = await this.deps.fingerprints.unfingerprinted(this.batchSize, this.after ?? 0);
    if (batch.length > 0) {
      this.after = batch.at(-1)!.id;
      if (!this.log.running) this.log.start(await this.deps.fingerprints.progress());
      for (const upload of batch) await this.fingerprint(upload);
      this.log.advance(batch.length);
      if (batch.length === this.batchSize) return true;
    }
    this.log.finish();
    this.after = null;
    return false;
  }

  private async fingerprint(upload: UnfingerprintedUpload): Promise<void> {
    let result: FingerprintResult;
    try {
      const thumb = await bytesOf(await this.deps.storage.read(upload.thumb_key));
      result = await fingerprintOfRaster(thumb, {
        width: upload.width ?? Number.MAX_SAFE_INTEGER,
        height: upload.height ?? Number.MAX_SAFE_INTEGER,
      });
    } catch (error) {
      // Only a fingerprint that cannot be made is `failed`: a later run (after a restart) tries again.
      this.deps.warn({ uploadId: upload.id }, `fingerprint back-fill: ${(error as Error).message}`);
      await this.deps.fingerprints.saveStatus(upload.id, 'failed', (error as Error).message);
      return;
    }
    await this.deps.fingerprints.save(upload.id, result);
    // The item's colours and the pairs follow; a failure there leaves the fingerprint standing.
    try {
      if (upload.item_id) await this.deps.items.refreshColours(upload.item_id);
      await this.deps.stored(upload.id);
    } catch (error) {
      this.deps.warn(
        { uploadId: upload.id },
        `fingerprint back-fill, after the fingerprint: ${(error as Error).message}`,
      );
    }
  }
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * How far the back-fill is, for the screens that say "fingerprints: 62 % of the archive". Counting
 * every upload takes a while at a million, so the answer is kept for a minute; null once done.
 */
export class BackfillProgress {
  private cached: { at: number; value: { done: number; total: number } | null } | null = null;

  constructor(
    private readonly fingerprints: Pick<FingerprintsRepository, 'progress'>,
    private readonly now: () => Date,
    private readonly keepMs = 60_000,
  ) {}

  async current(): Promise<{ done: number; total: number } | null> {
    const now = this.now().getTime();
    // Once the archive was whole it stays whole: new uploads are fingerprinted by their media job.
    if (this.cached && (this.cached.value === null || now - this.cached.at < this.keepMs))
      return this.cached.value;
    const { done, total } = await this.fingerprints.progress();
    const value = done >= total ? null : { done, total };
    this.cached = { at: now, value };
    return value;
  }
}
