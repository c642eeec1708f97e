import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import type { JobQueue } from './jobs/queue';
import type { Clock } from './lib/clock';
import { SecretBox } from './lib/secret-box';
import type { ObjectsFreed } from './modules/deletion-outbox/service';
import { ImageWork, imageLimitsOf } from './modules/media/image-limits';
import {
  CHECKED_URL_WINDOW_MS,
  localMediaUrlMaker,
  MediaUrls,
  PRESIGNED_URL_WINDOW_MS,
} from './modules/media/urls';
import { EmbeddedMetadataTool } from './modules/metadata/exiftool';
import { RateLimiter } from './modules/ratelimit/limiter';
import { RateLimitRepository } from './modules/ratelimit/repository';
import type { MediaJobWriter, UploadsRepository } from './modules/uploads/repository';
import { localPartUrlMaker } from './modules/uploads/service';
import { uploadsOn } from './repositories';
import { createStorage } from './storage/index';
import { LocalStorage } from './storage/local';
import type { ObjectStorage } from './storage/storage';

export type Warn = (details: Record<string, unknown>, message: string) => void;

export interface ServiceDependencies {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  /** The job queue; without one (some tests) finished uploads get no thumbnails. */
  jobs?: JobQueue;
  /** Where services report what went wrong without failing the caller. */
  warn: Warn;
  /** Where long background work reports its progress (the warn log when absent). */
  info?: Warn;
  /** Told of every upload part stored (metrics: modules/metrics). */
  uploadPartStored?: (storage: 'local' | 's3', bytes: number) => void;
}

/**
 * What every module's wiring is given (services.ts builds it first): the process's configuration,
 * database, clock and job queue, and the pieces many modules share.
 */
export interface Platform extends Omit<ServiceDependencies, 'info'> {
  db: DatabaseHandle['db'];
  info: Warn;
  storage: ObjectStorage;
  /** The local path of a stored object (local driver), null on S3. */
  localPath: (key: string) => string | null;
  mediaUrls: MediaUrls;
  /** Queues the deletion jobs of objects recorded in the outbox. */
  objectsFreed: ObjectsFreed;
  /** Writes a record's media job; null without a job queue. */
  mediaJobs: MediaJobWriter | null;
  /** Signs local part-upload and media URLs. */
  partUrlSecret: string;
  uploadsRepository: UploadsRepository;
  limiter: RateLimiter;
  /** Encrypts the open API's key secrets at rest (OPEN_API_SECRET_KEY or DATA_DIR/open-api.key). */
  secretBox: SecretBox;
  /** One pixel limit and image memory budget for thumbnails and download conversions alike. */
  images: ImageWork;
  /** PUBLIC_URL, or this server on localhost. */
  appUrl: string;
  /** ExifTool, started on first use: reads metadata in the media job, writes it into downloads (issue 42). */
  metadataTool: EmbeddedMetadataTool;
}

/** Builds the shared pieces: storage and its URLs, the deletion and media job writers, limits. */
export async function createPlatform(dependencies: ServiceDependencies): Promise<Platform> {
  const { config, database, clock, jobs, warn } = dependencies;
  const db = database.db;
  const uploadsRepository = uploadsOn(db);
  // A record's media job is written in the transaction that makes the record live (issue 38).
  const mediaJobs: MediaJobWriter | null = jobs
    ? (uploadId, handle) => jobs.enqueueMedia(uploadId, handle)
    : null;
  const partUrlSecret = await uploadsRepository.sharedSecret('part-url-secret');
  const storage = createStorage(config, localPartUrlMaker(partUrlSecret), localMediaUrlMaker(partUrlSecret));
  const localPath = (key: string) => (storage instanceof LocalStorage ? storage.pathOf(key) : null);
  // Local media URLs are checked against their session on every use; S3 presigned ones cannot be,
  // so they last minutes (docs/decisions.md).
  const mediaUrls = new MediaUrls(
    storage,
    clock,
    storage instanceof LocalStorage ? CHECKED_URL_WINDOW_MS : PRESIGNED_URL_WINDOW_MS,
  );
  // Objects of removed records are recorded in the deletion outbox with the removal; this queues
  // their jobs afterwards (a lost send is re-sent by the storage maintenance pass).
  const objectsFreed: ObjectsFreed = async (keys) => {
    if (!jobs || keys.length === 0) return;
    await jobs
      .enqueueObjectDeletions(keys)
      .catch((err) => warn({ err }, 'could not queue object deletions (retried later)'));
  };
  const secretBox = SecretBox.load(config.OPEN_API_SECRET_KEY, config.DATA_DIR);
  // Sign-in, SMS and share-password limits count in the database: every server process shares them.
  const limiter = new RateLimiter(new RateLimitRepository(db), clock);
  return {
    ...dependencies,
    info: dependencies.info ?? warn,
    db,
    storage,
    localPath,
    mediaUrls,
    objectsFreed,
    mediaJobs,
    partUrlSecret,
    uploadsRepository,
    limiter,
    secretBox,
    images: new ImageWork(imageLimitsOf(config)),
    appUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    metadataTool: new EmbeddedMetadataTool(),
  };
}
