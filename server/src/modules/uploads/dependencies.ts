import type { MailNoticeSummary } from '@dam/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { ObjectStorage } from '../../storage/storage';
import type { ObjectsFreed } from '../deletion-outbox/service';
import type { UploadTargets } from '../items/upload-targets';
import type { MediaJobWriter, UploadsRepository } from './repository';

export interface UploadsDependencies {
  uploads: UploadsRepository;
  /** Where uploads land: target folders, subfolders of folder uploads, the file each joins. */
  targets: UploadTargets;
  /** Checks the tag sets of a batch (the tags module); without it tags are not checked. */
  tags?: { checkTagSets(sets: ReadonlyArray<readonly number[]>): Promise<void> };
  storage: ObjectStorage;
  clock: Clock;
  /** Queues the deletion of objects recorded in the outbox (cancelled uploads). */
  objectsFreed?: ObjectsFreed;
  /**
   * Writes the media job (thumbnail, preview) of a record in the transaction that makes it live;
   * null without a job queue (the start-up sweep of lost media jobs queues it later).
   */
  mediaJobs: MediaJobWriter | null;
  /**
   * Review (issue 43): told, in the transaction that makes it live, of a version that became a
   * file's shown one (an approved file goes back to review); answers the mails it wrote, which
   * `queue` sends once the transaction has committed.
   */
  newVersion?: {
    afterNewVersion(db: Db, itemId: number, userId: number, now: Date): Promise<number[]>;
    queue(mailIds: readonly number[]): Promise<void>;
  };
  /** The mail notices of batches, by batch number, for the records' screen. */
  mailNotices?: (batchNums: string[]) => Promise<Map<string, MailNoticeSummary>>;
  /** HMAC key of local part URLs, shared by all processes (see UploadsRepository.sharedSecret). */
  partUrlSecret: string;
  warn: (details: Record<string, unknown>, message: string) => void;
  /** Told of every part stored and recorded: received here (`local`) or reported from the object store (metrics). */
  partStored?: (storage: 'local' | 's3', bytes: number) => void;
}
