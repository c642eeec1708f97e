import { z } from 'zod';
import { LIMITS } from './constants';
import { ItemType, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, RankStatus, SortField } from './items-values';
import { FILE_NAME_MAX_CHARS, nameProblem } from './names';
import { reviewStateSchema } from './review-schemas';
import { colourFilterFields } from './similar-values';

export * from './items-values';

/**
 * Folders and files (SPEC §3 File / folder item). An item is a folder or a logical file: one
 * base name in one folder, grouping its formats (`SHOE123.jpg` + `SHOE123.psd`).
 */

function nameSchema(maxChars: number) {
  return z
    .string()
    .transform((value) => value.trim())
    .superRefine((value, ctx) => {
      const problem = nameProblem(value, maxChars);
      if (!problem) return;
      switch (problem.kind) {
        case 'blank':
          ctx.addIssue({ code: 'custom', message: 'blankName' });
          return;
        case 'tooLong':
          ctx.addIssue({
            code: 'too_big',
            origin: 'string',
            maximum: maxChars,
            inclusive: true,
            message: '',
          });
          return;
        case 'illegalCharacter':
          ctx.addIssue({ code: 'custom', message: 'illegalCharacter', params: { char: problem.char } });
          return;
        case 'reservedName':
          ctx.addIssue({ code: 'custom', message: 'reservedName', params: { name: problem.name } });
          return;
        default:
          ctx.addIssue({ code: 'custom', message: problem.kind });
      }
    });
}

/** A folder name: trimmed, at most 50 characters, and the rules of `nameProblem` (SPEC §5, issue 9). */
export const itemNameSchema = nameSchema(LIMITS.folderNameChars);
/** A file name as uploaded: the same rules, up to the 255 characters file systems allow. */
export const fileNameSchema = nameSchema(FILE_NAME_MAX_CHARS);

const id = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 53 - 1);
/** `all` (or 0) is the top level, "all files". */
export const folderRefSchema = z.union([
  z.literal('all'),
  z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 53 - 1),
]);
export type FolderRef = z.infer<typeof folderRefSchema>;

const instant = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

export const rankStatusSchema = z.enum(RankStatus).default(RankStatus.normal);

export const pagingSchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

/** Filter content of SPEC §3 for listing one folder. */
export const folderListingRequestSchema = pagingSchema.extend({
  folderDataId: folderRefSchema.default('all'),
  minCreatedAt: instant.optional(),
  maxCreatedAt: instant.optional(),
  minExpireTime: instant.optional(),
  maxExpireTime: instant.optional(),
  /** Accepted for compatibility; the folder is named by folderDataId. */
  path: z.string().max(2000).optional(),
  rankStatus: rankStatusSchema,
  /** What rankStatus up/down sorts by (issue 39); by name when left out, as before. */
  sortBy: z.enum(SortField).optional(),
  tagIdList: z.array(id).max(100).optional(),
  /** Files whose dominant colours are near this one (issue 17). */
  ...colourFilterFields,
  /** Only files in this review state (issue 43; folders have none, so none are listed). */
  reviewState: reviewStateSchema.optional(),
});
export type FolderListingRequest = z.infer<typeof folderListingRequestSchema>;

export const visibilitySchema = z.enum(['shared', 'private']);
export type Visibility = z.infer<typeof visibilitySchema>;

export const itemActionSchema = z.enum(['view', 'upload', 'download', 'share', 'edit']);

export const itemSchema = z.object({
  id: z.number().int(),
  folderDataId: z.number().int(),
  type: z.enum(ItemType),
  name: z.string(),
  /** Display path of the folder holding the item, e.g. `/Shoes/2026 SS`; `/` at the top level. */
  path: z.string(),
  parentId: z.number().int().nullable(),
  fileFormat: z.string().nullable(),
  compactUrl: z.string().nullable(),
  fileSize: z.number(),
  artNum: z.string().nullable(),
  expireStartTime: z.string().nullable(),
  expireEndTime: z.string().nullable(),
  /** SPEC §4: end date before today or start date after today. */
  expired: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ownerId: z.number().int(),
  userName: z.string(),
  visibility: visibilitySchema,
  collected: z.boolean(),
  viewCount: z.number().int(),
  downloadCount: z.number().int(),
  /** Review state (issue 43); folders are always `draft`. */
  reviewState: reviewStateSchema,
  /** What the caller may do with the item. */
  authList: z.array(itemActionSchema),
});
export type Item = z.infer<typeof itemSchema>;

export const breadcrumbSchema = z.array(z.object({ id: z.number().int(), name: z.string() }));

export const folderListingResultSchema = z.object({
  /** The folder listed, or null at the top level. */
  folder: itemSchema.nullable(),
  /** Ancestors from the top, the folder itself last. */
  breadcrumb: breadcrumbSchema,
  list: z.array(itemSchema),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type FolderListingResult = z.infer<typeof folderListingResultSchema>;

export const pagedItemsSchema = z.object({
  list: z.array(itemSchema),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type PagedItems = z.infer<typeof pagedItemsSchema>;

export const createFolderRequestSchema = z.object({
  folderName: itemNameSchema,
  /** Display path of the parent (`/` for the top level); or name the parent by `parentId`. */
  path: z.string().max(2000).optional(),
  parentId: folderRefSchema.optional(),
  /** Private folders are visible to their owner only. Inside a private folder, always private. */
  visibility: visibilitySchema.optional(),
});
export const createFolderResultSchema = z.object({
  folderId: z.number().int(),
  fatherFolderId: z.number().int().nullable(),
});

export const updateFolderRequestSchema = z.object({
  folderDataId: id,
  folderName: itemNameSchema.optional(),
  path: z.string().max(2000).optional(),
  parentId: folderRefSchema.optional(),
  confirmShare: z.boolean().optional(),
});

export const folderSelectorRequestSchema = z.object({
  /** Lists the subfolders of this folder (`all`/0/absent: the top level). */
  currentFolderId: folderRefSchema.optional(),
  /** 1 = pick a target to move or upload into (needs upload permission); else browsing. */
  operatorType: z.coerce.number().int().min(0).max(9).optional(),
  /** 1 = give each subfolder its itemCount (the folder tree beside a listing, issue 39). */
  withCounts: z.enum(['0', '1']).optional(),
});
/** Children counted for a folder tree's itemCount at most: beyond it the tree shows "999+". */
export const FOLDER_COUNT_CAP = 1000;
export const folderNodeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  type: z.enum(ItemType),
  currentFolderId: z.number().int().nullable(),
  visibility: visibilitySchema,
  hasChildren: z.boolean(),
  /**
   * With withCounts: the folder's own live children (files and folders, not the subtree below
   * them) the caller may see, counted up to FOLDER_COUNT_CAP.
   */
  itemCount: z.number().int().optional(),
});
export type FolderNode = z.infer<typeof folderNodeSchema>;

const idList = z.array(id).max(10_000);
export const batchMoveRequestSchema = z
  .object({
    folderDataIdList: idList.min(1),
    targetFolderId: folderRefSchema.optional(),
    path: z.string().max(2000).optional(),
    /** The caller confirmed that private items become shared (SPEC §2 Move dialog). */
    confirmShare: z.boolean().optional(),
  })
  .refine((b) => b.targetFolderId !== undefined || b.path !== undefined, {
    path: ['targetFolderId'],
    message: 'required',
  });
export type BatchMoveRequest = z.infer<typeof batchMoveRequestSchema>;

export const batchDeleteRequestSchema = z
  .object({ idList: idList.default([]), folderIdList: idList.default([]) })
  .refine((b) => b.idList.length + b.folderIdList.length > 0, { path: ['idList'], message: 'required' });

/** GET calls taking a comma-joined id list (`ids=1,2,3`) or repeated ids. */
export const idsQuerySchema = z.object({
  ids: z.preprocess(
    (v) => (Array.isArray(v) ? v : String(v ?? '').split(',')).map((s) => String(s).trim()).filter(Boolean),
    z.array(id).min(1).max(10_000),
  ),
});

export const itemIdQuerySchema = z.object({ folderDataId: id });
export const checkViewFolderRequestSchema = z.object({ folderDataId: folderRefSchema });

export const recycledItemSchema = itemSchema.extend({ removedAt: z.string() });
export type RecycledItem = z.infer<typeof recycledItemSchema>;
export const pagedRecycledSchema = z.object({
  list: z.array(recycledItemSchema),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
