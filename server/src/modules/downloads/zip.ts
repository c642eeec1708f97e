import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';

export interface ZipEntry {
  path: string;
  /** Store (no deflate) what is already compressed: JPEG, PNG, MP4… */
  compress: boolean;
  mtime: Date;
  open: () => Promise<Readable>;
}

/**
 * Streams a zip (zip64 when needed) while it is built: one source open at a time, back-pressure
 * from the client down to the store, so memory stays flat whatever the total size. A source that
 * cannot be read does not truncate the archive: its entry stays empty and `_download-problems.txt`
 * at the end names it. `abort()` (the client left) stops reading sources at once.
 */
export function streamZip(entries: ZipEntry[], problems: string[]): { stream: Readable; abort: () => void } {
  const zip = new ZipFile();
  let aborted = false;
  let current: Readable | null = null;
  let finished = 0;

  const finishOne = () => {
    finished += 1;
    if (finished === entries.length) end();
  };
  const end = () => {
    if (problems.length > 0) {
      zip.addBuffer(Buffer.from(`${problems.join('\n')}\n`, 'utf8'), '_download-problems.txt', {
        compress: true,
      });
    }
    zip.end();
  };

  for (const entry of entries) {
    zip.addReadStreamLazy(
      entry.path,
      { compressionLevel: entry.compress ? 3 : 0, mtime: entry.mtime },
      (callback) => {
        const guard = new PassThrough();
        guard.on('end', finishOne);
        if (aborted) {
          guard.end();
          callback(null, guard);
          return;
        }
        entry
          .open()
          .then((source) => {
            current = source;
            source.on('error', (error) => {
              problems.push(`${entry.path}: ${error.message}`);
              source.unpipe(guard);
              guard.end();
            });
            source.pipe(guard);
          })
          .catch((error: Error) => {
            problems.push(`${entry.path}: ${error.message}`);
            guard.end();
          });
        callback(null, guard);
      },
    );
  }
  if (entries.length === 0) end();

  return {
    stream: zip.outputStream as unknown as Readable,
    abort: () => {
      aborted = true;
      current?.destroy();
      (zip.outputStream as unknown as Readable).destroy();
    },
  };
}

export const emptyStream = () => Readable.from([]);
