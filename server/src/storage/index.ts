import path from 'node:path';
import type { Config } from '../config';
import { LocalStorage } from './local';
import { S3Storage } from './s3';
import type { ObjectStorage } from './storage';

export type LocalPartUrl = ConstructorParameters<typeof LocalStorage>[1];
export type LocalMediaUrl = ConstructorParameters<typeof LocalStorage>[2];

/** S3 when a bucket is configured, else local disk under DATA_DIR/objects. */
export function createStorage(
  config: Config,
  localPartUrl: LocalPartUrl,
  localMediaUrl?: LocalMediaUrl,
): ObjectStorage {
  if (config.S3_BUCKET) {
    return new S3Storage({
      bucket: config.S3_BUCKET,
      endpoint: config.S3_ENDPOINT,
      publicEndpoint: config.S3_PUBLIC_ENDPOINT,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalStorage(path.join(config.DATA_DIR, 'objects'), localPartUrl, localMediaUrl);
}
