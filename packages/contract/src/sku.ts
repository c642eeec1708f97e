import { z } from 'zod';
import { LIMITS } from './constants';
import { tagOfFileSchema } from './files';
import { pagingSchema } from './items';

/**
 * The SKU (article number) master data of the brand (SPEC §7 "Main API, selectors, SKU and
 * tags"): what the upload dialog checks article numbers in file names against, what the
 * article-number pickers and suggestions offer, and what administrators import from Excel.
 */

/** Longest article number accepted anywhere (matches the upload entry's artNum). */
export const ART_NUM_MAX_CHARS = 64;
export const SKU_NAME_MAX_CHARS = 200;
/** Longest value of the descriptive fields (series, category, colour, season, gender). */
export const SKU_FIELD_MAX_CHARS = 100;
/** Suggestions and picker entries returned at most. */
export const SKU_SUGGEST_LIMIT = 20;
/** Largest import workbook accepted. */
export const SKU_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** Data rows one import may hold. */
export const SKU_IMPORT_MAX_ROWS = 100_000;
/** Article numbers taken from one file name at most (the rest are ignored). */
export const ART_NUMS_PER_NAME_MAX = 10;

/** One article of the SKU master. Times are ISO 8601 strings in UTC. */
export const skuSchema = z.object({
  id: z.number().int(),
  /** As imported (trimmed); unique regardless of case. */
  artNum: z.string(),
  name: z.string(),
  series: z.string().nullable(),
  category: z.string().nullable(),
  color: z.string().nullable(),
  season: z.string().nullable(),
  gender: z.string().nullable(),
  /** Tags of the article (set by tag managers with `POST /v1_0/manage/sku-tag`), selector order. */
  tagIdList: z.array(z.number().int()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Sku = z.infer<typeof skuSchema>;

/** `POST /v1_0/sku/data/list?pageSize&pageNo` query string. */
export const skuListQuerySchema = pagingSchema;
/**
 * `POST /v1_0/sku/data/list` body (optional): `query` matches anywhere in the article number or
 * the name, regardless of case.
 */
export const skuListRequestSchema = z
  .object({ query: z.string().trim().max(LIMITS.searchChars).optional() })
  .nullish();
export type SkuListRequest = z.infer<typeof skuListRequestSchema>;

export const pagedSkusSchema = z.object({
  list: z.array(skuSchema),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type PagedSkus = z.infer<typeof pagedSkusSchema>;

/** `GET /selector/sku-info?query=`: up to 20 articles for a picker. */
export const skuSelectorQuerySchema = z.object({
  query: z.string().trim().max(LIMITS.searchChars).optional(),
});
export const skuOptionSchema = z.object({ artNum: z.string(), name: z.string() });
export type SkuOption = z.infer<typeof skuOptionSchema>;

/** `GET /v1_0/file/art-num?artNum=`: article numbers starting with `artNum` (any case). */
export const artNumSuggestQuerySchema = z.object({
  artNum: z.string().trim().max(ART_NUM_MAX_CHARS).default(''),
});
/** SPEC §3 "Article-number suggestion result: artNum, tagIdList" (the article's tags, selector order). */
export const artNumSuggestionSchema = z.object({
  artNum: z.string(),
  name: z.string(),
  tagIdList: z.array(z.number().int()),
});
export type ArtNumSuggestion = z.infer<typeof artNumSuggestionSchema>;

/** `POST /v1_0/sku/file-tag-info`: the file names of an upload selection (SPEC §5: up to 3000). */
export const fileTagInfoRequestSchema = z.object({
  nameList: z.array(z.string().max(255)).max(LIMITS.filesPerSelection),
});
export type FileTagInfoRequest = z.infer<typeof fileTagInfoRequestSchema>;

export const fileTagInfoSchema = z.object({
  /** The name as sent. */
  fileName: z.string(),
  /**
   * Article numbers found in the name by ART_NUM_PATTERN, in order of appearance, without
   * duplicates; spelled as in the SKU master when known, upper-cased when not.
   */
  artNumList: z.array(z.string()),
  /** Those of artNumList missing from the SKU master. */
  unknownArtNumList: z.array(z.string()),
  /**
   * Tag suggestions for the name (SPEC §4 "ticking one group loads tag suggestions"): the tags of
   * the known articles of artNumList, each once; each article's tags in selector order, the
   * name's first article first. Use them to pre-select tags of the group (SPEC §4).
   */
  tagDTOList: z.array(tagOfFileSchema),
});
export type FileTagInfo = z.infer<typeof fileTagInfoSchema>;
/** One entry per name sent, in the same order. */
export const fileTagInfoResultSchema = z.object({ list: z.array(fileTagInfoSchema) });
export type FileTagInfoResult = z.infer<typeof fileTagInfoResultSchema>;

/**
 * `POST /v1_0/sku/check`: article numbers as typed (the upload dialog's fields), checked against
 * the SKU master in one query.
 */
export const skuCheckRequestSchema = z.object({
  artNumList: z.array(z.string().trim().min(1).max(64)).max(LIMITS.filesPerSelection),
});
export const skuCheckResultSchema = z.object({
  /** False while the SKU master is empty: then nothing is checked, and nothing flagged. */
  checked: z.boolean(),
  /** The known ones, spelled as in the master, in request order. */
  knownArtNumList: z.array(z.string()),
  /** The unknown ones, as sent. */
  unknownArtNumList: z.array(z.string()),
});
export type SkuCheckResult = z.infer<typeof skuCheckResultSchema>;

/** `POST /v1_0/sku/import` (multipart, field `file`, an .xlsx) result. */
export const skuImportResultSchema = z.object({
  /** Data rows read. */
  total: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  /** Rows identical to what was stored already. */
  unchanged: z.number().int(),
});
export type SkuImportResult = z.infer<typeof skuImportResultSchema>;

/** Fields of an import row, in template order. */
export const SKU_IMPORT_FIELDS = [
  'artNum',
  'name',
  'series',
  'category',
  'color',
  'season',
  'gender',
] as const;
export type SkuImportField = (typeof SKU_IMPORT_FIELDS)[number];
/** Columns every import needs (and every row must fill). */
export const SKU_REQUIRED_FIELDS: readonly SkuImportField[] = ['artNum', 'name'];

/**
 * Header names recognised per field (compared trimmed, case- and space-insensitively, with `*`
 * removed; a header `货号 / Article number` matches by either half). The first of each list is
 * the Chinese template header, the second the English one.
 */
export const SKU_IMPORT_HEADERS: Record<SkuImportField, readonly string[]> = {
  artNum: [
    '货号',
    'Article number',
    '款号',
    '商品货号',
    'Article no',
    'Article no.',
    'Art no',
    'Art. no.',
    'ArtNum',
    'Art_num',
    'SKU',
    'Style number',
    'Style no',
    'Style code',
  ],
  name: ['名称', 'Name', '商品名称', '品名', 'Product name', 'Article name'],
  series: ['系列', 'Series', 'Collection'],
  category: ['品类', 'Category', '类别', '分类', 'Product category'],
  color: ['颜色', 'Colour', '配色', 'Color', 'Colorway', 'Colourway'],
  season: ['季节', 'Season', '上市季节'],
  gender: ['性别', 'Gender'],
};
