import { z } from 'zod';
import { folderRefSchema } from './items';

export * from './similar-values';

/**
 * Near-duplicates, similar images and search by colour (issue 17; beyond SPEC). Every file with a
 * raster preview gets a 64-bit perceptual hash and up to five dominant OKLab colours
 * (fingerprint.ts, the same function in the media job and the browser); see docs/decisions.md,
 * "Near-duplicates and colour search (issue 17)".
 */

/** What the fingerprint of a file is: stored as a smallint (`FingerprintStatusCode`). */
export const FINGERPRINT_STATUSES = [
  'pending',
  'ready',
  'tooSmall',
  'blank',
  'animated',
  'none',
  'failed',
] as const;
export const fingerprintStatusSchema = z.enum(FINGERPRINT_STATUSES);
export type FingerprintStatus = z.infer<typeof fingerprintStatusSchema>;

/** The database's smallint for each stored status (`pending` is "no row yet"). */
export const FingerprintStatusCode = {
  ready: 1,
  tooSmall: 2,
  blank: 3,
  animated: 4,
  none: 5,
  failed: 6,
} as const satisfies Record<Exclude<FingerprintStatus, 'pending'>, number>;

/** At most this many files a similar-check call; a batch of the upload dialog is sent in these. */
export const SIMILAR_CHECK_MAX_FILES = 200;
/**
 * Fingerprint lookups a person may ask for a minute over the similar checks and "similar images"
 * (a call for 200 files counts 200); the upload panel paces its checks within part of it.
 */
export const SIMILAR_LOOKUPS_PER_MINUTE = 2_000;
/** At most this many matches a file is answered with. */
export const SIMILAR_MATCHES_MAX = 5;
/** At most this many neighbours a file's "similar images" lists, in each of its two lists. */
export const SIMILAR_OF_FILE_MAX = 20;

/** One dominant colour: OKLab L, a, b × 1000 and its share of the picture in ‰. */
export const fingerprintColourSchema = z.object({
  l: z.number().int().min(0).max(1000),
  a: z.number().int().min(-500).max(500),
  b: z.number().int().min(-500).max(500),
  w: z.number().int().min(0).max(1000),
});
export type FingerprintColour = z.infer<typeof fingerprintColourSchema>;

/** A hash as 16 lower-case hex digits. */
export const fingerprintHashSchema = z.string().regex(/^[0-9a-f]{16}$/, { error: 'invalidValue' });

/** POST file-upload/similar-check: fingerprints the browser made of files about to be uploaded. */
export const similarCheckRequestSchema = z.object({
  files: z
    .array(
      z.object({
        /** The dialog's own key for the file (echoed back). */
        key: z.string().min(1).max(300),
        hash: fingerprintHashSchema,
        colours: z.array(fingerprintColourSchema).max(5),
      }),
    )
    .min(1)
    .max(SIMILAR_CHECK_MAX_FILES, { error: 'tooMany' }),
});
export type SimilarCheckRequest = z.infer<typeof similarCheckRequestSchema>;

/** A file that looks like another, as the caller may see it. */
export const similarItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Display path of its folder. */
  path: z.string(),
  fileFormat: z.string().nullable(),
  compactUrl: z.string().nullable(),
  fileSize: z.number(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  userName: z.string(),
  createdAt: z.string(),
  /** Bits that differ between the hashes (0–64); null for a neighbour found by colour only. */
  distance: z.number().int().nullable(),
  /** Palette distance in OKLab × 1000 (80 = 0.08); null when either has no colours. */
  colourDistance: z.number().int().nullable(),
  /** Whether the caller may add a version to it (upload a new version of it). */
  canAddVersion: z.boolean(),
  /**
   * The upload was downloaded from this file: it carries the file's id in the platform's signed
   * metadata (issue 42), whatever its pixels became (converted, resized, retouched).
   */
  byEmbeddedId: z.boolean().optional(),
});
export type SimilarItem = z.infer<typeof similarItemSchema>;

export const similarCheckResultSchema = z.object({
  /** The distance threshold the server used. */
  maxDistance: z.number().int(),
  /** Only the files with matches. */
  list: z.array(z.object({ key: z.string(), items: z.array(similarItemSchema) })),
});
export type SimilarCheckResult = z.infer<typeof similarCheckResultSchema>;

/** POST file-upload/similar-after: the server's own fingerprints of the caller's finished uploads. */
export const similarAfterRequestSchema = z.object({
  idList: z
    .array(
      z
        .number()
        .int()
        .positive()
        .max(2 ** 53 - 1),
    )
    .min(1)
    .max(SIMILAR_CHECK_MAX_FILES, { error: 'tooMany' }),
});
export const similarAfterResultSchema = z.array(
  z.object({
    id: z.number().int(),
    fingerprint: fingerprintStatusSchema,
    items: z.array(similarItemSchema),
    /** The file the upload became part of (null while it is not live). */
    itemId: z.number().int().nullable(),
    /**
     * The upload is its file's only record, so "move to recycle bin" takes away just this upload;
     * false when it joined an existing file of the same name as a new version.
     */
    soleRecord: z.boolean(),
    /**
     * The upload's own size in pixels, as the media job read it (null until then, or for a file
     * without one): "add as new version" asks first when it is smaller than the file it joins.
     */
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
  }),
);
export type SimilarAfterResult = z.infer<typeof similarAfterResultSchema>;

/**
 * POST file-upload/similar-attach: a finished upload of the caller's joins a file it resembles as
 * a new version (the panel's "add as new version", issue 17). The file it made alone goes away
 * (its tags join the target); one it joined by name stays with its other records.
 */
export const similarAttachRequestSchema = z.object({
  uploadId: z
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1),
  itemId: z
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1),
  /**
   * Keep the file's current version current (issue 39 item 9: the upload is smaller, the uploader
   * chose to keep the larger): the upload joins as a version not shown, listed in the file's
   * records; when the file has no shown record of its format, it is shown as usual.
   */
  keepCurrent: z.boolean().optional(),
});
export type SimilarAttachRequest = z.infer<typeof similarAttachRequestSchema>;
export const similarAttachResultSchema = z.object({
  /** The file the upload now belongs to. */
  itemId: z.number().int(),
  /** Display path of that file's folder and its name, for the panel's note. */
  path: z.string(),
  name: z.string(),
});
export type SimilarAttachResult = z.infer<typeof similarAttachResultSchema>;

/** GET file/similar: a file's near-duplicates and its neighbours by colour. */
export const similarOfFileQuerySchema = z.object({
  folderDataId: folderRefSchema.refine((value) => value !== 'all', { error: 'invalidValue' }),
});
export const fingerprintProgressSchema = z.object({ done: z.number().int(), total: z.number().int() });
export const similarOfFileResultSchema = z.object({
  /** The fingerprint of the file's newest version (what "not compared" says why). */
  fingerprint: fingerprintStatusSchema,
  /** While the archive's back-fill runs: how far it is. */
  progress: fingerprintProgressSchema.nullable(),
  near: z.array(similarItemSchema),
  byColour: z.array(similarItemSchema),
});
export type SimilarOfFileResult = z.infer<typeof similarOfFileResultSchema>;

/** At most this many selected files a "similar images" of a selection looks at. */
export const SIMILAR_SELECTION_MAX = 50;

/** POST file/similar-batch: near-duplicates of each selected file (the selection menu). */
export const similarOfSelectionRequestSchema = z.object({
  folderDataIdList: z
    .array(
      z
        .number()
        .int()
        .positive()
        .max(2 ** 53 - 1),
    )
    .min(1)
    .max(SIMILAR_SELECTION_MAX, { error: 'tooMany' }),
});
export const similarOfSelectionResultSchema = z.object({
  /** One group per selected file the caller may see, in the selection's order (matches may be none). */
  groups: z.array(z.object({ folderDataId: z.number().int(), near: z.array(similarItemSchema) })),
});
export type SimilarOfSelectionResult = z.infer<typeof similarOfSelectionResultSchema>;

/** Pairs a duplicate report may gather at most; a broader scope is asked to narrow (SE_400 tooBroad). */
export const DUPLICATE_REPORT_MAX_PAIRS = 200_000;
export const DUPLICATE_REPORT_PAGE_SIZE_MAX = 50;

/** POST report/duplicates: clusters of near-duplicates the caller may see (function code 6). */
export const duplicateReportRequestSchema = z.object({
  /** Only files owned within this department's subtree (inside the administrator's reach). */
  deptId: z.number().int().positive().max(2_147_483_647).optional(),
  /** Only files under this folder. */
  folderDataId: z
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1)
    .optional(),
  /** Bits (0–11); the configured SIMILAR_MAX_DISTANCE when absent. */
  maxDistance: z.number().int().min(0).max(11).optional(),
});
export type DuplicateReportRequest = z.infer<typeof duplicateReportRequestSchema>;
export const duplicateReportQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(DUPLICATE_REPORT_PAGE_SIZE_MAX).default(20),
});

export const duplicateMemberSchema = similarItemSchema.extend({
  /** The member kept: the most pixels, then the oldest. */
  keep: z.boolean(),
  deptName: z.string(),
});
export type DuplicateMember = z.infer<typeof duplicateMemberSchema>;

export const duplicateClusterSchema = z.object({
  clusterId: z.number().int(),
  /** What deleting every member but the kept one would free. */
  bytesFreeable: z.number(),
  members: z.array(duplicateMemberSchema),
});
export type DuplicateCluster = z.infer<typeof duplicateClusterSchema>;

export const duplicateReportSchema = z.object({
  progress: fingerprintProgressSchema.nullable(),
  maxDistance: z.number().int(),
  totals: z.object({ clusters: z.number().int(), items: z.number().int(), bytesFreeable: z.number() }),
  list: z.array(duplicateClusterSchema),
  hasMore: z.boolean(),
});
export type DuplicateReport = z.infer<typeof duplicateReportSchema>;
