import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type ArtNumDownloadPayload,
  type BatchDownloadRequest,
  CONVERTIBLE_TARGETS,
  DEFAULT_PRESET_BACKGROUND,
  Flag,
  ItemState,
  ItemType,
  MAX_SCALING_PX,
  renderFileName,
  safeFileNamePart,
  UNMATCHED_ART_NUMS_FILE,
} from '@dam/contract';
import { AppError, coded, invalidField } from '../../http/app-error';
import { type Clock, calendarDate } from '../../lib/clock';
import { decodeImage, SHARP_FORMATS } from '../../media/decode';
import { encodeCost, ImageTooLargeError, type ImageWork, readImageHeader } from '../../media/image-limits';
import type { ObjectStorage } from '../../storage/storage';
import { type AuthContext, fileScopeFilter } from '../access/access';
import { canDownload, canSee } from '../items/policy';
import { isExpired, joinPath } from '../items/presenter';
import type { PresetRow } from '../presets/repository';
import type { DownloadSource, DownloadsRepository } from './repository';
import { type OpenedEntry, uniquePath, type ZipEntry } from './zip';

/** Already compressed: stored as they are, deflating them would only cost CPU. */
const STORE_ONLY = new Set([
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'mp4',
  'mov',
  'avi',
  'mkv',
  'webm',
  'rmvb',
  'mpeg',
  'zip',
  'rar',
  '7z',
  'gz',
  'pdf',
  'heic',
  'avif',
]);
/** Image formats converted to JPG/PNG, best source first. */
const CONVERSION_SOURCES = ['psd', ...SHARP_FORMATS];
const IMAGE_FORMATS = new Set(CONVERSION_SOURCES);
/** What is fetched of an object in S3 to read its header before copying it whole. */
const HEADER_BYTES = 64 * 1024;
/** Sources copied from S3 to temporary files for conversion at once, per process. */
const SOURCE_COPIES = 2;

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  psd: 'image/vnd.adobe.photoshop',
};

/** How a preset names one output; width and height are filled in once the image is decoded. */
export interface OutputNaming {
  template: string;
  /** Folder inside the zip (`Campaign/Details/`, `SHOE1/`), or ''. */
  folder: string;
  name: string;
  artNum: string | null;
  index: number;
}

export interface PlannedFile {
  path: string;
  itemId: number;
  source: Pick<DownloadSource, 'storage_key' | 'format' | 'file_size'>;
  /** Re-encode to this format (conversion, scaling or a preset); null = the original bytes. */
  output: 'jpg' | 'png' | null;
  scalePx: number | null;
  /**
   * A preset's size is reached by enlarging too (up to MAX_SCALING_PX); equal scaling only ever
   * shrinks, so a small image is never blown up into a huge one.
   */
  enlarge?: boolean;
  /** Fill for transparent areas; JPG output is always flattened (white when null). */
  background: string | null;
  /** A preset's file-name template; null = `path` as planned. */
  naming: OutputNaming | null;
}

export interface DownloadPlan {
  files: PlannedFile[];
  problems: string[];
  /** Text files added at the end of the zip (the unmatched article numbers). */
  notes: Array<{ path: string; text: string }>;
  /** Always a zip, even for one file (a folder per article number). */
  forceZip: boolean;
}

type ItemSources = DownloadSource[];

/** How long a download link stays usable. */
export const TICKET_LIFETIME_MS = 5 * 60 * 1000;
const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/**
 * What one file contributes to a download: each wanted format (converted from the best image
 * source when it lacks a JPG/PNG asked for), or, with a preset, one image in the preset's format
 * plus its non-image formats as they are.
 */
function outputsOf(
  itemSources: ItemSources,
  requested: string[],
  folder: string,
  scalePx: number | null,
  preset: PresetRow | null,
  nextIndex: (key: string) => number,
): Array<Omit<PlannedFile, 'itemId'>> {
  const first = itemSources[0] as DownloadSource;
  const wantsAll = requested.length === 0 || requested.includes('all');
  const available = new Map(itemSources.map((s) => [s.format, s]));
  const wanted = [...new Set(wantsAll ? [...available.keys()] : requested)];
  const out: Array<Omit<PlannedFile, 'itemId'>> = [];
  const named = (format: string) => `${folder}${first.item_name}.${format}`;

  if (preset) {
    const imageWanted = wanted.some(
      (f) => IMAGE_FORMATS.has(f) || (CONVERTIBLE_TARGETS as readonly string[]).includes(f),
    );
    const own =
      preset.format === 'jpg' ? (available.get('jpg') ?? available.get('jpeg')) : available.get('png');
    const from = own ?? CONVERSION_SOURCES.map((f) => available.get(f)).find((s) => s !== undefined);
    if (imageWanted && from) {
      const index = nextIndex((first.art_num || first.item_name).toLowerCase());
      const naming: OutputNaming = {
        template: preset.file_name_template,
        folder,
        name: first.item_name,
        artNum: first.art_num,
        index,
      };
      out.push({
        path: `${folder}${renderFileName(naming.template, {
          ...naming,
          format: preset.format,
          ...scaledSize(from.width, from.height, preset.long_side_px, true),
        })}`,
        source: from,
        output: preset.format,
        scalePx: preset.long_side_px,
        enlarge: true,
        background: preset.background ?? (preset.format === 'jpg' ? DEFAULT_PRESET_BACKGROUND : null),
        naming,
      });
    }
    for (const format of wanted) {
      const source = available.get(format);
      if (!source || IMAGE_FORMATS.has(format)) continue;
      out.push({ path: named(format), source, output: null, scalePx: null, background: null, naming: null });
    }
    return out;
  }

  for (const format of wanted) {
    const own = available.get(format);
    const canScale = scalePx !== null && (format === 'jpg' || format === 'jpeg' || format === 'png');
    if (own) {
      out.push({
        path: named(format),
        source: own,
        output: canScale ? (format === 'png' ? 'png' : 'jpg') : null,
        scalePx: canScale ? scalePx : null,
        background: null,
        naming: null,
      });
      continue;
    }
    if (!(CONVERTIBLE_TARGETS as readonly string[]).includes(format)) continue;
    const from = CONVERSION_SOURCES.map((f) => available.get(f)).find((s) => s !== undefined);
    if (!from) continue;
    out.push({
      path: named(format),
      source: from,
      output: format as 'jpg' | 'png',
      scalePx,
      background: null,
      naming: null,
    });
  }
  return out;
}

/**
 * Pixel size of an output whose longer side becomes `longSidePx` (null: unchanged), at most
 * MAX_SCALING_PX; without `enlarge`, an image already that small keeps its size.
 */
export function scaledSize(
  width: number | null,
  height: number | null,
  longSidePx: number | null,
  enlarge = false,
): { width: number; height: number } {
  if (!width || !height) return { width: 0, height: 0 };
  if (!longSidePx) return { width, height };
  const longSide = Math.min(longSidePx, MAX_SCALING_PX);
  if (!enlarge && longSide >= Math.max(width, height)) return { width, height };
  const factor = longSide / Math.max(width, height);
  return {
    width: Math.max(1, Math.round(width * factor)),
    height: Math.max(1, Math.round(height * factor)),
  };
}

/** Groups sources by file, keeping the query's order (folder path, name, format). */
function byItem(sources: DownloadSource[]): Map<number, ItemSources> {
  const grouped = new Map<number, ItemSources>();
  for (const source of sources) {
    const list = grouped.get(source.item_id);
    if (list) list.push(source);
    else grouped.set(source.item_id, [source]);
  }
  return grouped;
}

function indexCounter(): (key: string) => number {
  const counts = new Map<string, number>();
  return (key) => {
    const next = (counts.get(key) ?? 0) + 1;
    counts.set(key, next);
    return next;
  };
}

/** SPEC §7 batch-download: what goes into a download, then its bytes, converted and scaled as asked. */
export class DownloadsService {
  constructor(
    private readonly downloads: DownloadsRepository,
    private readonly storage: ObjectStorage,
    private readonly clock: Clock,
    private readonly presetOf: (id: number) => Promise<PresetRow>,
    /** Time zone whose calendar decides "today" for file validity (SPEC §4). */
    private readonly timeZone: string,
    /** The pixel limit and image memory budget conversions share with the media jobs. */
    private readonly images: ImageWork,
    /** Where a stored object is on disk (local driver), or null: it is then copied to convert it. */
    private readonly localPath: (key: string) => string | null = () => null,
    private readonly warn: (details: Record<string, unknown>, message: string) => void = () => {},
  ) {}

  /** Sources being copied from object storage to convert them, and those waiting their turn. */
  private copying = 0;
  private readonly copyQueue: Array<() => void> = [];

  /** Whether a file's validity (SPEC §4) has ended or not yet begun today. */
  private expiredToday(): (source: DownloadSource) => boolean {
    const today = calendarDate(this.clock.now(), this.timeZone);
    return (source) => isExpired(source.expire_start_date ?? null, source.expire_end_date ?? null, today);
  }

  /** Checks every permission before a byte is sent; counts one download per file included. */
  async plan(
    auth: AuthContext,
    request: BatchDownloadRequest,
    /** `withoutExpired`: expired files are left out (share links hand none out). */
    options: { count?: boolean; withoutExpired?: boolean } = {},
  ): Promise<DownloadPlan> {
    const expired = options.withoutExpired ? this.expiredToday() : () => false;
    const preset = request.presetId ? await this.presetOf(request.presetId) : null;
    const formatsById = new Map<number, string[]>();
    for (const id of request.folderDataIdList) formatsById.set(id, []);
    for (const entry of request.downloadFolderDataDTOList)
      formatsById.set(entry.folderDataId, entry.fileFormatList);
    const rootIds = [...formatsById.keys()];

    return this.downloads.transaction(async (repo) => {
      const roots = await repo.itemsByIds(rootIds);
      if (roots.length !== rootIds.length) throw new AppError('SE_404');
      for (const root of roots) {
        if (!canSee(auth, root)) throw new AppError('SE_404');
        if (root.state !== ItemState.normal) throw new AppError('SEF_04');
        if (root.type !== ItemType.folder && !canDownload(auth, root)) throw new AppError('SE_502');
      }
      const records = await repo.recordsByIds(request.uploadIdList);
      if (records.length !== new Set(request.uploadIdList).size) throw new AppError('SE_404');
      for (const record of records) {
        if (!canSee(auth, record)) throw new AppError('SE_404');
        if (!canDownload(auth, record)) throw new AppError('SE_502');
        if (record.state !== ItemState.normal) throw new AppError('SEF_04');
      }

      const scalePx = request.equalScalingPx ?? null;
      const taken = new Set<string>();
      const problems: string[] = [];
      const files: PlannedFile[] = [];
      const nextIndex = indexCounter();
      const sources = await repo.sourcesOf(rootIds, {
        userId: auth.userId,
        view: fileScopeFilter(auth, 'view'),
      });

      for (const [itemId, itemSources] of byItem(sources)) {
        const first = itemSources[0] as DownloadSource;
        // The selected item this file belongs to: the deepest root on its id path.
        const root = roots
          .filter((r) => first.id_path.startsWith(r.id_path))
          .sort((a, b) => b.id_path.length - a.id_path.length)[0];
        if (!root) continue;
        // Inside a selected folder, paths start at that folder: `/A/B` selected, `/A/B/C/x` → `B/C/x`.
        const rootPath = joinPath(root.folder_path, root.name);
        const folderPrefix =
          root.type === ItemType.folder
            ? `${root.name}${first.item_folder_path.slice(rootPath.length)}/`.replace(/^\/+/, '')
            : '';
        if (!canDownload(auth, first)) {
          problems.push(`${folderPrefix}${first.item_name}: no download permission`);
          continue;
        }
        // Left out without a word: a share link's visitor does not see expired files either.
        if (expired(first)) continue;
        for (const file of outputsOf(
          itemSources,
          formatsById.get(root.id) ?? [],
          folderPrefix,
          scalePx,
          preset,
          nextIndex,
        )) {
          files.push({ ...file, itemId, path: uniquePath(taken, file.path) });
        }
      }
      for (const record of records) {
        const source = {
          ...record,
          id_path: '',
          item_id: record.item_id,
          expire_start_date: null,
          expire_end_date: null,
        } as DownloadSource;
        const planned = preset
          ? outputsOf([source], [record.format], '', null, preset, nextIndex)
          : outputsOf([source], [record.format], '', scalePx, null, nextIndex);
        for (const file of planned) {
          // A record keeps its own file name unless a preset names it.
          const path = file.naming ? file.path : record.file_name;
          files.push({ ...file, itemId: record.item_id, path: uniquePath(taken, path) });
        }
      }
      // Only the share-link download path sets isShareDownload (signed-in routes force 0).
      if (options.count !== false)
        await repo.countDownloads(
          [...new Set(files.map((f) => f.itemId))],
          request.isShareDownload === Flag.yes,
        );
      return { files, problems, notes: [], forceZip: false };
    });
  }

  /**
   * Download by article numbers: a folder per article number with the files carrying it that
   * the caller may download, and a list of the numbers that matched nothing. Nothing matched at
   * all is an error (SEDL_02), not an empty zip. Expired files (SPEC §4) are left out.
   */
  async planByArtNums(
    auth: AuthContext,
    request: ArtNumDownloadPayload,
    options: { count?: boolean } = {},
  ): Promise<DownloadPlan> {
    const preset = request.presetId ? await this.presetOf(request.presetId) : null;
    const expired = this.expiredToday();
    return this.downloads.transaction(async (repo) => {
      const sources = await repo.sourcesByArtNums(request.artNumList, {
        userId: auth.userId,
        view: fileScopeFilter(auth, 'view'),
      });
      const byArtNum = new Map<string, ItemSources[]>();
      const problems: string[] = [];
      for (const itemSources of byItem(sources).values()) {
        const first = itemSources[0] as DownloadSource;
        const key = (first.art_num ?? '').toLowerCase();
        if (!canDownload(auth, first)) {
          problems.push(`${first.art_num}/${first.item_name}: no download permission`);
          continue;
        }
        if (expired(first)) {
          problems.push(`${first.art_num}/${first.item_name}: expired`);
          continue;
        }
        byArtNum.set(key, [...(byArtNum.get(key) ?? []), itemSources]);
      }
      const taken = new Set<string>();
      const files: PlannedFile[] = [];
      const unmatched: string[] = [];
      const nextIndex = indexCounter();
      for (const artNum of request.artNumList) {
        const before = files.length;
        const folder = `${safeFileNamePart(artNum)}/`;
        for (const itemSources of byArtNum.get(artNum.toLowerCase()) ?? []) {
          const first = itemSources[0] as DownloadSource;
          for (const file of outputsOf(itemSources, request.formats, folder, null, preset, nextIndex)) {
            files.push({ ...file, itemId: first.item_id, path: uniquePath(taken, file.path) });
          }
        }
        if (files.length === before) unmatched.push(artNum);
      }
      if (files.length === 0) throw new AppError('SEDL_02');
      if (options.count !== false) await repo.countDownloads([...new Set(files.map((f) => f.itemId))]);
      const notes =
        unmatched.length > 0 ? [{ path: UNMATCHED_ART_NUMS_FILE, text: `${unmatched.join('\n')}\n` }] : [];
      return { files, problems, notes, forceZip: true };
    });
  }

  /**
   * The bytes of one planned file: the original stream, or a converted/scaled image. An image
   * beyond the pixel limit or the image memory budget is SEDL_04.
   */
  async open(file: PlannedFile): Promise<OpenedEntry> {
    try {
      return await this.openEntry(file);
    } catch (error) {
      if (error instanceof ImageTooLargeError)
        throw coded('SEDL_04', { width: error.width, height: error.height, limit: error.maxPixels });
      throw error;
    }
  }

  private async openEntry(file: PlannedFile): Promise<OpenedEntry> {
    if (!file.output) return { stream: await this.storage.read(file.source.storage_key) };
    return this.convert(file, file.output);
  }

  /**
   * Converts (and scales) one image within the process's image budget (media/image-limits.ts).
   * The source is read where it is stored (local driver); on S3 its first 64 KiB are fetched
   * and its pixel size checked before the whole object is copied to a temporary file, at most
   * `SOURCE_COPIES` at once. Its header is checked, then, once the memory its decoding takes is
   * free, it is decoded and encoded into a temporary file, which is what streams out. So N
   * downloads at once wait their turn instead of multiplying memory or disk, and a slow client
   * holds a file open, not decoded pixels. JPEG is written without optimised Huffman tables,
   * which would hold every coefficient of the image until the end.
   */
  private async convert(file: PlannedFile, output: 'jpg' | 'png'): Promise<OpenedEntry> {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-convert-'));
    // A failed removal is only a stray temporary folder: reported, never an unhandled rejection.
    const cleanup = () =>
      fsp
        .rm(dir, { recursive: true, force: true })
        .catch((error) => this.warn({ err: error, dir }, 'could not remove a conversion folder'));
    try {
      const isPsd = file.source.format === 'psd';
      const format = isPsd ? 'psd' : 'image';
      const extension = safeFileNamePart(file.source.format);
      const input = await this.sourceFile(
        file.source.storage_key,
        path.join(dir, `source.${extension}`),
        format,
      );
      const header = await readImageHeader(input, format);
      this.images.check(header);
      // The decoded size (after EXIF orientation) names and scales the output exactly.
      const size = scaledSize(header.uprightWidth, header.uprightHeight, file.scalePx, file.enlarge ?? false);
      const background = output === 'jpg' ? (file.background ?? DEFAULT_PRESET_BACKGROUND) : file.background;
      const target = path.join(dir, `output.${output}`);
      // A PSD kept transparent is handed to sharp as raw pixels, which it copies.
      const copied = isPsd && !background ? header.width * header.height * 4 : 0;
      await this.images.run(header.cost + copied + encodeCost(size.width), async () => {
        let image = await decodeImage(input, {
          format,
          background,
          limitInputPixels: this.images.limits.maxPixels,
          scratchDir: dir,
        });
        if (size.width !== header.uprightWidth || size.height !== header.uprightHeight)
          image = image.resize(size.width, size.height, { fit: 'fill' });
        image =
          output === 'jpg'
            ? image.jpeg({ quality: 92, chromaSubsampling: '4:4:4', optimiseCoding: false })
            : image.png();
        await image.toFile(target);
      });
      const stream = fs.createReadStream(target);
      stream.once('close', () => void cleanup());
      const named = file.naming
        ? `${file.naming.folder}${renderFileName(file.naming.template, {
            ...file.naming,
            format: output,
            width: size.width,
            height: size.height,
          })}`
        : undefined;
      return named ? { stream, path: named } : { stream };
    } catch (error) {
      await cleanup();
      throw error;
    }
  }

  /**
   * The file to decode a stored object from: the stored file itself (local driver), or a copy at
   * `copy` once the object's first bytes show an image within the pixel limit. A header beyond
   * the first 64 KiB (a TIFF's directory written last, a PSD's sections) is checked on the copy.
   */
  private async sourceFile(key: string, copy: string, format: 'psd' | 'image'): Promise<string> {
    const local = this.localPath(key);
    if (local) return local;
    const head = `${copy}.head`;
    await pipeline(
      await this.storage.read(key, { start: 0, end: HEADER_BYTES - 1 }),
      fs.createWriteStream(head),
    );
    const early = await readImageHeader(head, format).catch(() => null);
    await fsp.rm(head, { force: true });
    // Only the pixel size is trusted from a truncated file; the cost is estimated on the whole one.
    if (early) this.images.check({ ...early, cost: 0 });
    if (this.copying >= SOURCE_COPIES) await new Promise<void>((start) => this.copyQueue.push(start));
    else this.copying++;
    try {
      await pipeline(await this.storage.read(key), fs.createWriteStream(copy));
    } finally {
      const next = this.copyQueue.shift();
      if (next) next();
      else this.copying--;
    }
    return copy;
  }

  zipEntries(plan: DownloadPlan): ZipEntry[] {
    const now = this.clock.now();
    return [
      ...plan.files.map((file) => ({
        path: file.path,
        compress: !STORE_ONLY.has(file.output ?? file.source.format),
        mtime: now,
        // A problem (an image too large…) names the entry in `_download-problems.txt`.
        open: () => this.openEntry(file),
      })),
      ...plan.notes.map((note) => ({
        path: note.path,
        compress: true,
        mtime: now,
        open: async () => ({ stream: Readable.from([Buffer.from(note.text, 'utf8')]) }),
      })),
    ];
  }

  /**
   * A short link for a request too long to sign into a URL (up to 10,000 article numbers): the
   * request is stored under the SHA-256 of a random ticket for `TICKET_LIFETIME_MS`, bound to
   * the caller's session.
   */
  createTicket(auth: AuthContext, kind: string, request: unknown): Promise<string> {
    return this.issueTicket({ sessionId: auth.sessionId }, kind, request);
  }

  /** The same for a share link's visitor: the ticket belongs to the link, not to a session. */
  createShareTicket(shareId: number, kind: string, request: unknown): Promise<string> {
    return this.issueTicket({ shareId }, kind, request);
  }

  private async issueTicket(
    holder: { sessionId: number } | { shareId: number },
    kind: string,
    request: unknown,
  ): Promise<string> {
    const ticket = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await this.downloads.saveTicket({
      tokenHash: hashTicket(ticket),
      holder,
      kind,
      request,
      expiresAt: new Date(now.getTime() + TICKET_LIFETIME_MS),
      now,
    });
    return ticket;
  }

  /** The stored request and session of a ticket still valid; `invalidToken` otherwise. */
  async redeemTicket(ticket: string, kind: string): Promise<{ sessionId: number; request: unknown }> {
    const row = await this.downloads.ticket(hashTicket(ticket), kind, this.clock.now());
    if (!row || row.session_id === null) throw invalidField('ticket', 'invalidToken');
    const request = typeof row.request === 'string' ? JSON.parse(row.request) : row.request;
    return { sessionId: row.session_id, request };
  }

  /** The stored request and share link of a visitor's ticket still valid; `invalidToken` otherwise. */
  async redeemShareTicket(ticket: string, kind: string): Promise<{ shareId: number; request: unknown }> {
    const row = await this.downloads.ticket(hashTicket(ticket), kind, this.clock.now());
    if (!row || row.share_id === null) throw invalidField('ticket', 'invalidToken');
    const request = typeof row.request === 'string' ? JSON.parse(row.request) : row.request;
    return { shareId: row.share_id, request };
  }

  contentTypeOf(file: PlannedFile): string {
    return CONTENT_TYPES[file.output ?? file.source.format] ?? 'application/octet-stream';
  }
}
