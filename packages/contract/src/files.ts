import { z } from 'zod';
import { Flag } from './constants';
import { fileNameSchema, ItemType, itemActionSchema } from './items';
import { PreviewStatus } from './uploads';

/** One upload record (a version of one format) of a file (SPEC §3 folderDataInfoDTOList). */
export const uploadRecordInfoSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  fileFormat: z.string(),
  fileSize: z.number(),
  /** "1600*1200", or null when not an image. */
  filePx: z.string().nullable(),
  uploadTime: z.string(),
  userName: z.string(),
  hide: z.boolean(),
  artNum: z.string().nullable(),
  /** Signed URLs; null for expired files (SPEC §4: no view or download of history). */
  url: z.string().nullable(),
  compactUrl: z.string().nullable(),
  previewUrl: z.string().nullable(),
  previewStatus: z.enum(PreviewStatus),
});
export type UploadRecordInfo = z.infer<typeof uploadRecordInfoSchema>;

/**
 * One tag of an item (SPEC §3 File detail tagDTOList), grouped by the web under dimensionName; a
 * detail lists them in selector order (dimension order of GET /selector/tags, then tag order).
 */
export const tagOfFileSchema = z.object({
  /** The tag's id (as in GET /selector/tags). */
  id: z.number().int(),
  tagName: z.string(),
  dimensionName: z.string(),
  /** The dimension's id, to group tags without relying on names. */
  dimensionId: z.number().int(),
  /** Whether the tag's dimension is required. */
  required: z.boolean(),
  /** The superior tag (in the parent dimension), or null. */
  parentTagId: z.number().int().nullable(),
});

/** SPEC §3 File detail. */
export const fileDetailSchema = z.object({
  id: z.number().int(),
  type: z.enum(ItemType),
  name: z.string(),
  folderId: z.number().int().nullable(),
  path: z.string(),
  fileFormat: z.string().nullable(),
  /** The main format's newest record: the original (url) and what the viewer shows (previewUrl). */
  url: z.string().nullable(),
  previewUrl: z.string().nullable(),
  compactUrl: z.string().nullable(),
  previewStatus: z.enum(PreviewStatus),
  /**
   * A video's source for the player: the original when browsers play it, else its H.264 MP4
   * rendition; null for other files, while the rendition is made (playStatus pending) or when
   * none could be made (failed, damaged).
   */
  playUrl: z.string().nullable(),
  playStatus: z.enum(PreviewStatus),
  /** Pages of a PDF/AI once read, else null. */
  pageCount: z.number().int().nullable(),
  /**
   * A PDF/AI's page images in order (page 1 first), made by the media job: at most 300, fewer
   * than pageCount for a longer document; empty for other files, expired files, or before then.
   */
  pageUrls: z.array(z.string()),
  expireStartTime: z.string().nullable(),
  expireEndTime: z.string().nullable(),
  expired: z.boolean(),
  totalSize: z.number(),
  filePx: z.string().nullable(),
  artNum: z.string().nullable(),
  userName: z.string(),
  createdAt: z.string(),
  viewCount: z.number().int(),
  downloadCount: z.number().int(),
  collected: z.boolean(),
  authList: z.array(itemActionSchema),
  tagDTOList: z.array(tagOfFileSchema),
  folderDataInfoDTOList: z.array(uploadRecordInfoSchema),
});
export type FileDetail = z.infer<typeof fileDetailSchema>;

/** The viewer's key of one opening (issue 39 item 3): a view is counted once per opening. */
export const VIEW_OPENING_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

export const fileDetailQuerySchema = z.object({
  id: z.coerce.number().int().positive(),
  /** Names the viewer's opening: asked again with the same key (a refetch), no view is counted. */
  opening: z.string().regex(VIEW_OPENING_PATTERN).optional(),
});

const dateOnly = z.iso.date();
/** SPEC §7 file/edit: a new name, or validity and article number. */
export const editFileRequestSchema = z
  .object({
    folderDataId: z.number().int().positive(),
    name: fileNameSchema.optional(),
    /** Renaming onto a file with no format in common merges the two; the caller confirmed it. */
    confirmMerge: z.boolean().optional(),
    startValidTime: dateOnly.nullable().optional(),
    endValidTime: dateOnly.nullable().optional(),
    artNum: z.string().trim().max(64).nullable().optional(),
  })
  .refine((b) => !b.startValidTime || !b.endValidTime || b.startValidTime <= b.endValidTime, {
    path: ['endValidTime'],
    message: 'invalidValue',
  });
export type EditFileRequest = z.infer<typeof editFileRequestSchema>;

export const hideFormatQuerySchema = z.object({
  folderDataId: z.coerce.number().int().positive(),
  format: z.string().trim().min(1).max(16).toLowerCase(),
});

export const deleteRecordQuerySchema = z.object({
  id: z.coerce.number().int().positive(),
  folderDataId: z.coerce.number().int().positive(),
});

/** Formats a download can ask for beyond what a file has: converted from its best image source. */
export const CONVERTIBLE_TARGETS = ['jpg', 'png'] as const;
/**
 * The longest side equal scaling or a preset may ask for: a download never upscales past this
 * (decoding and encoding stay bounded; docs/decisions.md "Image limits").
 */
export const MAX_SCALING_PX = 10_000;

/**
 * What a download does with embedded metadata (issue 42): `embed` writes the platform's (article
 * number, tags, title, creator, copyright, usage terms, validity, file id) into JPG, PNG, TIFF and
 * PSD files, keeping what they carry; `strip` removes everything but the colour profile (GPS too);
 * `keep` sends originals byte for byte as stored (the open API's default: checksums hold).
 */
export const DOWNLOAD_METADATA = ['embed', 'strip', 'keep'] as const;
export type DownloadMetadata = (typeof DOWNLOAD_METADATA)[number];
/** SPEC §7 file/batch-download. */
export const batchDownloadRequestSchema = z
  .object({
    /** Files and folders to download with all their visible formats (unless listed below). */
    folderDataIdList: z.array(z.number().int().positive()).max(10_000).default([]),
    /** Per item, which formats (`all`, or e.g. `jpg`, `png`, `psd`, `mp4`); for folders, of their files. */
    downloadFolderDataDTOList: z
      .array(
        z.object({
          folderDataId: z.number().int().positive(),
          fileFormatList: z.array(z.string().trim().toLowerCase().min(1).max(16)).max(20),
        }),
      )
      .max(10_000)
      .default([]),
    /** Specific upload records (versions) by id. */
    uploadIdList: z.array(z.number().int().positive()).max(10_000).default([]),
    isShareDownload: z.union([z.literal(Flag.no), z.literal(Flag.yes)]).default(Flag.no),
    /** Scale images so their longer side is this many pixels. */
    equalScalingPx: z.number().int().positive().max(MAX_SCALING_PX).nullable().optional(),
    /** Convert every image per this download preset (format, size, background, names). */
    presetId: z.number().int().positive().nullable().optional(),
    /** Embedded metadata: the platform's written in (default), or everything removed (GPS too). */
    metadata: z.enum(DOWNLOAD_METADATA).optional(),
    /**
     * With the platform's metadata: each original of a format that cannot carry it (PDF, AI,
     * video…) gets `<its name>.xmp` beside it in the zip (issue 42).
     */
    xmpSidecars: z.boolean().optional(),
  })
  .refine((b) => b.folderDataIdList.length + b.downloadFolderDataDTOList.length + b.uploadIdList.length > 0, {
    path: ['folderDataIdList'],
    message: 'required',
  });
export type BatchDownloadRequest = z.infer<typeof batchDownloadRequestSchema>;
