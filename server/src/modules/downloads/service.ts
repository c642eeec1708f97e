import { PassThrough, type Readable } from 'node:stream';
import { type BatchDownloadRequest, CONVERTIBLE_TARGETS } from '@dam/contract';
import { readPsd } from 'ag-psd';
import sharp, { type Sharp } from 'sharp';
// ag-psd's canvas hooks (raw pixel buffers) are installed by the media module.
import '../../jobs/media';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { ObjectStorage } from '../../storage/storage';
import { type AuthContext, fileScopeFilter } from '../access/access';
import { canDownload, canSee } from '../items/policy';
import { joinPath } from '../items/presenter';
import type { DownloadSource, DownloadsRepository } from './repository';
import type { ZipEntry } from './zip';

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
/** Image formats sharp decodes, best source first when converting to JPG/PNG. */
const SHARP_SOURCES = ['tif', 'tiff', 'png', 'jpg', 'jpeg', 'bmp', 'webp', 'gif', 'avif', 'heic'];
const CONVERSION_SOURCES = ['psd', ...SHARP_SOURCES];

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

export interface PlannedFile {
  path: string;
  itemId: number;
  source: Pick<DownloadSource, 'storage_key' | 'format' | 'file_size'>;
  /** Re-encode to this format (conversion or scaling); null = the original bytes. */
  output: 'jpg' | 'png' | null;
  scalePx: number | null;
}

export interface DownloadPlan {
  files: PlannedFile[];
  problems: string[];
}

function uniquePath(taken: Set<string>, path: string): string {
  let candidate = path;
  const dot = path.lastIndexOf('.');
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    candidate = dot > 0 ? `${path.slice(0, dot)} (${n})${path.slice(dot)}` : `${path} (${n})`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** SPEC §7 batch-download: what goes into a download, then its bytes, converted and scaled as asked. */
export class DownloadsService {
  constructor(
    private readonly downloads: DownloadsRepository,
    private readonly storage: ObjectStorage,
    private readonly clock: Clock,
  ) {}

  /** Checks every permission before a byte is sent; counts one download per file included. */
  async plan(
    auth: AuthContext,
    request: BatchDownloadRequest,
    options: { count: boolean } = { count: true },
  ): Promise<DownloadPlan> {
    const formatsById = new Map<number, string[]>();
    for (const id of request.folderDataIdList) formatsById.set(id, []);
    for (const entry of request.downloadFolderDataDTOList)
      formatsById.set(entry.folderDataId, entry.fileFormatList);
    const rootIds = [...formatsById.keys()];
    const roots = await this.downloads.itemsByIds(rootIds);
    if (roots.length !== rootIds.length) throw new AppError('SE_404');
    for (const root of roots) {
      if (!canSee(auth, root)) throw new AppError('SE_502');
      if (root.state !== 1) throw new AppError('SEF_04');
      if (root.type !== 1 && !canDownload(auth, root)) throw new AppError('SE_502');
    }
    const records = await this.downloads.recordsByIds(request.uploadIdList);
    if (records.length !== new Set(request.uploadIdList).size) throw new AppError('SE_404');
    for (const record of records) {
      if (!canSee(auth, record) || !canDownload(auth, record)) throw new AppError('SE_502');
      if (record.state !== 1) throw new AppError('SEF_04');
    }

    const scalePx = request.equalScalingPx ?? null;
    const taken = new Set<string>();
    const problems: string[] = [];
    const files: PlannedFile[] = [];
    const sources = await this.downloads.sourcesOf(rootIds, {
      userId: auth.userId,
      view: fileScopeFilter(auth, 'view'),
    });
    const byItem = new Map<number, DownloadSource[]>();
    for (const source of sources) byItem.set(source.item_id, [...(byItem.get(source.item_id) ?? []), source]);

    for (const [itemId, itemSources] of byItem) {
      const first = itemSources[0] as DownloadSource;
      // The selected item this file belongs to: the deepest root on its id path.
      const root = roots
        .filter((r) => first.id_path.startsWith(r.id_path))
        .sort((a, b) => b.id_path.length - a.id_path.length)[0];
      if (!root) continue;
      // Inside a selected folder, paths start at that folder: `/A/B` selected, `/A/B/C/x` → `B/C/x`.
      const rootPath = joinPath(root.folder_path, root.name);
      const folderPrefix =
        root.type === 1
          ? `${root.name}${first.item_folder_path.slice(rootPath.length)}/`.replace(/^\/+/, '')
          : '';
      if (!canDownload(auth, first)) {
        problems.push(`${folderPrefix}${first.item_name}: no download permission`);
        continue;
      }
      const requested = formatsById.get(root.id) ?? [];
      const wantsAll = requested.length === 0 || requested.includes('all');
      const available = new Map(itemSources.map((s) => [s.format, s]));
      const wanted = wantsAll ? [...available.keys()] : requested;
      for (const format of new Set(wanted)) {
        const own = available.get(format);
        const canScale = scalePx !== null && (format === 'jpg' || format === 'jpeg' || format === 'png');
        if (own) {
          files.push({
            path: uniquePath(taken, `${folderPrefix}${first.item_name}.${format}`),
            itemId,
            source: own,
            output: canScale ? (format === 'png' ? 'png' : 'jpg') : null,
            scalePx: canScale ? scalePx : null,
          });
          continue;
        }
        if (!(CONVERTIBLE_TARGETS as readonly string[]).includes(format)) continue;
        const from = CONVERSION_SOURCES.map((f) => available.get(f)).find((s) => s !== undefined);
        if (!from) continue;
        files.push({
          path: uniquePath(taken, `${folderPrefix}${first.item_name}.${format}`),
          itemId,
          source: from,
          output: format as 'jpg' | 'png',
          scalePx,
        });
      }
    }
    for (const record of records) {
      const canScale = scalePx !== null && ['jpg', 'jpeg', 'png'].includes(record.format);
      files.push({
        path: uniquePath(taken, record.file_name),
        itemId: record.item_id,
        source: record,
        output: canScale ? (record.format === 'png' ? 'png' : 'jpg') : null,
        scalePx: canScale ? scalePx : null,
      });
    }
    if (options.count) await this.downloads.countDownloads([...new Set(files.map((f) => f.itemId))]);
    return { files, problems };
  }

  /** The bytes of one planned file: the original stream, or a converted/scaled image stream. */
  async open(file: PlannedFile): Promise<Readable> {
    const original = await this.storage.read(file.source.storage_key);
    if (!file.output) return original;
    let image: Sharp;
    if (file.source.format === 'psd') {
      const chunks: Buffer[] = [];
      for await (const chunk of original) chunks.push(chunk as Buffer);
      const composite = readPsd(Buffer.concat(chunks), {
        skipLayerImageData: true,
        skipThumbnail: true,
        useImageData: true,
      }).imageData;
      if (!composite) throw new Error('the PSD has no composite image');
      image = sharp(Buffer.from(composite.data.buffer), {
        raw: { width: composite.width, height: composite.height, channels: 4 },
        limitInputPixels: false,
      });
    } else {
      image = sharp({ failOn: 'error', limitInputPixels: false });
      original.pipe(image);
      original.on('error', (error) => image.destroy(error));
    }
    let pipeline = image.rotate();
    if (file.scalePx) pipeline = pipeline.resize(file.scalePx, file.scalePx, { fit: 'inside' });
    pipeline =
      file.output === 'png'
        ? pipeline.png()
        : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 92, chromaSubsampling: '4:4:4' });
    const out = new PassThrough();
    pipeline.on('error', (error) => out.destroy(error));
    return pipeline.pipe(out);
  }

  zipEntries(plan: DownloadPlan): ZipEntry[] {
    const now = this.clock.now();
    return plan.files.map((file) => ({
      path: file.path,
      compress: !STORE_ONLY.has(file.output ?? file.source.format),
      mtime: now,
      open: () => this.open(file),
    }));
  }

  contentTypeOf(file: PlannedFile): string {
    return CONTENT_TYPES[file.output ?? file.source.format] ?? 'application/octet-stream';
  }
}
