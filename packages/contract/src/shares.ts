import { z } from 'zod';
import { fileDetailSchema, MAX_SCALING_PX } from './files';
import { itemSchema, pagingSchema, type RankStatus, rankStatusSchema } from './items';
import {
  DEFAULT_SHARE_TYPE,
  DEFAULT_SHARE_VALIDITY,
  SHARE_CODE_PATTERN,
  SHARE_MAX_ITEMS,
  SHARE_VALIDITIES,
  SHARE_VALIDITY_HOURS,
  ShareStatus,
  ShareType,
  type ShareValidity,
} from './shares-values';

export * from './shares-values';

/**
 * Share links (SPEC §2 Share-link dialog, /myshare, /newShare, /visitfile; §4 Share link status;
 * §7 user/share/*; §9 share constants). Decisions are recorded in docs/decisions.md, "Share links".
 *
 * A link names files and folders (its "roots"); a visitor sees each root and, for a folder,
 * everything inside it that the link's owner can see at the time of the visit. Times are ISO 8601
 * strings in UTC, as everywhere.
 */

/** A link code: base64url, exactly SHARE_CODE_LENGTH characters. Anything else is SE_400. */
export const shareCodeSchema = z.string().regex(SHARE_CODE_PATTERN, { message: 'invalidFormat' });

const id = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 53 - 1);

/**
 * `expireTime`: a preset key (`2h`, `1d`, `7d`, `30d`, `none`), or its number of hours
 * (2, 24, 168, 720; 0 = none). Anything else is SE_400 `shareValidity`.
 */
export const shareValiditySchema = z.preprocess(
  (raw) => {
    if (typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw.trim()))) {
      const hours = Number(raw);
      if (hours === 0) return 'none';
      return SHARE_VALIDITIES.find((key) => SHARE_VALIDITY_HOURS[key] === hours) ?? raw;
    }
    return typeof raw === 'string' ? raw.trim() : raw;
  },
  z.enum(SHARE_VALIDITIES as [ShareValidity, ...ShareValidity[]], { message: 'shareValidity' }),
);

/** `needPassword`: 1 (or true) = password needed, 0 (or false) = public. */
const shareTypeSchema = z.preprocess(
  (raw) => (raw === true || raw === '1' ? 1 : raw === false || raw === '0' ? 0 : raw),
  z.union([z.literal(ShareType.public), z.literal(ShareType.password)]),
);

/** POST /v1_0/user/share/produce-random-code. */
export const createShareRequestSchema = z.object({
  /** 1 = password needed (default), 0 = public. */
  needPassword: shareTypeSchema.default(DEFAULT_SHARE_TYPE),
  /** Validity preset (default 7 days); see shareValiditySchema. */
  expireTime: shareValiditySchema.default(DEFAULT_SHARE_VALIDITY),
  /** Files and folders to share: comma-joined ids (`"1,2,3"`, as SPEC §7) or an array. */
  folderIds: z.preprocess(
    (v) =>
      (Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : v === undefined ? [] : [v])
        .map((s) => (typeof s === 'string' ? s.trim() : s))
        .filter((s) => s !== ''),
    z.array(id).min(1, { message: 'required' }).max(SHARE_MAX_ITEMS),
  ),
});
/** What the web sends to produce-random-code (the schema also accepts booleans and numeric strings). */
export interface CreateShareRequest {
  needPassword?: ShareType;
  expireTime?: ShareValidity | number;
  folderIds: string | number[];
}
export type CreateSharePayload = z.output<typeof createShareRequestSchema>;

/** A collection's link (issue 43): the link type and validity of produce-random-code, for one collection. */
export const shareCollectionRequestSchema = createShareRequestSchema
  .omit({ folderIds: true })
  .extend({ id: id });
export type ShareCollectionPayload = z.output<typeof shareCollectionRequestSchema>;

/** What the second dialog shows: the link, and the password when there is one. */
export const createShareResultSchema = z.object({
  /** The link's id (for cancel-share). */
  id: z.number().int(),
  code: z.string(),
  /** `/visitfile?code=…`, relative: the web puts its origin in front. */
  url: z.string(),
  /** The share password (SHARE_PASSWORD_LENGTH characters), or null for a public link. */
  password: z.string().nullable(),
  needPassword: z.boolean(),
  validity: z.enum(SHARE_VALIDITIES as [ShareValidity, ...ShareValidity[]]),
  createdAt: z.string(),
  /** null = permanent. */
  expiresAt: z.string().nullable(),
});
export type CreateShareResult = z.infer<typeof createShareResultSchema>;

export const shareStatusSchema = z.enum(ShareStatus);

/** GET /v1_0/user/share/list?pageNo&pageSize: the caller's links, newest first. */
export const myShareSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  url: z.string(),
  needPassword: z.boolean(),
  /** Shown to the owner only, so they can pass it on again; null for a public link. */
  password: z.string().nullable(),
  validity: z.enum(SHARE_VALIDITIES as [ShareValidity, ...ShareValidity[]]),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  status: shareStatusSchema,
  /** Files and folders of the link still there (not deleted since); 0 = nothing left to see. */
  itemCount: z.number().int(),
  /** Names of the first SHARE_LIST_NAMES_SHOWN of them, in the order they were chosen. */
  itemNames: z.array(z.string()),
  /** Thumbnail of the first of them that has one (a signed URL), or null. */
  coverUrl: z.string().nullable(),
  /** The first one's ItemType (its icon when there is no cover: a folder shows a folder); null: nothing left. */
  firstItemType: z.number().int().nullable(),
  /** Visitor sessions started (public link opened, or password accepted). */
  viewCount: z.number().int(),
  /** Downloads made through the link (one per zip or file sent). */
  downloadCount: z.number().int(),
  /** The collection a collection's link shows (its items of each visit), or null for a link of items. */
  collectionName: z.string().nullable(),
});
export type MyShare = z.infer<typeof myShareSchema>;
export const myShareListSchema = z.object({
  list: z.array(myShareSchema),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type MyShareList = z.infer<typeof myShareListSchema>;

/** GET /v1_0/user/share/cancel-share?code=… (or ?id=…): stops one of the caller's links. */
export const cancelShareQuerySchema = z
  .object({ code: shareCodeSchema.optional(), id: id.optional() })
  .refine((q) => q.code !== undefined || q.id !== undefined, { path: ['code'], message: 'required' });

/** POST /v1_0/file/new-share (route /newShare): paging in the body or the query string. */
export const newShareRequestSchema = pagingSchema;

/** One live link whose items the caller can see; the items are presented for the caller. */
export const newShareSchema = z.object({
  /** The link's id (its code and password are never shown to others). */
  id: z.number().int(),
  ownerId: z.number().int(),
  ownerName: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  /** How many of the link's items the caller can see (only those are listed). */
  itemCount: z.number().int(),
  /** The first NEW_SHARE_ITEMS_SHOWN of them, as every listing presents items (open them directly). */
  items: z.array(itemSchema),
  /** Thumbnail of the first of them that has one, or null. */
  coverUrl: z.string().nullable(),
});
export type NewShare = z.infer<typeof newShareSchema>;
export const newShareListSchema = z.object({
  list: z.array(newShareSchema),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type NewShareList = z.infer<typeof newShareListSchema>;

// ——— Visitor calls: reachable without sign-in ———

/**
 * A file or folder as a visitor sees it: the item fields of every listing (same names), minus who
 * owns it and where it lives outside the link. `path` is the folder inside the link (`/` for
 * what the link names, `/Campaign/Details` below); `authList` is `view` plus `download` when the
 * owner may download it now.
 */
export const sharedItemSchema = itemSchema.pick({
  id: true,
  folderDataId: true,
  type: true,
  name: true,
  path: true,
  /** The folder holding it inside the link, or null for what the link names itself. */
  parentId: true,
  fileFormat: true,
  /** Thumbnail (signed URL, no sign-in needed), or null. */
  compactUrl: true,
  fileSize: true,
  artNum: true,
  expireStartTime: true,
  expireEndTime: true,
  expired: true,
  createdAt: true,
  updatedAt: true,
  /** Who uploaded or created it. */
  userName: true,
  authList: true,
});
export type SharedItem = z.infer<typeof sharedItemSchema>;

/**
 * GET /v1_0/user/share/random/{code} and POST …/random/{code} `{ password }`.
 * Before access is granted (a password link, GET without a valid visitor token) `items`,
 * `shareToken` and `tokenExpiresAt` are null: ask for the password and POST it. Once granted they
 * are set: keep the token (e.g. in sessionStorage per code) and send it in the `share-token`
 * header on the folder and download calls, and on the next GET of the same code (no view is
 * counted again while it is valid).
 */
export const shareVisitSchema = z.object({
  code: z.string(),
  needPassword: z.boolean(),
  /** The name of the person who shared. */
  ownerName: z.string(),
  createdAt: z.string(),
  /** null = permanent. */
  expiresAt: z.string().nullable(),
  shareToken: z.string().nullable(),
  tokenExpiresAt: z.string().nullable(),
  /** What the link names, still available, in the order chosen (null until access is granted). */
  items: z.array(sharedItemSchema).nullable(),
  /** A collection's link: the collection's name (null for a link of items, and until access is granted). */
  collectionName: z.string().nullable(),
});
export type ShareVisit = z.infer<typeof shareVisitSchema>;

/**
 * The code in a visitor's address, as typed or pasted: any short string. One not shaped like a code
 * is a link that does not exist (SESH_01, "the link is invalid"), not a parameter error.
 */
export const shareCodeParamsSchema = z.object({ code: z.string().max(256) });
/** POST /v1_0/user/share/random/{code}: the share password (trimmed, compared without case). */
export const verifySharePasswordRequestSchema = z.object({
  password: z.string().trim().min(1).max(64),
});

const visitorTokenField = {
  /** The visitor token, when not sent in the `share-token` header. */
  shareToken: z.string().min(10).max(1000).optional(),
};

/**
 * POST /v1_0/user/share/folder: one page of a folder inside the link (its live children the
 * owner can see). `folderId` absent = the link's own items, paged.
 */
export const shareFolderRequestSchema = pagingSchema.extend({
  ...visitorTokenField,
  folderId: id.optional(),
  rankStatus: rankStatusSchema,
});
export interface ShareFolderRequest {
  shareToken?: string;
  folderId?: number;
  pageNo?: number;
  pageSize?: number;
  /** Sort toggle: normal (folders first, newest first), up (name A→Z), down (name Z→A). */
  rankStatus?: RankStatus;
}

export const shareFolderResultSchema = z.object({
  /** The folder listed, or null for the link's own items. */
  folder: sharedItemSchema.nullable(),
  /** From the folder the link names down to this one (empty for the link's own items). */
  breadcrumb: z.array(z.object({ id: z.number().int(), name: z.string() })),
  list: z.array(sharedItemSchema),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type ShareFolderResult = z.infer<typeof shareFolderResultSchema>;

/**
 * POST /v1_0/user/share/file: one file inside the link, as the visitor's viewer shows it (issue 39
 * item 6): the same preview, video source and PDF page images a signed-in viewer gets, as media
 * URLs that live with the link (refused once it is stopped or expired, or the file leaves it).
 * A folder, or an id outside the link, is refused like the folder call (SE_404, SE_502).
 */
export const shareFileRequestSchema = z.object({
  ...visitorTokenField,
  folderDataId: id,
});
export type ShareFileRequest = z.input<typeof shareFileRequestSchema>;

export const sharedFileSchema = fileDetailSchema.pick({
  id: true,
  type: true,
  name: true,
  fileFormat: true,
  previewUrl: true,
  compactUrl: true,
  previewStatus: true,
  playUrl: true,
  playStatus: true,
  pageCount: true,
  pageUrls: true,
  expired: true,
});
export type SharedFile = z.infer<typeof sharedFileSchema>;

/**
 * POST /v1_0/user/share/download (streams the file or zip) and …/download-ticket (answers
 * `{ url }`, a link to GET within 5 minutes that streams the same; use it for a browser download).
 * The fields of file/batch-download a visitor may use; ids must lie inside the link. Nothing
 * chosen = everything the link names ("download all"). Always counted as a share download.
 */
export const shareDownloadRequestSchema = z.object({
  ...visitorTokenField,
  folderDataIdList: z.array(z.number().int().positive()).max(10_000).default([]),
  downloadFolderDataDTOList: z
    .array(
      z.object({
        folderDataId: z.number().int().positive(),
        fileFormatList: z.array(z.string().trim().toLowerCase().min(1).max(16)).max(20),
      }),
    )
    .max(10_000)
    .default([]),
  equalScalingPx: z.number().int().positive().max(MAX_SCALING_PX).nullable().optional(),
});
export type ShareDownloadRequest = z.input<typeof shareDownloadRequestSchema>;
export type ShareDownloadPayload = z.output<typeof shareDownloadRequestSchema>;
