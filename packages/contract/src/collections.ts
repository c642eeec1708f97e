import { z } from 'zod';
import { DOWNLOAD_METADATA, MAX_SCALING_PX } from './files';
import { itemSchema } from './items';

/**
 * Collections (issue 43): named sets of references to files and folders gathered from anywhere
 * without moving them. The owner lets colleagues in as editors (add, remove, order) or viewers;
 * everyone sees only the items they may see anyway, and how many are hidden from them. See
 * docs/decisions.md, "Collections (issue 43)".
 */

/** References one collection may hold. */
export const COLLECTION_ITEMS_MAX = 10_000;
/** Items one call may add or remove. */
export const COLLECTION_BATCH_MAX = 1_000;
/** Members besides the owner. */
export const COLLECTION_MEMBERS_MAX = 200;
export const COLLECTION_NAME_MAX = 100;
export const COLLECTION_DESCRIPTION_MAX = 1_000;

export const COLLECTION_MEMBER_ROLES = ['editor', 'viewer'] as const;
export const collectionMemberRoleSchema = z.enum(COLLECTION_MEMBER_ROLES);
export type CollectionMemberRole = z.infer<typeof collectionMemberRoleSchema>;
/** What the caller is to a collection. */
export const collectionRoleSchema = z.enum(['owner', ...COLLECTION_MEMBER_ROLES]);
export type CollectionRole = z.infer<typeof collectionRoleSchema>;

const idSchema = z.number().int().positive();
const collectionNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'blankName' })
  .max(COLLECTION_NAME_MAX, { error: 'tooLong' });
const descriptionSchema = z.string().trim().max(COLLECTION_DESCRIPTION_MAX, { error: 'tooLong' });

export const collectionSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  ownerId: z.number().int(),
  ownerName: z.string(),
  role: collectionRoleSchema,
  /** References held, including those hidden from the caller. */
  itemCount: z.number().int(),
  memberCount: z.number().int(),
  updatedAt: z.string(),
});
export type CollectionSummary = z.infer<typeof collectionSummarySchema>;

/** A new collection, with its first items when given ("add to a new collection": one step, all or nothing). */
export const createCollectionRequestSchema = z.object({
  name: collectionNameSchema,
  description: descriptionSchema.optional(),
  itemIds: z.array(idSchema).max(COLLECTION_BATCH_MAX, { error: 'tooMany' }).optional(),
});
export const editCollectionRequestSchema = z.object({
  id: idSchema,
  name: collectionNameSchema,
  description: descriptionSchema.optional(),
});
export const collectionRefSchema = z.object({ id: idSchema });
export const collectionQuerySchema = z.object({ id: z.coerce.number().int().positive() });

export const collectionMemberSchema = z.object({
  userId: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  role: collectionMemberRoleSchema,
});
export type CollectionMember = z.infer<typeof collectionMemberSchema>;
export const collectionMembersSchema = z.object({
  ownerId: z.number().int(),
  ownerName: z.string(),
  members: z.array(collectionMemberSchema),
});
export type CollectionMembers = z.infer<typeof collectionMembersSchema>;
/** The whole member list (the owner's call): who is not in it is no member any more. */
export const saveCollectionMembersRequestSchema = z.object({
  id: idSchema,
  members: z
    .array(z.object({ userId: idSchema, role: collectionMemberRoleSchema }))
    .max(COLLECTION_MEMBERS_MAX, { error: 'tooMany' }),
});

export const collectionItemsRequestSchema = z.object({
  id: idSchema,
  itemIds: z.array(idSchema).min(1).max(COLLECTION_BATCH_MAX, { error: 'tooMany' }),
});
export const collectionItemsChangeSchema = z.object({
  /** References the call added or removed (one already there, or not there, is no change). */
  changed: z.number().int(),
  itemCount: z.number().int(),
});
/** Drag and drop: `itemId` goes just before `beforeItemId`, or to the end (null). */
export const moveCollectionItemRequestSchema = z.object({
  id: idSchema,
  itemId: idSchema,
  beforeItemId: idSchema.nullable(),
});

export const collectionItemsQuerySchema = z.object({
  id: z.coerce.number().int().positive(),
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(60),
});
export const collectionItemsPageSchema = z.object({
  collection: collectionSummarySchema,
  list: z.array(itemSchema),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
  /** References the caller may not see (another department's, private, or in the recycle bin): a count, never names. */
  hiddenCount: z.number().int(),
});
export type CollectionItemsPage = z.infer<typeof collectionItemsPageSchema>;

/**
 * Downloading a collection (issue 43): every live item of it the caller may see, as file/batch-download
 * takes them (folders with their files), with the download dialog's choices. `formats`: of each file
 * (and of the files in each folder), the formats to send or convert to; empty or `all` = every format.
 */
export const collectionDownloadRequestSchema = z.object({
  id: idSchema,
  formats: z.array(z.string().trim().toLowerCase().min(1).max(16)).max(20).default([]),
  equalScalingPx: z.number().int().positive().max(MAX_SCALING_PX).nullable().optional(),
  presetId: z.number().int().positive().nullable().optional(),
  metadata: z.enum(DOWNLOAD_METADATA).optional(),
  xmpSidecars: z.boolean().optional(),
});
export type CollectionDownloadPayload = z.output<typeof collectionDownloadRequestSchema>;
