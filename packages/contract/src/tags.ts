import { z } from 'zod';
import { LIMITS } from './constants';
import { tagOfFileSchema } from './files';

/**
 * Tags and channel tags (SPEC §2 Add-tag dialog, file detail "tags by dimension" and "channel
 * tags", batch tagging, /manage/tag; §3 Tag dimension, Channel tag; §5 Tags, Tag Excel exchange;
 * §7 selector/tags, file/modify-tag, channel tags, manage/update-tag, tag-model-export/-import,
 * file-upload/list-sku-tag). Decisions are recorded in docs/decisions.md, "Tags and channel tags".
 *
 * Model: a **dimension** (e.g. "Season") holds up to 15 **tags** ("2026 SS", "2026 AW"…). A
 * dimension may have a parent dimension ("Sub-category" under "Category"); a tag of a child
 * dimension may name a **superior tag** (parentTagId) in the parent dimension ("Running" under
 * "Shoes"). Only top-level dimensions can be **required**; a tag's `required` is its dimension's.
 * Files and folders carry any number of tags (several per dimension allowed). SKUs (article
 * numbers) carry tags too: they are the suggestions for files of that article number.
 * **Channel tags** are free short labels per item (e.g. "Tmall", "JD"), at most 10 characters.
 *
 * Tag rules applied whenever a non-empty tag set is written to an item or SKU (modify-tag,
 * upload, Excel import, sku-tag): every tag exists (SETG_02); every required dimension has a tag
 * (SETG_10); a tag with a superior tag comes with that superior tag (SETG_11). An empty set
 * ("untagged") is always allowed.
 */

/** SPEC §9: tag content items per dimension. */
export const TAG_ITEMS_PER_DIMENSION = LIMITS.tagItemsPerDimension;
/** SPEC §9: longest channel tag, in characters. */
export const CHANNEL_TAG_MAX_CHARS = LIMITS.channelTagChars;
/** Longest tag name, in characters. */
export const TAG_NAME_MAX_CHARS = 30;
/** Longest dimension name, in characters. */
export const TAG_DIMENSION_NAME_MAX_CHARS = 30;
/** Dimensions that may exist at most. */
export const TAG_DIMENSIONS_MAX = 100;
/** Channel tags one item may carry at most (SETG_13 beyond). */
export const CHANNEL_TAGS_PER_ITEM_MAX = 50;
/** Tags one call may set on an item (and one item may carry) at most. */
export const TAGS_PER_ITEM_MAX = 100;
/** Items one modify-tag call may tag at once (batch tagging). */
export const MODIFY_TAG_MAX_ITEMS = 10_000;
/** Article numbers one list-sku-tag call may ask about. */
export const LIST_SKU_TAG_MAX = 100;
/** Data rows of a tag workbook, exported or imported, at most. */
export const TAG_EXCHANGE_MAX_ROWS = 100_000;
/** Largest tag import workbook accepted (bytes). */
export const TAG_IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Characters separating tag names in one cell of the tag workbook; tag names cannot contain them
 * (SE_400 `illegalCharacter`). The export joins names with ", ".
 */
export const TAG_SEPARATORS = [',', '，', '、', ';', '；'] as const;

/** The tag names written in one workbook cell: split on TAG_SEPARATORS, trimmed, empties dropped. */
export function splitTagCell(text: string): string[] {
  return text
    .split(/[,，、;；]/)
    .map((name) => name.trim())
    .filter(Boolean);
}

/**
 * Header texts of the fixed columns of the tag workbook, Chinese first, English second (the export
 * writes Chinese for `lang: zh`, English otherwise; the import accepts both, compared without case).
 * Every further column is a dimension, headed by its name. No dimension may be named like these.
 */
export const TAG_WORKBOOK_FIXED_HEADERS = {
  /** The item id (folderDataId): the only fixed column the import needs and reads. */
  id: ['ID', 'Id'],
  /** Display path of the file's folder; informational, ignored on import. */
  path: ['路径', 'Path'],
  /** File name (base name, without formats); informational, ignored on import. */
  name: ['名称', 'Name'],
  /** Article number; informational, ignored on import (change it in the file detail). */
  artNum: ['货号', 'Article number'],
} as const;
export type TagWorkbookFixedColumn = keyof typeof TAG_WORKBOOK_FIXED_HEADERS;

const id = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 53 - 1);

/** A tag or dimension name: trimmed, not blank (SPEC §5 "tag name not empty"), no separator. */
const tagNameSchema = (max: number) =>
  z
    .string()
    .transform((value) => value.trim())
    .superRefine((value, ctx) => {
      if (value.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'blankName' });
        return;
      }
      const separator = [...value].find((c) => (TAG_SEPARATORS as readonly string[]).includes(c));
      if (separator)
        ctx.addIssue({ code: 'custom', message: 'illegalCharacter', params: { char: separator } });
      if ([...value].length > max) {
        ctx.addIssue({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, message: '' });
      }
    });

// ---------------------------------------------------------------------------------------------
// Dimensions and tags: GET /selector/tags (everyone signed in)
// ---------------------------------------------------------------------------------------------

/** One tag as the add-tag dialog shows it (SPEC §3 Tag dimension). */
export const tagSchema = z.object({
  id: z.number().int(),
  tagName: z.string(),
  /** The dimension's `required` (only tags of top-level dimensions can be required). */
  required: z.boolean(),
  /** The superior tag in the parent dimension, or null. Show this tag only while it is selected. */
  parentTagId: z.number().int().nullable(),
  /** Whether the item named by `folderDataId` carries the tag; always false without one. */
  selected: z.boolean(),
});
export type Tag = z.infer<typeof tagSchema>;

/** One dimension with its tags in display order (SPEC §3 Tag dimension). */
export const tagDimensionSchema = z.object({
  id: z.number().int(),
  dimensionName: z.string(),
  /** Every item tagged must carry at least one tag of a required dimension (SPEC §5). */
  required: z.boolean(),
  /** The parent dimension, or null for a top-level one. */
  parentDimensionId: z.number().int().nullable(),
  /** At most 15 (SPEC §9), in the order the manager saved them. */
  tagDTOList: z.array(tagSchema),
});
export type TagDimension = z.infer<typeof tagDimensionSchema>;

/**
 * `GET /selector/tags?folderDataId=`: every dimension, ordered as SPEC §7 says: required
 * dimensions first, then the other top-level ones, each child dimension right after its parent
 * (children of one parent by their sort order). `folderDataId` (optional, an item the caller can
 * see) marks the item's tags `selected`.
 */
export const selectorTagsQuerySchema = z.object({ folderDataId: id.optional() });
export const selectorTagsResultSchema = z.array(tagDimensionSchema);

// ---------------------------------------------------------------------------------------------
// Tag management (function code 4): /manage/tag
// ---------------------------------------------------------------------------------------------

/** A tag on the management screen: the dialog's fields plus how many items and SKUs carry it. */
export const managedTagSchema = tagSchema.omit({ selected: true }).extend({
  /** Live and recycled files and folders carrying the tag (all of them, whoever may see them). */
  itemCount: z.number().int(),
  /** SKUs carrying the tag. */
  skuCount: z.number().int(),
});
export type ManagedTag = z.infer<typeof managedTagSchema>;

export const managedTagDimensionSchema = tagDimensionSchema.extend({
  /** Position among its siblings (POST /v1_0/manage/tag-dimension/sort changes it). */
  sortOrder: z.number().int(),
  tagDTOList: z.array(managedTagSchema),
});
export type ManagedTagDimension = z.infer<typeof managedTagDimensionSchema>;

/** `GET /v1_0/manage/tag-dimension/list` (code 4): all dimensions, in the selector's order. */
export const managedTagDimensionListSchema = z.array(managedTagDimensionSchema);

/**
 * `POST /v1_0/manage/update-tag` (code 4): saves one whole dimension with its tags in one
 * transaction. Without `id` a dimension is created (placed last). Tags with an `id` are kept
 * (renamed, re-parented, re-ordered), tags without one are created, tags of the dimension missing
 * from the list are deleted together with their links to items and SKUs. The answer is the saved
 * dimension as the management list shows it.
 *
 * Refusals: unknown dimension SETG_01; name taken (any case) SETG_03; the same tag name twice
 * (any case) SETG_04; more than 15 tags SETG_05; a required dimension with a parent or a tag with
 * a superior tag in a required dimension SETG_06; deleting a tag that is the superior tag of
 * others SETG_09; no tag at all SE_400 (SPEC §5 "at least one tag must be filled"); an unknown
 * parent dimension SETG_01; a parent that is the dimension itself or below it, a tag id of
 * another dimension, or a parentTagId outside the parent dimension: SE_400.
 */
export const updateTagRequestSchema = z.object({
  /** The dimension to change; absent = create one. */
  id: id.optional(),
  dimensionName: tagNameSchema(TAG_DIMENSION_NAME_MAX_CHARS),
  required: z.boolean().default(false),
  /** The parent dimension (must exist; a child dimension cannot be required). */
  parentDimensionId: id.nullable().default(null),
  /** Tags in display order; 1–15 (checked by the server with SETG_05 / SE_400). */
  tagDTOList: z
    .array(
      z.object({
        /** An existing tag of this dimension; absent = a new tag. */
        id: id.optional(),
        tagName: tagNameSchema(TAG_NAME_MAX_CHARS),
        /** A tag of the parent dimension, or null. Not allowed in a required dimension. */
        parentTagId: id.nullable().default(null),
      }),
    )
    .max(200),
});
export type UpdateTagRequest = z.input<typeof updateTagRequestSchema>;

/**
 * `POST /v1_0/manage/tag-dimension/delete` `{id}` (code 4): deletes a dimension, its tags and
 * their links to items and SKUs, in one transaction. SETG_01 unknown; SETG_08 while it has child
 * dimensions; SETG_09… never (its tags can only be superior tags of a child dimension's tags).
 */
export const deleteTagDimensionRequestSchema = z.object({ id });

/**
 * `POST /v1_0/manage/tag-dimension/sort` `{idList}` (code 4): the new order of some sibling
 * dimensions (same parent, or all top-level); each gets its position in the list. Dimensions not
 * listed keep theirs. Required ones still come first among top-level dimensions.
 */
export const sortTagDimensionsRequestSchema = z.object({
  idList: z.array(id).min(1).max(TAG_DIMENSIONS_MAX),
});

// ---------------------------------------------------------------------------------------------
// Tagging items: POST /v1_0/file/modify-tag (edit permission on every item)
// ---------------------------------------------------------------------------------------------

/**
 * SPEC §7 `file/modify-tag`: sets the tags of one item (`folderDataId`, the detail's edit mode)
 * or many (`folderDataIdList`, batch tagging), in one transaction: one refused item changes
 * nothing. `mode` `replace` (default) makes `tagIdList` the items' tags (empty = untagged);
 * `add` adds them to what each item has. Every item must be live and editable by the caller
 * (unknown or not visible SE_404, not editable SE_502, in the recycle bin SEF_04). The tag rules
 * (header of this file) apply to each resulting set: unknown tag SETG_02, required dimension
 * missing SETG_10 (names it), superior tag missing SETG_11.
 */
export const modifyTagRequestSchema = z
  .object({
    folderDataId: id.optional(),
    folderDataIdList: z.array(id).max(MODIFY_TAG_MAX_ITEMS).optional(),
    tagIdList: z.array(id).max(TAGS_PER_ITEM_MAX),
    mode: z.enum(['replace', 'add']).default('replace'),
  })
  .refine((b) => b.folderDataId !== undefined || (b.folderDataIdList?.length ?? 0) > 0, {
    path: ['folderDataId'],
    message: 'required',
  });
export type ModifyTagRequest = z.input<typeof modifyTagRequestSchema>;
/** How many items the call tagged. */
export const modifyTagResultSchema = z.object({ count: z.number().int() });

/** At most this many items per `file/tags-of` call (a page of the batch tagging screen). */
export const TAGS_OF_ITEMS_MAX = 200;
/**
 * `POST /v1_0/file/tags-of` `{folderDataIdList}`: the tags of each of these items the caller may
 * see (the others are left out, as unknown ones), for the batch tagging screen's list.
 */
export const tagsOfItemsRequestSchema = z.object({
  folderDataIdList: z.array(id).min(1).max(TAGS_OF_ITEMS_MAX),
});
export const tagsOfItemsResultSchema = z.array(
  z.object({ folderDataId: z.number().int(), tagDTOList: z.array(tagOfFileSchema) }),
);

/** SPEC §3 File detail `tagDTOList` entry (`tagOfFileSchema` of files.ts, `GET /v1_0/file/detail`). */
export type TagOfFile = z.infer<typeof tagOfFileSchema>;

// ---------------------------------------------------------------------------------------------
// Channel tags: view permission to list, edit permission to add or delete
// ---------------------------------------------------------------------------------------------

/** SPEC §3 Channel tag. */
export const channelTagSchema = z.object({
  id: z.number().int(),
  /** 1–10 characters, unique per item without regard to case. */
  channelName: z.string(),
  folderDataId: z.number().int(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
});
export type ChannelTag = z.infer<typeof channelTagSchema>;

/**
 * `POST /v1_0/file/add-channel-tag` `{folderDataId, channelName}` → the new channel tag.
 * channelName is trimmed; empty → SE_400 `required` (SPEC "not empty label"), longer than 10 →
 * SE_400 `tooLong`; already on the item (any case) SETG_12; more than 50 on one item SETG_13.
 */
export const addChannelTagRequestSchema = z.object({
  folderDataId: id,
  channelName: z.string().trim().min(1).max(CHANNEL_TAG_MAX_CHARS),
});
/** `GET /v1_0/file/channel-tag?folderDataId=` → the item's channel tags, oldest first. */
export const channelTagListQuerySchema = z.object({ folderDataId: id });
export const channelTagListSchema = z.array(channelTagSchema);
/** `GET /v1_0/file/delete-channel-tag?id=` → null. Unknown id SE_404. */
export const deleteChannelTagQuerySchema = z.object({ id });

// ---------------------------------------------------------------------------------------------
// SKU tags: the tag suggestions of the upload dialog (SPEC §4 "ticking one group loads tag
// suggestions for that file name")
// ---------------------------------------------------------------------------------------------

/**
 * `GET /v1_0/file-upload/list-sku-tag?artNumList=A,B` (signed in): the tags of these article
 * numbers (any case; 1–100; unknown ones are left out), in the order asked.
 */
export const listSkuTagQuerySchema = z.object({
  artNumList: z.preprocess(
    (v) => (Array.isArray(v) ? v : String(v ?? '').split(',')).map((s) => String(s).trim()).filter(Boolean),
    z.array(z.string().max(64)).min(1).max(LIST_SKU_TAG_MAX),
  ),
});
export const skuTagSchema = z.object({
  /** As stored in the SKU master. */
  artNum: z.string(),
  tagIdList: z.array(z.number().int()),
  /** The same tags with their names and dimensions, in selector order. */
  tagDTOList: z.array(tagOfFileSchema),
});
export type SkuTag = z.infer<typeof skuTagSchema>;
export const skuTagListSchema = z.array(skuTagSchema);

/**
 * `POST /v1_0/manage/sku-tag` `{artNum, tagIdList}` (code 4): sets the tags of one SKU (empty =
 * none); the tag rules apply. Unknown article number SE_404. Answers the SKU's tags.
 */
export const setSkuTagRequestSchema = z.object({
  artNum: z.string().trim().min(1).max(64),
  tagIdList: z.array(id).max(TAGS_PER_ITEM_MAX),
});

// ---------------------------------------------------------------------------------------------
// Tag Excel exchange (code 4; SPEC §5 "Tag Excel exchange", §7 tag-model-export/-import)
// ---------------------------------------------------------------------------------------------

/**
 * `POST /v1_0/manage/tag-model-export` `{folderDataIdList, folderIdList}` → an .xlsx file (not an
 * envelope; errors are envelopes). One row per live file in the range: the files chosen, and every
 * file inside the folders chosen (recursively), as far as the caller can see them; columns ID,
 * path, name, article number (TAG_WORKBOOK_FIXED_HEADERS), then one column per dimension (selector
 * order) with the file's tag names joined by ", ". Nothing chosen → SE_400 `chooseRange` (SPEC §5
 * "export needs a chosen file range"); a chosen id unknown or not visible SE_404, in the
 * recycle bin SEF_04; more than 100,000 files SETG_15.
 */
export const tagModelExportRequestSchema = z
  .object({
    folderDataIdList: z.array(id).max(LIMITS.filesPerSelection).default([]),
    folderIdList: z.array(id).max(LIMITS.filesPerSelection).default([]),
  })
  .refine((b) => b.folderDataIdList.length + b.folderIdList.length > 0, {
    path: ['folderDataIdList'],
    message: 'chooseRange',
  });
export type TagModelExportRequest = z.input<typeof tagModelExportRequestSchema>;

/**
 * `POST /v1_0/manage/tag-model-import`, multipart with one field `file` (an .xlsx, at most 20 MB
 * and 100,000 rows; SPEC §5 "import needs an Excel file": no file → SE_400). The first sheet's
 * first non-empty row is the header: the ID column is required (SESK_02 without it), path, name
 * and article number are ignored, every other column must name a dimension (any case). Each row
 * sets, for every dimension column present, the item's tags of that dimension to the names in the
 * cell (an empty cell clears that dimension; dimensions without a column stay as they are). All
 * rows are checked first, then applied in one transaction; the first problem refuses the whole
 * file with SETG_14 "Row {row}, column {column}: {detail}" — unknown item, item the caller may not
 * edit, the same item twice, unknown tag, unknown dimension (header row), required dimension
 * missing, superior tag missing. Unreadable file SESK_01, too large SESK_06, too many rows SESK_07.
 */
/** At most this many changes and problems come back from a dry run (the counts are whole). */
export const TAG_IMPORT_PREVIEW_MAX = 500;
/**
 * `?dryRun=1`: everything is read and checked and nothing is written; the answer lists what would
 * change and every problem (not only the first), so the screen can show a diff before applying.
 */
export const tagModelImportQuerySchema = z.object({
  dryRun: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
export const tagModelImportResultSchema = z.object({
  /** Data rows read. */
  total: z.number().int(),
  /** Items whose tags changed (or would, in a dry run). */
  changed: z.number().int(),
  /** Items whose tags were already as in the file. */
  unchanged: z.number().int(),
  /** Whether this was a dry run (nothing written). */
  dryRun: z.boolean(),
  /** Dry run: the rows that would change, their tags before and after (names), at most TAG_IMPORT_PREVIEW_MAX. */
  changes: z.array(
    z.object({
      row: z.number().int(),
      folderDataId: z.number().int(),
      name: z.string(),
      before: z.array(z.string()),
      after: z.array(z.string()),
    }),
  ),
  /** Dry run: every row's problem, worded in the caller's language, at most TAG_IMPORT_PREVIEW_MAX. */
  problems: z.array(z.object({ row: z.number().int(), message: z.string() })),
  /** Dry run: problems found in all (the list may stop at TAG_IMPORT_PREVIEW_MAX). */
  problemCount: z.number().int(),
});
export type TagModelImportResult = z.infer<typeof tagModelImportResultSchema>;
