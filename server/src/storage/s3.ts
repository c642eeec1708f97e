import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  type ListedObject,
  type ObjectInfo,
  type ObjectStorage,
  type PartTarget,
  type ReadUrlOptions,
  StorageError,
  type StoredPart,
} from './storage';

export interface S3Settings {
  endpoint?: string | undefined;
  /** Endpoint the browser reaches, when it differs from the server's (e.g. a public host name). */
  publicEndpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
}

/**
 * AWS S3, MinIO, OSS, Ceph…: the browser PUTs parts to presigned URLs; the server never sees
 * the bytes. The bucket's CORS must allow PUT from the app's origin and expose `ETag`.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  readonly browserOrigin: string | null;
  private readonly client: S3Client;
  private readonly signer: S3Client;

  constructor(private readonly settings: S3Settings) {
    const make = (endpoint: string | undefined) =>
      new S3Client({
        region: settings.region,
        ...(endpoint ? { endpoint } : {}),
        forcePathStyle: settings.forcePathStyle,
        // Checksums only where S3 requires them: the SDK's default sends streamed bodies
        // aws-chunked with a checksum trailer, which several S3-compatible stores (and s3rver)
        // store as part of the object.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        ...(settings.accessKeyId && settings.secretAccessKey
          ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
          : {}),
      });
    this.client = make(settings.endpoint);
    this.signer = settings.publicEndpoint ? make(settings.publicEndpoint) : this.client;
    const origin = settings.publicEndpoint ?? settings.endpoint;
    this.browserOrigin = origin
      ? new URL(origin).origin
      : `https://${settings.bucket}.s3.${settings.region}.amazonaws.com`;
  }

  private get bucket() {
    return this.settings.bucket;
  }

  async createMultipartUpload(key: string, contentType: string): Promise<string> {
    const out = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
    );
    if (!out.UploadId) throw new Error('S3 returned no UploadId');
    return out.UploadId;
  }

  async partTargets(
    key: string,
    uploadId: string,
    partNumbers: number[],
    expiresAt: Date,
  ): Promise<PartTarget[]> {
    const expiresIn = Math.max(60, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    return Promise.all(
      partNumbers.map(async (partNumber) => ({
        partNumber,
        url: await getSignedUrl(
          this.signer,
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber: partNumber,
          }),
          { expiresIn },
        ),
        method: 'PUT' as const,
        headers: {},
        reportDone: true,
      })),
    );
  }

  async completeMultipartUpload(key: string, uploadId: string, parts: StoredPart[]): Promise<void> {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    } catch (error) {
      // Completing twice: the upload id is gone but the object exists.
      if ((error as { name?: string }).name === 'NoSuchUpload' && (await this.stat(key))) return;
      throw error;
    }
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      const name = (error as { name?: string }).name;
      // Already aborted or completed: nothing left. A store without AbortMultipartUpload (some
      // S3-compatible servers) cannot be made to: its bucket lifecycle rule for incomplete
      // uploads frees the parts, and retrying would never succeed.
      if (name === 'NoSuchUpload' || name === 'NotImplemented' || name === 'MethodNotAllowed') return;
      throw error;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: out.ContentLength ?? 0, ...(out.ETag ? { etag: out.ETag } : {}) };
    } catch (error) {
      if (
        error instanceof NotFound ||
        error instanceof NoSuchKey ||
        (error as { name?: string }).name === 'NotFound'
      ) {
        return null;
      }
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return out.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey) throw new StorageError('not-found', `no object ${key}`);
      throw error;
    }
  }

  async write(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async writeFile(key: string, file: string, contentType: string): Promise<void> {
    // One PUT (up to 5 GB) streamed from disk; the length is known, so nothing is buffered.
    const { size } = await fsp.stat(file);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: fs.createReadStream(file),
        ContentLength: size,
        ContentType: contentType,
      }),
    );
  }

  /**
   * A presigned GET. S3 cannot ask whether the session is still alive, so the URL is short-lived
   * (the caller's window); signed at the window's start, it stays the same for the whole window.
   */
  async readUrl(key: string, expiresAt: Date, options: ReadUrlOptions = {}): Promise<string> {
    const signingDate = options.signedAt ?? new Date();
    const expiresIn = Math.max(60, Math.floor((expiresAt.getTime() - signingDate.getTime()) / 1000));
    return getSignedUrl(
      this.signer,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ...(options.fileName
          ? {
              ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(options.fileName)}`,
            }
          : {}),
      }),
      { expiresIn, signingDate },
    );
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible stores answer 404 instead.
      const name = (error as { name?: string }).name;
      if (
        error instanceof NoSuchKey ||
        error instanceof NotFound ||
        name === 'NoSuchKey' ||
        name === 'NotFound'
      )
        return;
      throw error;
    }
  }

  /** ListObjectsV2, 1,000 keys a page, following the continuation token. */
  async *list(): AsyncIterable<ListedObject[]> {
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          MaxKeys: 1000,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      const page = (out.Contents ?? []).flatMap((object) =>
        object.Key
          ? [{ key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) }]
          : [],
      );
      if (page.length > 0) yield page;
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }
}
