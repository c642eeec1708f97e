import { EventEmitter, once } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough, Readable } from 'node:stream';
import { safeZipPath } from '@dam/contract';
import { crc32 as simdCrc32 } from '@node-rs/crc32';
import { ZipFile } from 'yazl';

/**
 * yazl checksums every byte with buffer-crc32, a table-driven CRC-32 in JavaScript (about
 * 250 MB/s). @node-rs/crc32 computes the same checksum with the CPU's carry-less multiply
 * (PCLMULQDQ/PMULL), about 11 GB/s here against 3–4.5 GB/s for zlib's own `crc32`: the checksum
 * runs on the event loop between reads, so its speed is a direct share of the zip's (issue 12).
 * yazl calls `crc32.unsigned(chunk, previousNumber)`; any other use keeps the original.
 */
const yazlCrc32 = createRequire(createRequire(import.meta.url).resolve('yazl'))('buffer-crc32') as {
  unsigned: (buffer: Buffer, previous?: number | Buffer) => number;
};
const jsCrc32 = yazlCrc32.unsigned;
/** What yazl checksums with from here on (a test checks it stays installed). */
export const zipChecksum = (buffer: Buffer, previous?: number | Buffer): number =>
  previous === undefined || typeof previous === 'number'
    ? simdCrc32(buffer, previous ?? 0)
    : jsCrc32(buffer, previous);
yazlCrc32.unsigned = zipChecksum;

/** The bytes of one entry, and its final name when it is only known once opened (a template with the pixel size). */
export interface OpenedEntry {
  stream: Readable;
  path?: string;
  /** Bytes the stream holds, when known before it is read (a rewritten original). */
  size?: number;
}

export interface ZipEntry {
  path: string;
  /** Store (no deflate) what is already compressed: JPEG, PNG, MP4… */
  compress: boolean;
  mtime: Date;
  open: () => Promise<OpenedEntry>;
}

export interface ZipSettled {
  aborted: boolean;
  /** Sources opened (at most one more than the entries written). */
  opened: number;
  total: number;
}

/**
 * What the zips being built are doing: how many are running and how many source streams they
 * hold open. `settled` is emitted once per zip when it finished or was aborted and every source
 * it opened is closed, so tests and the benchmark can see that a client leaving frees the work.
 */
class ZipActivity extends EventEmitter<{ settled: [ZipSettled] }> {
  running = 0;
  openSources = 0;
}
export const zipActivity = new ZipActivity();

/** `path`, or `name (2).ext`, `name (3).ext`… when a zip already has it (compared without case). */
export function uniquePath(taken: Set<string>, path: string): string {
  let candidate = path;
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const hasExt = dot > slash + 1;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    candidate = hasExt ? `${path.slice(0, dot)} (${n})${path.slice(dot)}` : `${path} (${n})`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

/**
 * Streams a zip (zip64 when needed) while it is built: entries are added one after another, the
 * next source opened while the current one streams (so a store's latency hides behind the
 * transfer), with back-pressure from the client down to the store, so memory stays flat whatever
 * the total size. Every entry path goes through `safeZipPath` (issue 9: names already stored may
 * be `..`, `C:`, `CON`…) and then `uniquePath`. A source that cannot be read does not truncate
 * the archive: its entry stays empty and `_download-problems.txt` at the end names it. `abort()`
 * (the client left) destroys the open sources and stops at once.
 */
export function streamZip(entries: ZipEntry[], problems: string[]): { stream: Readable; abort: () => void } {
  const zip = new ZipFile();
  const output = zip.outputStream as unknown as Readable;
  const taken = new Set<string>();
  const live = new Set<Readable>();
  let aborted = false;
  let pumped = false;
  let settled = false;
  let opened = 0;
  let wakeOnAbort: () => void = () => {};
  const abortSignal = new Promise<void>((resolve) => {
    wakeOnAbort = resolve;
  });

  zipActivity.running += 1;
  const settle = () => {
    if (settled || !pumped || live.size > 0) return;
    settled = true;
    zipActivity.running -= 1;
    zipActivity.emit('settled', { aborted, opened, total: entries.length });
  };
  const track = (stream: Readable) => {
    opened += 1;
    live.add(stream);
    zipActivity.openSources += 1;
    const release = () => {
      if (!live.delete(stream)) return;
      zipActivity.openSources -= 1;
      settle();
    };
    stream.once('close', release);
    stream.once('end', () => setImmediate(release));
  };
  const openAt = (index: number): Promise<OpenedEntry | Error> =>
    (entries[index] as ZipEntry).open().then(
      (result) => {
        track(result.stream);
        if (aborted) result.stream.destroy();
        return result;
      },
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );

  const pump = async () => {
    let ahead = entries.length > 0 ? openAt(0) : null;
    for (let i = 0; i < entries.length && ahead && !aborted; i++) {
      const entry = entries[i] as ZipEntry;
      const current = await ahead;
      ahead = i + 1 < entries.length ? openAt(i + 1) : null;
      if (aborted) break;
      const options = { compressionLevel: entry.compress ? 3 : 0, mtime: entry.mtime };
      if (current instanceof Error) {
        problems.push(`${entry.path}: ${current.message}`);
        zip.addBuffer(Buffer.alloc(0), uniquePath(taken, safeZipPath(entry.path)), options);
        continue;
      }
      // Names stored before the name rules (a folder `..`, `C:`, `CON`) would make yazl throw.
      const path = uniquePath(taken, safeZipPath(current.path ?? entry.path));
      const guard = new PassThrough();
      current.stream.on('error', (error) => {
        problems.push(`${path}: ${error.message}`);
        current.stream.unpipe(guard);
        guard.end();
      });
      current.stream.pipe(guard);
      zip.addReadStream(guard, path, options);
      await Promise.race([once(guard, 'end'), abortSignal]);
    }
    // Aborted while the next source was being opened: it is destroyed as soon as it opens.
    if (ahead) await ahead;
    if (!aborted) {
      if (problems.length > 0) {
        zip.addBuffer(
          Buffer.from(`${problems.join('\n')}\n`, 'utf8'),
          uniquePath(taken, '_download-problems.txt'),
          { compress: true },
        );
      }
      zip.end();
    }
  };
  pump()
    .catch((error: Error) => output.destroy(error))
    .finally(() => {
      pumped = true;
      settle();
    });

  return {
    stream: output,
    abort: () => {
      if (aborted) return;
      aborted = true;
      for (const source of live) source.destroy();
      output.destroy();
      wakeOnAbort();
    },
  };
}

export const emptyStream = () => Readable.from([]);
