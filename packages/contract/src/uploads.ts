import { z } from 'zod';
import { LIMITS } from './constants';
import { fileNameSchema, folderRefSchema, itemNameSchema } from './items';
import { mailNoticeSummarySchema } from './mail-notices';
import { PreviewStatus, splitFileName, UploadStatus } from './uploads-values';

export * from './uploads-values';

const dateOnly = z.iso.date();
const relativePathSchema = z
  .string()
  .max(1000)
  .default('')
  .transform((p) =>
    p
      .split('/')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(itemNameSchema).max(30));

/** One file of an upload batch (SPEC §3 upload entry). */
export const uploadEntrySchema = z.object({
  fileName: fileNameSchema.refine((n) => splitFileName(n).baseName.trim().length > 0, {
    message: 'blankName',
  }),
  fileSize: z.number().int().min(0).max(LIMITS.singleFileBytes),
  /** Folder inside the target, for folder uploads: `Spring/Running`. */
  path: relativePathSchema,
  /** The file's last-modified time, epoch ms (SPEC fileInfo). */
  fileInfo: z.number().int().min(0).optional(),
  artNum: z.string().trim().max(64).optional(),
  expireStartTime: dateOnly.optional(),
  expireEndTime: dateOnly.optional(),
  /**
   * This file's tags (GET /selector/tags ids); when present, even empty, it overrides the batch's
   * `tagIdList` (SPEC §4). Checked when the batch is created (SETG_02 unknown, SETG_10 required
   * dimension missing, SETG_11 superior tag missing: nothing is created); added to the file's tags
   * when it goes live.
   */
  tagIdList: z.array(z.number().int().positive()).max(100).optional(),
  width: z.number().int().min(0).optional(),
  height: z.number().int().min(0).optional(),
  /**
   * Add this file as a new version of that file (issue 17: the near-duplicate warning's choice): it
   * goes to the file's folder under the file's name. SE_404 when the caller cannot see it, SE_502
   * when they may not change it; nothing of the batch is created then.
   */
  versionOfItemId: z
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1)
    .optional(),
  /**
   * A new version that must not replace the file's current one (issue 39 item 9: a smaller copy,
   * the uploader chose to keep the larger current): it joins as a version not shown, listed in the
   * file's records; when the file has no shown record of its format, it is shown as usual.
   */
  keepCurrent: z.boolean().optional(),
});
export type UploadEntry = z.infer<typeof uploadEntrySchema>;

export const createUploadBatchSchema = z.object({
  /** Target folder by display path; or by id with targetFolderId (`all` = top level). */
  path: z.string().max(2000).optional(),
  targetFolderId: folderRefSchema.optional(),
  /** Tags of every file of the batch that has no `tagIdList` of its own (the "public tag info"). */
  tagIdList: z.array(z.number().int().positive()).max(100).optional(),
  uploadDetailDTOS: z.array(uploadEntrySchema).min(1).max(LIMITS.filesPerSelection),
});
export type CreateUploadBatch = z.infer<typeof createUploadBatchSchema>;

export const createdUploadSchema = z.object({
  id: z.number().int(),
  /** The storage key the file goes to (SPEC: url). */
  url: z.string(),
  batchNum: z.string(),
  fileName: z.string(),
  path: z.string(),
});

export const uploadIdBodySchema = z.object({ id: z.number().int().positive() });

export const storedPartSchema = z.object({
  partNumber: z.number().int(),
  size: z.number().int(),
  etag: z.string(),
});

export const multipartStateSchema = z.object({
  id: z.number().int(),
  partSize: z.number().int(),
  partCount: z.number().int(),
  /** Parts already stored: the browser sends only the others (resume). */
  parts: z.array(storedPartSchema),
});
export type MultipartState = z.infer<typeof multipartStateSchema>;

export const signPartsRequestSchema = z.object({
  id: z.number().int().positive(),
  partNumbers: z.array(z.number().int().min(1).max(10_000)).min(1).max(100),
});
export const partTargetSchema = z.object({
  partNumber: z.number().int(),
  url: z.string(),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()),
  /**
   * Whether part-done must follow the PUT: true for a store's presigned address, false for the
   * local driver's part endpoint, which records the part itself (a call saved per part).
   */
  reportDone: z.boolean(),
});
export const signPartsResultSchema = z.object({ parts: z.array(partTargetSchema), expiresAt: z.string() });

/** After a PUT straight to S3, the browser reports the part's ETag (the local driver records it itself). */
export const partDoneRequestSchema = z.object({
  id: z.number().int().positive(),
  partNumber: z.number().int().min(1).max(10_000),
  etag: z.string().min(1).max(200),
  size: z.number().int().min(0),
});

/** SPEC §7 callback / reupload: id, status (2 = finished, 1 = progress), uploadSchedule 0-100. */
export const callbackQuerySchema = z.object({
  id: z.coerce.number().int().positive(),
  status: z.coerce.number().int().min(0).max(4),
  uploadSchedule: z.coerce.number().int().min(0).max(100).default(0),
});

export const cancelUploadRequestSchema = z.object({
  idList: z.array(z.number().int().positive()).min(1).max(LIMITS.filesPerSelection),
  deleteNum: z.number().int().optional(),
});

export const uploadRecordSchema = z.object({
  id: z.number().int(),
  batchNum: z.string(),
  fileName: z.string(),
  fileFormat: z.string(),
  fileSize: z.number(),
  /** The file's last-modified time (epoch ms) as the browser read it; matches a re-picked file. */
  fileInfo: z.number().nullable(),
  path: z.string(),
  status: z.enum(UploadStatus),
  uploadSchedule: z.number().int(),
  error: z.string().nullable(),
  url: z.string(),
  folderDataId: z.number().int().nullable(),
  previewStatus: z.enum(PreviewStatus),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** The mail notice of the record's batch, as its sender sees it (null: none). */
  mailNotice: mailNoticeSummarySchema.nullable(),
});
export type UploadRecord = z.infer<typeof uploadRecordSchema>;
export const pagedUploadRecordsSchema = z.object({
  list: z.array(uploadRecordSchema),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});

/** What the browser needs to upload (SPEC §7 /sts). Never credentials: parts go to presigned URLs. */
export const storageInfoSchema = z.object({
  driver: z.enum(['local', 's3']),
  bucket: z.string().nullable(),
  endpoint: z.string().nullable(),
  maxFileSize: z.number(),
  maxFilesPerBatch: z.number(),
  concurrentUploads: z.number(),
});
