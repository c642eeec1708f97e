import os from 'node:os';
import path from 'node:path';
import { PreviewStatus, UploadStatus } from '@dam/contract';
import sharp, { type Sharp } from 'sharp';
import type { UploadRow } from '../db/schema';
import type { ItemsRepository } from '../modules/items/repository';
import { decodeImage, SHARP_FORMATS } from '../modules/media/decode';
import {
  fingerprintOfRaster,
  type RasterFingerprint,
  type RawRaster,
  thumbnailRaster,
} from '../modules/media/fingerprint';
import {
  type ImageHeader,
  ImageTooLargeError,
  type ImageWork,
  readImageHeader,
} from '../modules/media/image-limits';
import type { MetadataReader } from '../modules/metadata/reader';
import type { FingerprintsRepository } from '../modules/similar/fingerprints.repository';
import type { UploadsRepository } from '../modules/uploads/repository';
import type { ObjectStorage } from '../storage/storage';
import {
  DamagedSourceError,
  Lanes,
  MediaSources,
  PREVIEW_SIDE,
  SOURCE_KIND,
  type SourceKind,
} from './media-source';
import { DocumentPages } from './pages';
import { MissingToolError } from './tools';
import { VideoRenditions } from './video';

export const THUMB_SIDE = 500;
/** Names of files this job makes a preview of when their bytes are what the name says. */
const PREVIEWED_NAMES = new Set([
  ...SHARP_FORMATS,
  'psd',
  'pdf',
  'ai',
  'mp4',
  'avi',
  'mov',
  'mpeg',
  'rmvb',
  'mkv',
  'webm',
]);
/**
 * Formats browsers cannot show, which get a large JPEG preview besides the thumbnail: by the
 * file's name (the viewer decides by it) or by what its bytes are.
 */
const NEEDS_PREVIEW = new Set([
  'tif',
  'tiff',
  'bmp',
  'heic',
  'psd',
  'pdf',
  'ai',
  'mp4',
  'avi',
  'mov',
  'mpeg',
  'rmvb',
  'mkv',
  'webm',
]);
/** Sniffed formats browsers cannot show (sharp's names). */
const CONTENT_NEEDS_PREVIEW = new Set(['tiff', 'heif']);

export interface MediaDependencies {
  uploads: UploadsRepository;
  items: ItemsRepository;
  storage: ObjectStorage;
  /** Where a store's object is on disk (local driver), or null to download a copy. */
  localPath: (key: string) => string | null;
  warn: (details: Record<string, unknown>, message: string) => void;
  now: () => Date;
  /** The process's pixel limit and image memory budget, shared with download conversions. */
  images: ImageWork;
  /**
   * How many conversions run at once (MEDIA_WORKERS). The queue hands this process more jobs than
   * that, so the next image is already waiting when one is done; only the conversions (decoding,
   * scaling, poppler, ffmpeg) take a lane, never the database work around them.
   */
  renderLanes: number;
  /** Where near-duplicate fingerprints go, and what runs once one is stored (pairs; issue 17). */
  fingerprints: {
    repository: FingerprintsRepository;
    stored: (uploadId: number, known?: { hash: string; item_id: number }) => Promise<void>;
  };
  /** Reads the metadata embedded in the record's bytes (issue 42), beside the conversion; null: not read. */
  metadata: MetadataReader | null;
}

/** What one decode made, held until it is stored. */
interface Rendered {
  preview: Buffer | null;
  thumb: Buffer;
  header: ImageHeader;
  fingerprint: RasterFingerprint | { status: 'animated' } | { failed: string };
}

export const thumbKeyOf = (storageKey: string) => `previews/${storageKey}.thumb.jpg`;
export const previewKeyOf = (storageKey: string) => `previews/${storageKey}.preview.jpg`;

/**
 * Makes the pixel size, a 500×500-fit JPEG thumbnail and, for what browsers cannot show, a
 * 2048-px JPEG preview of one upload. Decodes the original once; safe to run twice.
 */
export class MediaProcessor {
  private readonly reportedMissing = new Set<string>();
  private readonly videos: VideoRenditions;
  private readonly pages: DocumentPages;
  private readonly lanes: Lanes;
  private readonly sources: MediaSources;

  constructor(private readonly deps: MediaDependencies) {
    this.videos = new VideoRenditions(deps);
    this.pages = new DocumentPages(deps);
    this.lanes = new Lanes(deps.renderLanes);
    this.sources = new MediaSources(deps);
  }

  /**
   * Makes what an upload shows; answers its batch number for what waits on a batch's media (mail
   * notices), or null when there was nothing to make (the record is not a finished upload).
   */
  async process(uploadId: number): Promise<string | null> {
    const upload = await this.deps.uploads.findById(uploadId);
    if (upload?.status !== UploadStatus.done) return null;
    await this.make(upload);
    return upload.batch_num;
  }

  private async make(upload: UploadRow): Promise<void> {
    const format = upload.format.toLowerCase();
    let kind: SourceKind | null = null;
    try {
      // The decoder is chosen by the bytes, never the name (issue 38 item 2): an SVG named x.png
      // never reaches librsvg, a playlist named x.mp4 never reaches ffmpeg's HLS or concat reader.
      const content = await this.sources.sniff(upload.storage_key);
      kind = SOURCE_KIND[content.kind];
      if (!kind) {
        if (PREVIEWED_NAMES.has(format))
          this.deps.warn(
            { uploadId: upload.id, format, content: content.format },
            `no preview: a ${format} file whose bytes are ${content.format}`,
          );
        await this.noFingerprint(upload, 'no raster preview');
        await this.deps.metadata?.nothingToRead(upload.id);
        await this.finish(upload, { preview_status: PreviewStatus.none });
        return;
      }
      const sourceKind = kind;
      const withPreview =
        NEEDS_PREVIEW.has(format) || kind !== 'raster' || CONTENT_NEEDS_PREVIEW.has(content.format);
      // The viewer says "being prepared" until the rendition (or the verdict that none is needed) is in.
      if (kind === 'video' && upload.play_status === null) {
        await this.deps.uploads.update(upload.id, { play_status: PreviewStatus.pending });
      }
      // A store's object is downloaded before a lane is taken: the lanes only ever convert.
      await this.sources.withLocalCopy(
        upload.storage_key,
        content.format,
        kind !== 'raster',
        async (file) => {
          // ExifTool reads in a process of its own while this one converts: outside the lanes,
          // and finished before the copy of the file goes, whatever the conversion came to.
          const metadata = this.deps.metadata
            ?.read(upload.id, file)
            .catch((error: Error) =>
              this.deps.warn({ uploadId: upload.id }, `metadata not stored: ${error.message}`),
            );
          const render = async () => {
            const source = await this.sources.imageOf(sourceKind, file, content);
            const header = await readImageHeader(source, sourceKind === 'psd' ? 'psd' : 'image').catch(
              (error) => {
                throw new DamagedSourceError(`${format}: ${(error as Error).message}`);
              },
            );
            // Over the pixel limit or the memory budget: refused from its header, never decoded.
            this.deps.images.check(header);
            return this.deps.images.run(header.cost, async () => {
              const image = await this.decode(sourceKind, source, format);
              // A CMYK or wide-gamut source a browser could show: its sRGB preview is what the
              // viewer shows instead (docs/decisions.md, "Colour management").
              return this.render(image, withPreview || !header.srgbAsIs, header);
            });
          };
          try {
            if (kind === 'video' || kind === 'page') {
              // One lane from the frame to the last rendition, as one job: a rendition that queued
              // again behind every waiting thumbnail could outlive the job's lease.
              await this.lanes.run(async () => {
                await this.store(upload, await render());
                // After the thumbnail is stored: the card shows while the rendition is made.
                if (kind === 'video') await this.videos.make(upload, file, format, content);
                else await this.makePages(upload, file);
              });
            } else {
              const rendered = await this.lanes.run(render);
              // Read before the fingerprint is stored: the upload panel's check, which waits for
              // the fingerprint, then also finds the file a download of ours came from (issue 42).
              await metadata;
              await this.store(upload, rendered);
            }
          } finally {
            await metadata;
          }
        },
      );
    } catch (error) {
      if (error instanceof ImageTooLargeError) {
        // Not retried: it will not get smaller. The file stays downloadable as it is.
        this.deps.warn(
          { uploadId: upload.id, width: error.width, height: error.height, maxPixels: error.maxPixels },
          `no preview for ${format} file: ${error.message}`,
        );
        await this.noFingerprint(upload, error.message);
        await this.finish(upload, {
          preview_status: PreviewStatus.failed,
          ...(kind === 'video' ? { play_status: PreviewStatus.failed } : {}),
          width: upload.width ?? error.width,
          height: upload.height ?? error.height,
        });
        return;
      }
      if (error instanceof DamagedSourceError) {
        await this.noFingerprint(upload, error.message);
        await this.finish(upload, {
          preview_status: PreviewStatus.damaged,
          ...(kind === 'video' ? { play_status: PreviewStatus.damaged } : {}),
        });
        return;
      }
      if (error instanceof MissingToolError) {
        if (!this.reportedMissing.has(error.tool)) {
          this.reportedMissing.add(error.tool);
          this.deps.warn(
            { tool: error.tool },
            `${error.tool} is not installed: previews of ${format} files are skipped`,
          );
        }
        await this.noFingerprint(upload, error.message);
        await this.finish(upload, {
          preview_status: PreviewStatus.none,
          ...(kind === 'video' ? { play_status: PreviewStatus.none } : {}),
        });
        return;
      }
      await this.deps.uploads.update(upload.id, {
        preview_status: PreviewStatus.failed,
        ...(kind === 'video' ? { play_status: PreviewStatus.failed } : {}),
        preview_attempts: upload.preview_attempts + 1,
      });
      throw error;
    }
  }

  /** Returns a sharp pipeline of the source's first image, upright, or throws DamagedSourceError. */
  private async decode(kind: SourceKind, file: string, format: string): Promise<Sharp> {
    try {
      // PSDs are flattened onto white; other sources keep their alpha until the JPEG encoder.
      return await decodeImage(file, {
        format: kind === 'psd' ? 'psd' : 'image',
        background: kind === 'psd' ? '#ffffff' : null,
        limitInputPixels: this.deps.images.limits.maxPixels,
        // Only a PSD's composite is written there, and a PSD always gets a temp folder: a raster
        // source may be the store's own file, whose folder must never be written to.
        scratchDir: kind === 'psd' ? path.dirname(file) : os.tmpdir(),
      });
    } catch (error) {
      // Decoders report corrupt input in many words; any failure to read the file's own bytes is damage.
      throw new DamagedSourceError(`${format}: ${(error as Error).message}`);
    }
  }

  /**
   * Everything one decode makes, in memory: the 2048-px preview (formats browsers cannot show),
   * the thumbnail and the near-duplicate fingerprint. CPU work only; nothing is stored yet.
   */
  private async render(image: Sharp, withPreview: boolean, header: ImageHeader): Promise<Rendered> {
    let preview: Buffer | null = null;
    let thumb: Buffer;
    let raster: RawRaster;
    try {
      let thumbSource = image;
      if (withPreview) {
        preview = await image
          .clone()
          .resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true })
          // Transparency on white, as PSD composites are: JPEG would make it black.
          .flatten({ background: '#ffffff' })
          // sRGB numbers from the embedded profile, untagged (what a browser assumes of a JPEG).
          .withIccProfile('srgb', { attach: false })
          .jpeg({ quality: 85, mozjpeg: false })
          .toBuffer();
        // The thumbnail comes from the already-decoded preview, not the original again.
        thumbSource = sharp(preview);
      }
      // Straight from the source otherwise: libvips then decodes a JPEG at 1/2, 1/4 or 1/8 of
      // its size (shrink-on-load), the main cost of a thumbnail queue. One 500-px raster makes
      // both the thumbnail and the near-duplicate fingerprint (issue 17).
      raster = await thumbnailRaster(thumbSource, THUMB_SIDE);
      thumb = await sharp(raster.data, { raw: raster.info }).jpeg({ quality: 80 }).toBuffer();
    } catch (error) {
      throw new DamagedSourceError((error as Error).message);
    }
    return { preview, thumb, header, fingerprint: await this.fingerprint(header, raster) };
  }

  /** Stores what `render` made, records it on the upload and its file, then the pairs it forms. */
  private async store(upload: UploadRow, rendered: Rendered): Promise<void> {
    const { header } = rendered;
    let previewKey: string | null = null;
    if (rendered.preview) {
      previewKey = previewKeyOf(upload.storage_key);
      await this.deps.storage.write(previewKey, rendered.preview, 'image/jpeg');
    }
    const thumbKey = thumbKeyOf(upload.storage_key);
    await this.deps.storage.write(thumbKey, rendered.thumb, 'image/jpeg');
    // Stored before the item's summary is refreshed (which copies the cover's colours to the item).
    // A failure here never costs the thumbnail: the file is then "not compared" and the back-fill
    // may try again.
    const { fingerprint } = rendered;
    const fingerprints = this.deps.fingerprints.repository;
    let hash: string | null = null;
    try {
      if ('failed' in fingerprint) throw new Error(fingerprint.failed);
      if (fingerprint.status === 'animated') await fingerprints.saveStatus(upload.id, 'animated', null);
      else await fingerprints.save(upload.id, fingerprint);
      if (fingerprint.status === 'ready') hash = fingerprint.hash;
    } catch (error) {
      this.deps.warn({ uploadId: upload.id }, `no fingerprint: ${(error as Error).message}`);
      await fingerprints.saveStatus(upload.id, 'failed', (error as Error).message).catch(() => undefined);
    }
    const itemId = await this.finish(upload, {
      preview_status: PreviewStatus.ready,
      thumb_key: thumbKey,
      preview_key: previewKey,
      width: upload.width ?? header.uprightWidth,
      height: upload.height ?? header.uprightHeight,
    });
    // The pairs are the duplicate report's; missing them never costs the thumbnail.
    if (hash === null || itemId === null) return;
    await this.deps.fingerprints.stored(upload.id, { hash, item_id: itemId }).catch((error: Error) => {
      this.deps.warn({ uploadId: upload.id }, `near-duplicate pairs not recorded: ${error.message}`);
    });
  }

  /** The near-duplicate fingerprint of the thumbnail raster (none for an animation), or why it failed. */
  private async fingerprint(header: ImageHeader, raster: RawRaster): Promise<Rendered['fingerprint']> {
    if (header.animated) return { status: 'animated' };
    try {
      return await fingerprintOfRaster(raster, { width: header.uprightWidth, height: header.uprightHeight });
    } catch (error) {
      return { failed: (error as Error).message };
    }
  }

  /** A file without a raster preview is never compared; the reason is kept for the viewer. */
  private async noFingerprint(upload: UploadRow, reason: string): Promise<void> {
    await this.deps.fingerprints.repository.saveStatus(upload.id, 'none', reason);
  }

  /** The document's pages; without them the viewer shows the first page's preview, as before. */
  private async makePages(upload: UploadRow, file: string): Promise<void> {
    try {
      await this.pages.make(upload, file);
    } catch (error) {
      if (error instanceof MissingToolError) return;
      this.deps.warn({ uploadId: upload.id }, `no pages for the viewer: ${(error as Error).message}`);
    }
  }

  /** Records the job's outcome on the upload and refreshes its file; answers that file's id. */
  private async finish(upload: UploadRow, values: Partial<UploadRow>): Promise<number | null> {
    // The file as the update finds it: the record may have joined another one while the job ran
    // ("add as new version").
    const itemId = await this.deps.uploads.updateReturningItem(upload.id, values);
    if (itemId) await this.deps.items.refreshFileSummary(itemId, this.deps.now());
    return itemId;
  }
}
