import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ContentKind, SniffedContent } from '../modules/media/sniff';
import { sniffStored } from '../modules/media/source-file';
import type { ObjectStorage } from '../storage/storage';
import { MissingToolError, run } from './tools';
import { ffmpegInput } from './video';

/** The longer side of a PDF's first page rendered for the preview. */
export const PREVIEW_SIDE = 2048;

/** A source the decoders refused: kept, marked "damaged", never retried. */
export class DamagedSourceError extends Error {
  override name = 'DamagedSourceError';
}

export type SourceKind = 'raster' | 'psd' | 'page' | 'video';

/** The decoder of each kind of content (modules/media/sniff.ts); none for the rest. */
export const SOURCE_KIND: Record<ContentKind, SourceKind | null> = {
  raster: 'raster',
  psd: 'psd',
  document: 'page',
  video: 'video',
  none: null,
};

export { Lanes } from '../lib/lanes';

/**
 * The media job's access to an upload's bytes: what they are (sniffed, never the name), a file
 * holding them, and the picture a tool makes of a document or a video.
 */
export class MediaSources {
  constructor(
    private readonly deps: {
      storage: ObjectStorage;
      /** Where a store's object is on disk (local driver), or null to download a copy. */
      localPath: (key: string) => string | null;
    },
  ) {}

  /** What the object's first bytes are (modules/media/sniff.ts): read in place, or a range of the store's object. */
  async sniff(key: string): Promise<SniffedContent> {
    return sniffStored(this.deps.storage, this.deps.localPath, key);
  }

  /**
   * The image file to decode: the source itself, or the first page (PDF/AI, rendered by poppler
   * at most 2048 px on its longer side) or a frame (video, ffmpeg) as a JPEG beside it. poppler
   * only ever gets a file sniffed as PDF, ffmpeg one sniffed as a video container, read with that
   * container's demuxer alone and no protocol but the file (jobs/video.ts `ffmpegInput`).
   */
  async imageOf(kind: SourceKind, file: string, content: SniffedContent): Promise<string> {
    if (kind === 'raster' || kind === 'psd') return file;
    const out = `${file}.frame`;
    const frame = (seek: string[]) =>
      run('ffmpeg', [
        '-v',
        'error',
        '-y',
        ...seek,
        ...ffmpegInput(file, content),
        '-frames:v',
        '1',
        '-q:v',
        '2',
        `${out}.jpg`,
      ]);
    try {
      if (kind === 'page') {
        await run('pdftoppm', [
          '-f',
          '1',
          '-l',
          '1',
          '-singlefile',
          '-jpeg',
          '-scale-to',
          String(PREVIEW_SIDE),
          file,
          out,
        ]);
      } else {
        // A frame at 2 s (SPEC §9); clips shorter than that give their first frame.
        await frame(['-ss', '2']).catch((error) => {
          if (error instanceof MissingToolError) throw error;
        });
        if (!fs.existsSync(`${out}.jpg`)) await frame([]);
      }
    } catch (error) {
      if (error instanceof MissingToolError) throw error;
      throw new DamagedSourceError(`${content.format}: ${(error as Error).message}`);
    }
    return `${out}.jpg`;
  }

  /**
   * Runs `work` on a file holding the object: the store's own file (local driver) when only sharp
   * reads it — no folder to make and remove (about a tenth of the main thread's work per
   * thumbnail) — else a private temp folder with the object downloaded or linked into it, for tools
   * that write beside their input (poppler, ffmpeg, the PSD composite). The copy is named after
   * what its bytes are (`sniffed`), never after the upload's name.
   */
  async withLocalCopy<T>(
    key: string,
    sniffed: string,
    toolsWriteBeside: boolean,
    work: (file: string) => Promise<T>,
  ): Promise<T> {
    const stored = this.deps.localPath(key);
    if (stored && !toolsWriteBeside) return work(stored);
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-media-'));
    try {
      let file = stored;
      if (!file) {
        file = path.join(dir, `source.${sniffed}`);
        await pipeline(await this.deps.storage.read(key), fs.createWriteStream(file));
      } else {
        // Tools write next to their input: give them a private link in the temp folder.
        const link = path.join(dir, `source.${sniffed}`);
        await fsp.symlink(file, link);
        file = link;
      }
      return await work(file);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }
}
