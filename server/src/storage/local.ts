import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  type ListedObject,
  type MediaBearer,
  type ObjectInfo,
  type ObjectStorage,
  type PartTarget,
  type ReadUrlOptions,
  StorageError,
  type StoredPart,
} from './storage';

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9/._-]*$/;
const SAFE_UPLOAD_ID = /^[0-9a-f-]{36}$/;

interface MultipartMeta {
  key: string;
  partSize: number;
}

/** How many multipart uploads' meta a process keeps in memory (one entry per upload in flight). */
const META_CACHE_SIZE = 256;
/** How much of a part is gathered before it goes to disk in one write. */
const WRITE_BATCH_BYTES = 1024 * 1024;
/** How much one read of an object takes from disk. */
export const READ_CHUNK_BYTES = 1024 * 1024;
/**
 * Objects as files under `root`. A multipart upload writes every part straight into its place in
 * one sparse file (offset = (n-1) × partSize), so completing is a rename, not a copy: upload
 * throughput stays that of a plain disk write. Which parts are stored is recorded by the caller
 * (the uploads service) once `writePart` returns; an interrupted part is simply sent again.
 */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  readonly browserOrigin = null;

  constructor(
    private readonly root: string,
    /** Makes the URL the browser PUTs a part to (the server's own part endpoint, signed). */
    private readonly partUrl: (
      claims: { key: string; uploadId: string; partNumber: number },
      expiresAt: Date,
    ) => string,
    /** Makes the URL the browser GETs an object from (the server's own media endpoint, signed). */
    private readonly mediaUrl: (
      claims: { key: string; fileName?: string; bearer?: MediaBearer },
      expiresAt: Date,
    ) => string = () => '',
  ) {}

  /**
   * The meta of multipart uploads whose parts this process received lately: read once per upload,
   * not once per part (it never changes). Whether the upload is still open is told by its data
   * file, opened for every part anyway (gone once completed or aborted, by any process).
   */
  private readonly metaCache = new Map<string, MultipartMeta>();

  async readUrl(key: string, expiresAt: Date, options: ReadUrlOptions = {}): Promise<string> {
    const { fileName, bearer } = options;
    return this.mediaUrl(
      { key, ...(fileName ? { fileName } : {}), ...(bearer ? { bearer } : {}) },
      expiresAt,
    );
  }

  /** The file of an object, for tools that read files (ffmpeg, pdftoppm). */
  pathOf(key: string): string {
    return this.objectPath(key);
  }

  private objectPath(key: string): string {
    if (!SAFE_KEY.test(key) || key.split('/').includes('..'))
      throw new StorageError('not-found', `bad key ${key}`);
    return path.join(this.root, key);
  }

  private uploadDir(uploadId: string): string {
    if (!SAFE_UPLOAD_ID.test(uploadId)) throw new StorageError('no-such-upload', 'bad upload id');
    return path.join(this.root, '.multipart', uploadId);
  }

  private async meta(uploadId: string): Promise<MultipartMeta> {
    try {
      return JSON.parse(await fsp.readFile(path.join(this.uploadDir(uploadId), 'meta.json'), 'utf8'));
    } catch {
      throw new StorageError('no-such-upload', `no multipart upload ${uploadId}`);
    }
  }

  private async cachedMeta(uploadId: string): Promise<MultipartMeta> {
    const cached = this.metaCache.get(uploadId);
    if (cached) return cached;
    const meta = await this.meta(uploadId);
    if (this.metaCache.size >= META_CACHE_SIZE) {
      // The oldest entry (a Map keeps insertion order): an upload that started longest ago.
      this.metaCache.delete(this.metaCache.keys().next().value as string);
    }
    this.metaCache.set(uploadId, meta);
    return meta;
  }

  async createMultipartUpload(key: string, _contentType: string, partSize: number): Promise<string> {
    this.objectPath(key);
    const uploadId = randomUUID();
    const dir = this.uploadDir(uploadId);
    await fsp.mkdir(dir, { recursive: true });
    await fsp.writeFile(path.join(dir, 'data'), '');
    await fsp.writeFile(
      path.join(dir, 'meta.json'),
      JSON.stringify({ key, partSize } satisfies MultipartMeta),
    );
    return uploadId;
  }

  async partTargets(
    key: string,
    uploadId: string,
    partNumbers: number[],
    expiresAt: Date,
  ): Promise<PartTarget[]> {
    return partNumbers.map((partNumber) => ({
      partNumber,
      url: this.partUrl({ key, uploadId, partNumber }, expiresAt),
      method: 'PUT' as const,
      headers: { 'content-type': 'application/octet-stream' },
      // The part endpoint (uploads' receiveLocalPart) records the part once it is on disk.
      reportDone: false,
    }));
  }

  /** Streams one part from the request into its place; refuses more bytes than a part may hold. */
  async writePart(key: string, uploadId: string, partNumber: number, body: Readable): Promise<StoredPart> {
    const meta = await this.cachedMeta(uploadId);
    if (meta.key !== key) throw new StorageError('no-such-upload', 'upload id belongs to another key');
    const dir = this.uploadDir(uploadId);
    let size = 0;
    const limit = meta.partSize;
    // The request's chunks (tens of KiB each) are gathered to about 1 MiB and written with one
    // positional writev: a sixteenth of the system calls, and at most ~1 MiB held per part.
    let file: fsp.FileHandle;
    try {
      file = await fsp.open(path.join(dir, 'data'), 'r+');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.metaCache.delete(uploadId);
      throw new StorageError('no-such-upload', `no multipart upload ${uploadId}`);
    }
    try {
      let position = (partNumber - 1) * meta.partSize;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (pendingBytes === 0) return;
        const { bytesWritten } = await file.writev(pending, position);
        if (bytesWritten !== pendingBytes) throw new Error(`short write: ${bytesWritten} of ${pendingBytes}`);
        position += pendingBytes;
        pending = [];
        pendingBytes = 0;
      };
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit)
          throw new StorageError('part-too-large', `part ${partNumber} exceeds ${limit} bytes`);
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= WRITE_BATCH_BYTES) await flush();
      }
      await flush();
    } finally {
      await file.close();
    }
    return { partNumber, size, etag: `"${partNumber}-${size}"` };
  }

  async completeMultipartUpload(key: string, uploadId: string, parts: StoredPart[]): Promise<void> {
    const target = this.objectPath(key);
    let meta: MultipartMeta;
    try {
      meta = await this.meta(uploadId);
    } catch (error) {
      // Already completed: the object is there and the multipart state is gone.
      if (await this.stat(key)) return;
      throw error;
    }
    const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    sorted.forEach((part, index) => {
      if (part.partNumber !== index + 1)
        throw new StorageError('missing-parts', `part ${index + 1} is missing`);
      if (index < sorted.length - 1 && part.size !== meta.partSize) {
        throw new StorageError('wrong-part-size', `part ${part.partNumber} has ${part.size} bytes`);
      }
    });
    const total = sorted.reduce((sum, p) => sum + p.size, 0);
    const dir = this.uploadDir(uploadId);
    this.metaCache.delete(uploadId);
    await fsp.truncate(path.join(dir, 'data'), total);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(path.join(dir, 'data'), target);
    await fsp.rm(dir, { recursive: true, force: true });
  }

  async abortMultipartUpload(_key: string, uploadId: string): Promise<void> {
    this.metaCache.delete(uploadId);
    await fsp.rm(this.uploadDir(uploadId), { recursive: true, force: true });
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const stat = await fsp.stat(this.objectPath(key));
      return stat.isFile() ? { size: stat.size } : null;
    } catch {
      return null;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.objectPath(key);
    if (!(await this.stat(key))) throw new StorageError('not-found', `no object ${key}`);
    // 1 MiB reads instead of 64 KiB: a sixteenth of the chunks through every stream a download
    // passes (zip writer, HTTP), at 1 MiB held per open object.
    return fs.createReadStream(file, {
      highWaterMark: READ_CHUNK_BYTES,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
  }

  async write(key: string, body: Buffer): Promise<void> {
    const file = this.objectPath(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    await fsp.writeFile(tmp, body);
    await fsp.rename(tmp, file);
  }

  async writeFile(key: string, source: string): Promise<void> {
    const file = this.objectPath(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    await fsp.copyFile(source, tmp);
    await fsp.rename(tmp, file);
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.objectPath(key), { force: true });
  }

  /** Walks the object tree (the `.multipart` folder of unfinished uploads aside), 1,000 per page. */
  async *list(): AsyncIterable<ListedObject[]> {
    let page: ListedObject[] = [];
    const walk = async function* (dir: string, prefix: string): AsyncIterable<ListedObject> {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const key = `${prefix}${entry.name}`;
        if (entry.isDirectory()) {
          if (prefix === '' && entry.name === '.multipart') continue;
          yield* walk(path.join(dir, entry.name), `${key}/`);
        } else if (entry.isFile()) {
          const stat = await fsp.stat(path.join(dir, entry.name)).catch(() => null);
          if (stat) yield { key, size: stat.size, lastModified: stat.mtime };
        }
      }
    };
    for await (const object of walk(this.root, '')) {
      page.push(object);
      if (page.length === 1000) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }
}
