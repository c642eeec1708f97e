import { loadConfig } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { ImageWork, imageLimitsOf } from './media/image-limits';
import { MediaProcessor } from './jobs/media';
import { startJobQueue } from './jobs/queue';
import { systemClock } from './lib/clock';
import { ItemsRepository } from './modules/items/repository';
import { localMediaUrlMaker } from './modules/media/urls';
import { ObjectDeletionsRepository } from './modules/objects/repository';
import { ObjectCleaner } from './modules/objects/service';
import { UploadsRepository } from './modules/uploads/repository';
import { localPartUrlMaker } from './modules/uploads/service';
import { createStorage } from './storage/index';
import { LocalStorage } from './storage/local';

/**
 * `npm run worker`: media jobs and object deletions only, no HTTP. Run N of these beside stateless API processes
 * (MEDIA_WORKERS=0 on those) when thumbnails should not compete with requests. PostgreSQL only:
 * the embedded PGlite database belongs to one process.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    console.error(
      'npm run worker needs DATABASE_URL (PostgreSQL); with the embedded database, `npm start` runs the jobs itself.',
    );
    process.exit(1);
  }
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: null,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  await migrateToLatest(database.db);
  const uploads = new UploadsRepository(database.db);
  const secret = await uploads.sharedSecret('part-url-secret');
  const storage = createStorage(config, localPartUrlMaker(secret), localMediaUrlMaker(secret));
  const jobs = await startJobQueue(database, {
    onError: (error) => console.error('job queue:', error.message),
  });
  const media = new MediaProcessor({
    uploads,
    items: new ItemsRepository(database.db),
    storage,
    localPath: (key) => (storage instanceof LocalStorage ? storage.pathOf(key) : null),
    warn: (details, message) => console.warn(message, details),
    now: () => new Date(),
    images: new ImageWork(imageLimitsOf(config)),
  });
  await jobs.workMedia((uploadId) => media.process(uploadId), Math.max(1, config.MEDIA_WORKERS));
  const cleaner = new ObjectCleaner({
    objects: new ObjectDeletionsRepository(database.db),
    storage,
    clock: systemClock,
  });
  await jobs.workObjectDeletions({
    deleteObject: (key) => cleaner.deleteObject(key),
    maintain: () => cleaner.maintain(),
  });
  console.log(`media worker running (${Math.max(1, config.MEDIA_WORKERS)} at a time)`);
  const stop = async () => {
    await jobs.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error) => {
  console.error('worker failed:', error);
  process.exit(1);
});
