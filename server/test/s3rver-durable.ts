import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

interface S3rverObject {
  bucket: string;
  key: string;
  content: Buffer | NodeJS.ReadableStream;
  metadata: Record<string, string>;
}

interface FilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putPart(
    bucket: string,
    uploadId: string,
    partNumber: number,
    content: NodeJS.ReadableStream,
  ): Promise<Written>;
  putObject(object: S3rverObject): Promise<Written>;
}

interface Written {
  size: number;
  md5: string;
}

const patched = Symbol.for('dam.s3rver.durable');

/** Writes `content` to `file`, resolving once the file is closed, with its length and MD5. */
async function writeHashed(content: Buffer | NodeJS.ReadableStream, file: string): Promise<Written> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const md5 = createHash('md5');
  let size = 0;
  if (Buffer.isBuffer(content)) {
    await fs.promises.writeFile(file, content);
    return { size: content.length, md5: md5.update(content).digest('hex') };
  }
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  await pipeline(content, hashing, fs.createWriteStream(file));
  return { size, md5: md5.digest('hex') };
}

/**
 * s3rver 3.7.1 (the last release) answers a part or object PUT, and a multipart completion, when
 * its hash has seen the bytes — before the file holds them. On a loaded machine the next request
 * (HeadObject after CompleteMultipartUpload, or the completion reading a part) then sees a short
 * file: the server's size check answers SEF_06 though the client sent every byte. Real S3, MinIO
 * and the rest are read-after-write consistent, so the test peer is made to be: the same file
 * layout and answers, resolved only once the file is closed.
 */
export function makeS3rverDurable(): void {
  const require = createRequire(import.meta.url);
  const Store = require('s3rver/lib/stores/filesystem.js') as {
    prototype: FilesystemStore & { [patched]?: true };
  };
  if (Store.prototype[patched]) return;
  Store.prototype[patched] = true;

  Store.prototype.putPart = async function putPart(bucket, uploadId, partNumber, content) {
    const file = path.join(this.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
    const written = await writeHashed(content, file);
    await fs.promises.writeFile(`${file}.md5`, written.md5);
    return written;
  };

  Store.prototype.putObject = async function putObject(object) {
    const written = await writeHashed(
      object.content,
      this.getResourcePath(object.bucket, object.key, 'object'),
    );
    await this.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    return written;
  };
}
