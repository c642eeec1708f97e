import { z } from 'zod';
import { DOWNLOAD_METADATA } from './files';
import {
  ASSET_CHANGE_KINDS,
  OPEN_ART_NUMS_MAX,
  OPEN_ASSETS_PER_ART_NUM_MAX,
  OPEN_CHANGES_PAGE_DEFAULT,
  OPEN_CHANGES_PAGE_MAX,
  OPEN_LINK_SECONDS_DEFAULT,
  OPEN_LINK_SECONDS_MAX,
  OPEN_LINK_SECONDS_MIN,
  OPEN_OUTPUT_LONG_SIDE_MAX,
  OPEN_PAGE_SIZE_DEFAULT,
  OPEN_PAGE_SIZE_MAX,
} from './open-api-values';
import { hexColourSchema, PRESET_FORMATS } from './presets';
import { reviewStateSchema } from './review-schemas';
import { uploadEntrySchema } from './uploads';

/**
 * The calls other systems make on the open API (OPEN_API_PREFIX, signed with an access record's key)
 * and the asset journal; re-exported by ./open-api-schemas.
 */

const id = z.number().int().positive().max(2_147_483_647);
const queryId = z.coerce.number().int().positive().max(2_147_483_647);

// ——— The calls other systems make (OPEN_API_PREFIX, signed with a key) ———

const cursorSchema = z.string().trim().max(200);
const pageLimitSchema = z.coerce
  .number()
  .int()
  .min(1)
  .max(OPEN_PAGE_SIZE_MAX)
  .default(OPEN_PAGE_SIZE_DEFAULT);
const formatSchema = z.string().trim().toLowerCase().min(1).max(16);

/** One format of an asset: its current version. */
export const openAssetFormatSchema = z.object({
  format: z.string(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** How many versions (upload records) the format has. */
  versions: z.number().int(),
  updatedAt: z.string(),
});
export type OpenAssetFormat = z.infer<typeof openAssetFormatSchema>;

export const openAssetTagSchema = z.object({
  tagId: z.number().int(),
  name: z.string(),
  dimensionId: z.number().int().nullable(),
  dimensionName: z.string().nullable(),
});
export type OpenAssetTag = z.infer<typeof openAssetTagSchema>;

/** An asset (a file item) in a list: enough to decide whether to fetch it whole. */
export const openAssetSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  artNum: z.string().nullable(),
  folderId: z.number().int().nullable(),
  /** Folder names from the top, joined by '/'. */
  folderPath: z.string(),
  formats: z.array(z.string()),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  /** The validity has ended. */
  expired: z.boolean(),
  /** Review state (issue 43): shop systems take `approved` files (ask with `reviewState=approved`). */
  reviewState: reviewStateSchema,
  updatedAt: z.string(),
});
export type OpenAssetSummary = z.infer<typeof openAssetSummarySchema>;

/** GET assets/:id: the whole asset. */
export const openAssetSchema = openAssetSummarySchema.extend({
  formatDetails: z.array(openAssetFormatSchema),
  tags: z.array(openAssetTagSchema),
  createdAt: z.string(),
});
export type OpenAsset = z.infer<typeof openAssetSchema>;

export const openAssetIdParamsSchema = z.object({ id: queryId });

/** POST assets/by-art-nums: the assets of up to OPEN_ART_NUMS_MAX article numbers; the unmatched named. */
export const openByArtNumsRequestSchema = z.object({
  artNums: z.array(z.string().trim().min(1).max(100)).min(1).max(OPEN_ART_NUMS_MAX),
  /** Only assets holding one of these formats (`jpg`, `psd`); absent = all. */
  formats: z.array(formatSchema).max(50).optional(),
  limitPerArtNum: z.number().int().min(1).max(OPEN_ASSETS_PER_ART_NUM_MAX).default(20),
  /** Only assets in this review state (issue 43): `approved` for what may go to the shops. */
  reviewState: reviewStateSchema.optional(),
});
export type OpenByArtNumsRequest = z.input<typeof openByArtNumsRequestSchema>;
export const openByArtNumsResultSchema = z.object({
  matches: z.array(z.object({ artNum: z.string(), assets: z.array(openAssetSummarySchema) })),
  /** Article numbers asked for with no asset the record may see, as sent. */
  unmatched: z.array(z.string()),
});
export type OpenByArtNumsResult = z.infer<typeof openByArtNumsResultSchema>;

/** A cursor-paged list: `nextCursor` null on the last page. */
export const openAssetPageSchema = z.object({
  list: z.array(openAssetSummarySchema),
  nextCursor: z.string().nullable(),
});
export type OpenAssetPage = z.infer<typeof openAssetPageSchema>;

/** GET assets/by-tag: assets carrying the tag. */
export const openByTagQuerySchema = z.object({
  tagId: queryId,
  /** Only assets in this review state (issue 43). */
  reviewState: reviewStateSchema.optional(),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});
/** GET assets/by-folder: the folder's files, or everything below it with `recursive=true`. */
export const openByFolderQuerySchema = z.object({
  folderId: queryId,
  /** Only assets in this review state (issue 43). */
  reviewState: reviewStateSchema.optional(),
  recursive: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  cursor: cursorSchema.optional(),
  limit: pageLimitSchema,
});

/** A link another system may fetch without signing, until `expiresAt`. */
export const openLinkSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type OpenLink = z.infer<typeof openLinkSchema>;

/** GET assets/:id/preview: the preview image's link (thumbnail too, when there is one). */
export const openPreviewResultSchema = z.object({
  preview: openLinkSchema.nullable(),
  thumbnail: openLinkSchema.nullable(),
});

/** Converted output of a download: the same engine as download presets. */
export const openOutputSchema = z.object({
  format: z.enum(PRESET_FORMATS),
  longSidePx: z.number().int().min(16).max(OPEN_OUTPUT_LONG_SIDE_MAX).optional(),
  background: hexColourSchema.optional(),
});

/**
 * POST assets/download-url: a time-limited link to assets by id or by article number, as they
 * are or converted (`output`, or a download preset by id). `zip` gives one link to a zip of all;
 * `files` one link per file (at most 1,000 files).
 */
export const openDownloadUrlRequestSchema = z
  .object({
    assetIds: z.array(id).min(1).max(3000).optional(),
    artNums: z.array(z.string().trim().min(1).max(100)).min(1).max(OPEN_ART_NUMS_MAX).optional(),
    formats: z.array(formatSchema).max(50).optional(),
    output: openOutputSchema.optional(),
    presetId: id.optional(),
    mode: z.enum(['zip', 'files']).default('zip'),
    /** Embedded metadata (issue 42): originals as stored (default), the platform's written in, or all removed. */
    metadata: z.enum(DOWNLOAD_METADATA).default('keep'),
    expiresInSeconds: z
      .number()
      .int()
      .min(OPEN_LINK_SECONDS_MIN)
      .max(OPEN_LINK_SECONDS_MAX)
      .default(OPEN_LINK_SECONDS_DEFAULT),
  })
  .superRefine((body, ctx) => {
    if ((body.assetIds ? 1 : 0) + (body.artNums ? 1 : 0) !== 1)
      ctx.addIssue({ code: 'custom', path: ['assetIds'], message: 'required' });
    if (body.output && body.presetId)
      ctx.addIssue({ code: 'custom', path: ['presetId'], message: 'invalidValue' });
  });
export type OpenDownloadUrlRequest = z.input<typeof openDownloadUrlRequestSchema>;
export const openDownloadUrlResultSchema = z.object({
  /** `zip`: one link; `files`: one per file, with the file it fetches. */
  links: z.array(
    openLinkSchema.extend({
      assetId: z.number().int().nullable(),
      format: z.string().nullable(),
      fileName: z.string(),
    }),
  ),
  fileCount: z.number().int(),
  /** Article numbers asked for with no file to download. */
  unmatched: z.array(z.string()),
});
export type OpenDownloadUrlResult = z.infer<typeof openDownloadUrlResultSchema>;
/** GET download?ticket=: the bytes; the ticket is the authorisation (no signature). */
export const openDownloadQuerySchema = z.object({ ticket: z.string().min(16).max(200) });

/** POST uploads: files another system pushes in, into a folder, by the same rules as a user's upload. */
export const openUploadRequestSchema = z.object({
  folderId: id,
  files: z
    .array(
      z.object({
        // A user's upload rules (legal name, size limit, article number length).
        fileName: uploadEntrySchema.shape.fileName,
        fileSize: uploadEntrySchema.shape.fileSize,
        artNum: uploadEntrySchema.shape.artNum,
        validFrom: z.iso.date().optional(),
        validTo: z.iso.date().optional(),
        tagIds: z.array(id).max(100).optional(),
      }),
    )
    .min(1)
    .max(3000),
});
export type OpenUploadRequest = z.input<typeof openUploadRequestSchema>;
const openPartTargetSchema = z.object({ partNumber: z.number().int(), url: z.string() });
export const openUploadResultSchema = z.object({
  uploads: z.array(
    z.object({
      uploadId: z.number().int(),
      fileName: z.string(),
      partSize: z.number().int(),
      partCount: z.number().int(),
      /** The first parts' links (PUT the bytes; keep each answer's ETag); ask uploads/:id/parts for more. */
      parts: z.array(openPartTargetSchema),
    }),
  ),
});
export type OpenUploadResult = z.infer<typeof openUploadResultSchema>;
export const openUploadIdParamsSchema = z.object({ id: queryId });
export const openUploadPartsRequestSchema = z.object({
  partNumbers: z.array(z.number().int().min(1).max(10_000)).min(1).max(1000),
});
export const openUploadPartsResultSchema = z.object({
  parts: z.array(openPartTargetSchema),
  expiresAt: z.string(),
});
/** POST uploads/:id/complete: every part's ETag as the PUT answered it. */
export const openUploadCompleteRequestSchema = z.object({
  parts: z
    .array(
      z.object({
        partNumber: z.number().int().min(1).max(10_000),
        etag: z.string().min(1).max(200),
        size: z.number().int().min(0),
      }),
    )
    .min(1)
    .max(10_000),
});
export const openUploadCompleteResultSchema = z.object({ assetId: z.number().int() });

/** GET tags: every tag dimension and its tags (to resolve tag ids). */
export const openTagListSchema = z.array(
  z.object({
    dimensionId: z.number().int(),
    dimensionName: z.string(),
    tags: z.array(
      z.object({ tagId: z.number().int(), name: z.string(), parentTagId: z.number().int().nullable() }),
    ),
  }),
);
/** GET folders?parentId=: folders the record may see, under a parent (absent: the top). */
export const openFolderQuerySchema = z.object({ parentId: queryId.optional() });
export const openFolderListSchema = z.array(
  z.object({ id: z.number().int(), name: z.string(), path: z.string(), hasChildren: z.boolean() }),
);

// ——— Changed since (the asset journal) ———

/**
 * GET assets/changes: what changed, oldest first, from `cursor` (the last page's `nextCursor`) or,
 * on the first call, from `since` (an instant; absent: the oldest change kept). A cursor older
 * than the journal keeps is SEOA_07: resynchronise through by-folder or by-art-nums.
 */
export const openChangesQuerySchema = z.object({
  since: z.iso.datetime({ offset: true }).optional(),
  cursor: cursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(OPEN_CHANGES_PAGE_MAX).default(OPEN_CHANGES_PAGE_DEFAULT),
});
export const openChangeSchema = z.object({
  assetId: z.number().int(),
  kinds: z.array(z.enum(ASSET_CHANGE_KINDS)),
  changedAt: z.string(),
  /** The asset as it is now; null once deleted for good (or no longer visible to the record). */
  asset: openAssetSummarySchema.nullable(),
});
export type OpenChange = z.infer<typeof openChangeSchema>;
export const openChangesPageSchema = z.object({
  list: z.array(openChangeSchema),
  /** Where the next call starts; always set (keep it even when the page was empty). */
  nextCursor: z.string(),
  /** More changes are waiting now. */
  hasMore: z.boolean(),
});
export type OpenChangesPage = z.infer<typeof openChangesPageSchema>;
