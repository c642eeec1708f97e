import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { DownloadMetadata } from '@dam/contract';
import { Lanes } from '../../lib/lanes';
import type { ObjectStorage } from '../../storage/storage';
import { sniffStored } from '../media/source-file';
import { EMBEDDABLE_CONTENT, platformTags } from '../metadata/embed';
import type { EmbedFactsRepository } from '../metadata/embed.repository';
import type { EmbeddedMetadataTool } from '../metadata/exiftool';
import type { PlannedFile } from './plan';
import type { OpenedEntry } from './zip';

/**
 * Originals above this size go as they are (documented): rewriting one copies it whole to a
 * temporary file first, and a multi-gigabyte video master is not what the marks are for.
 */
export const EMBED_MAX_BYTES = 2 * 1024 ** 3;
/** Originals copied and rewritten at once in this process (disk and ExifTool's queue). */
const REWRITES_AT_ONCE = 2;
const EXTENSION_OF_CONTENT: Record<string, string> = { jpeg: 'jpg', png: 'png', tiff: 'tif', psd: 'psd' };

export interface MetadataWriterDependencies {
  storage: ObjectStorage;
  localPath: (key: string) => string | null;
  tool: EmbeddedMetadataTool;
  facts: EmbedFactsRepository;
  /** The key of the platform marks' signature (app_settings, made once). */
  secret: () => Promise<string>;
  warn: (details: Record<string, unknown>, message: string) => void;
}

/**
 * Metadata in downloads (issue 42 item 3): originals and converted images of JPG, PNG, TIFF and PSD
 * (by their bytes) carry the platform's XMP (and IPTC where the format has it), or, when the
 * download asks to strip, nothing but their ICC profile. Other formats may get an `.xmp` sidecar.
 */
export class DownloadMetadataWriter {
  private readonly lanes = new Lanes(REWRITES_AT_ONCE);

  constructor(private readonly deps: MetadataWriterDependencies) {}

  /**
   * The original rewritten in a temporary copy, or null when it goes as it is: not an embeddable
   * format, too large, or (embedding) no longer any record's. A failed embedding sends the original
   * as it is (the person gets the file, the log says why); a failed strip fails the entry, since
   * what it was to remove (a GPS position) would go out.
   */
  async original(file: PlannedFile, choice: Exclude<DownloadMetadata, 'keep'>): Promise<OpenedEntry | null> {
    const key = file.source.storage_key;
    if (file.source.file_size > EMBED_MAX_BYTES) return null;
    const content = await sniffStored(this.deps.storage, this.deps.localPath, key);
    if (!EMBEDDABLE_CONTENT.has(content.format)) return null;
    const facts = choice === 'embed' ? await this.deps.facts.ofObject(key) : null;
    if (choice === 'embed' && !facts) return null;
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-embed-'));
    const copy = path.join(dir, `file.${EXTENSION_OF_CONTENT[content.format]}`);
    try {
      await this.lanes.run(async () => {
        const local = this.deps.localPath(key);
        if (local) await fsp.copyFile(local, copy);
        else await pipeline(await this.deps.storage.read(key), fs.createWriteStream(copy));
        if (facts)
          await this.deps.tool.write(copy, platformTags(facts, content.format, await this.deps.secret()));
        else await this.deps.tool.write(copy, {}, { deleteFirst: true });
      });
    } catch (error) {
      await removeDir(dir);
      if (choice === 'strip') throw error;
      this.deps.warn({ key, err: error }, 'download sent without the platform metadata');
      return null;
    }
    return streamAndRemove(copy, dir);
  }

  /**
   * The platform's XMP of an original as a sidecar file (issue 42: a PDF, AI or video download
   * asked for them). ExifTool makes the file from nothing; a record no longer there is the
   * entry's problem, as its original is.
   */
  async sidecar(file: PlannedFile): Promise<OpenedEntry> {
    const facts = await this.deps.facts.ofObject(file.source.storage_key);
    if (!facts) throw new Error('the file is no longer there');
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-sidecar-'));
    const sidecar = path.join(dir, 'file.xmp');
    try {
      await this.deps.tool.write(sidecar, platformTags(facts, 'xmp', await this.deps.secret()));
    } catch (error) {
      await removeDir(dir);
      throw error;
    }
    return streamAndRemove(sidecar, dir);
  }

  /** Writes the platform's metadata into a converted image (the converter's own temporary file). */
  async converted(target: string, output: 'jpg' | 'png', file: PlannedFile): Promise<void> {
    const facts = await this.deps.facts.ofObject(file.source.storage_key);
    if (!facts) return;
    const format = output === 'jpg' ? 'jpeg' : 'png';
    await this.deps.tool.write(target, platformTags(facts, format, await this.deps.secret()));
  }
}

/** A read stream of `file` whose folder goes once the stream closes, and the file's size. */
async function streamAndRemove(file: string, dir: string): Promise<OpenedEntry & { size: number }> {
  const { size } = await fsp.stat(file);
  const stream = fs.createReadStream(file);
  stream.once('close', () => void removeDir(dir));
  return { stream, size };
}

const removeDir = (dir: string) => fsp.rm(dir, { recursive: true, force: true }).catch(() => undefined);
