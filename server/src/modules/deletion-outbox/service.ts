import type { Clock } from '../../lib/clock';
import type { ListedObject, ObjectStorage } from '../../storage/storage';
import { DEFERRED, type DeletionGate } from '../backup/deletion-gate';
import { ObjectDeletionsRepository } from './repository';

/** Called after a transaction recorded objects for deletion: queues their deletion jobs. */
export type ObjectsFreed = (keys: string[]) => Promise<void>;

/** Unfinished uploads untouched this long are abandoned: cancelled, their bytes freed. */
export const ABANDONED_UPLOAD_MS = 7 * 24 * 3600_000;
/** A recorded deletion not tried for this long is sent to the queue again. */
export const STALE_DELETION_MS = 3600_000;
/** The sweep leaves objects younger than this alone (an upload may be writing them). */
export const SWEEP_GRACE_MS = 24 * 3600_000;

/**
 * The original a derived object belongs to: `previews/<key>.thumb.jpg`, `previews/<key>.preview.jpg`
 * (thumbKeyOf / previewKeyOf in jobs/media.ts), `previews/<key>.play.mp4` (playKeyOf in
 * jobs/video.ts) and `previews/<key>.page-<n>.jpg` (pageKeyOf in storage/document-pages.ts) belong to `<key>`.
 */
export function sourceKeyOf(key: string): string | null {
  if (!key.startsWith('previews/')) return null;
  for (const suffix of ['.thumb.jpg', '.preview.jpg', '.play.mp4']) {
    if (key.endsWith(suffix)) return key.slice('previews/'.length, -suffix.length);
  }
  const page = /\.page-\d+\.jpg$/.exec(key);
  return page ? key.slice('previews/'.length, page.index) : null;
}

/**
 * Keys this platform writes: originals `YYYY/MM/DD/<uuid>.<ext>` (newStorageKey) and their
 * `previews/…` renditions. The sweep looks at nothing else, so a bucket shared with other data
 * never loses another application's objects.
 */
const OWN_KEY = /^(previews\/)?\d{4}\/\d{2}\/\d{2}\/[^/]+$/;

export interface SweepReport {
  /** Objects no record holds, older than the grace period. */
  orphans: ListedObject[];
  orphanBytes: number;
  /** Unreferenced objects left alone because they are younger than the grace period. */
  young: number;
  /** Objects looked at. */
  scanned: number;
  /** Objects whose key is not one this platform writes (another application's, in a shared bucket): never touched. */
  foreign: number;
  /** With `apply`: how many orphans were deleted, and the ones that could not be. */
  deleted: number;
  failed: Array<{ key: string; error: string }>;
}

export interface ObjectCleanerDependencies {
  objects: ObjectDeletionsRepository;
  storage: ObjectStorage;
  clock: Clock;
  /** Holds deletions off while a backup copies objects (modules/backup); none in tests that need no backup. */
  gate?: DeletionGate;
}

/**
 * Deletes from storage what the outbox lists, abandons forgotten uploads, and sweeps objects no
 * record holds. An object is never deleted while a record other than a cancelled one holds its key
 * (storage keys are unique per record and never reused once cancelled: re-uploading a cancelled
 * record gives it a fresh key).
 */
export class ObjectCleaner {
  constructor(private readonly deps: ObjectCleanerDependencies) {}

  /** Whether a live record holds this key (as its original, or as the original of a derived object). */
  private async referenced(
    keys: readonly string[],
    objects: ObjectDeletionsRepository = this.deps.objects,
  ): Promise<Set<string>> {
    const candidates = keys.flatMap((key) => {
      const source = sourceKeyOf(key);
      return source ? [key, source] : [key];
    });
    const live = await objects.liveStorageKeys(candidates);
    return new Set(keys.filter((key) => live.has(key) || live.has(sourceKeyOf(key) ?? '\0')));
  }

  /**
   * The job of one outbox row: aborts the open multipart upload, deletes the object, removes the
   * row. Throws (the row stays, with the attempt counted) when storage refuses, so the job retries.
   */
  async deleteObject(key: string): Promise<'deleted' | 'kept' | 'nothing' | 'deferred'> {
    if (!this.deps.gate) return this.deleteWith(this.deps.objects, key);
    const outcome = await this.deps.gate.run((db) =>
      this.deleteWith(db ? new ObjectDeletionsRepository(db) : this.deps.objects, key),
    );
    // A backup is copying objects: the outbox row stays and a later maintenance pass sends it again.
    return outcome === DEFERRED ? 'deferred' : outcome;
  }

  private async deleteWith(
    objects: ObjectDeletionsRepository,
    key: string,
  ): Promise<'deleted' | 'kept' | 'nothing'> {
    const row = await objects.find(key);
    if (!row) return 'nothing';
    if ((await this.referenced([key], objects)).has(key)) {
      // A live record holds the key again: it is no longer this outbox's to delete.
      await objects.remove(key);
      return 'kept';
    }
    try {
      if (row.multipart_id) await this.deps.storage.abortMultipartUpload(key, row.multipart_id);
      await this.deps.storage.delete(key);
    } catch (error) {
      await objects.recordFailure(key, (error as Error).message ?? String(error), this.deps.clock.now());
      throw error;
    }
    await objects.remove(key);
    return 'deleted';
  }

  /**
   * The periodic pass: cancels uploads unfinished for ABANDONED_UPLOAD_MS and answers the keys to
   * (re)send to the deletion queue: theirs and those of deletions not tried for an hour.
   */
  async maintain(): Promise<string[]> {
    const now = this.deps.clock.now();
    const abandoned: string[] = [];
    for (;;) {
      const keys = await this.deps.objects.abandonUnfinished(
        new Date(now.getTime() - ABANDONED_UPLOAD_MS),
        now,
        500,
      );
      abandoned.push(...keys);
      if (keys.length === 0) break;
    }
    const stale = await this.deps.objects.stale(new Date(now.getTime() - STALE_DELETION_MS), 10_000);
    await this.deps.objects.touch(stale, now);
    return [...new Set([...abandoned, ...stale])];
  }

  /**
   * Lists the objects no record holds (older than `graceMs` at `now`, which is storage time, i.e.
   * the wall clock); with `apply`, deletes them through the outbox (so the reference check runs
   * again just before each deletion).
   */
  async sweep(options: { apply: boolean; now: Date; graceMs?: number }): Promise<SweepReport> {
    const grace = options.graceMs ?? SWEEP_GRACE_MS;
    const report: SweepReport = {
      orphans: [],
      orphanBytes: 0,
      young: 0,
      scanned: 0,
      foreign: 0,
      deleted: 0,
      failed: [],
    };
    for await (const page of this.deps.storage.list()) {
      report.scanned += page.length;
      const held = await this.referenced(page.map((o) => o.key));
      for (const object of page) {
        if (held.has(object.key)) continue;
        if (!OWN_KEY.test(object.key)) {
          report.foreign += 1;
          continue;
        }
        if (options.now.getTime() - object.lastModified.getTime() < grace) {
          report.young += 1;
          continue;
        }
        report.orphans.push(object);
        report.orphanBytes += object.size;
      }
    }
    if (options.apply) {
      const keys = report.orphans.map((o) => o.key);
      for (let i = 0; i < keys.length; i += 1000) {
        await this.deps.objects.enqueueKeys(keys.slice(i, i + 1000), this.deps.clock.now());
      }
      for (const key of keys) {
        try {
          if ((await this.deleteObject(key)) === 'deleted') report.deleted += 1;
        } catch (error) {
          report.failed.push({ key, error: (error as Error).message });
        }
      }
    }
    return report;
  }
}
