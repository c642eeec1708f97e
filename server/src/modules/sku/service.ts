import type { Readable } from 'node:stream';
import {
  type ArtNumSuggestion,
  type FileTagInfoResult,
  FunctionCode,
  type PagedSkus,
  SKU_IMPORT_FIELDS,
  SKU_IMPORT_MAX_ROWS,
  SKU_REQUIRED_FIELDS,
  SKU_SUGGEST_LIMIT,
  type Sku,
  type SkuCheckResult,
  type SkuImportResult,
  type SkuOption,
  type TagOfFile,
} from '@dam/contract';
import type { SkuRow } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { type AuthContext, requireAnyCode } from '../access/access';
import { extractArtNums } from './art-num';
import { SKU_FIELD_COLUMN, SKU_FIELD_MAX } from './fields';
import { SkuImportError } from './import-error';
import type { SkuColumn, SkuRepository, SkuValues } from './repository';
import { buildTemplate, mapHeader, readFirstSheet, UnreadableWorkbookError } from './workbook';

export interface SkuDependencies {
  sku: SkuRepository;
  /** Tags of SKUs by id, in selector order (the tags module); without it SKUs carry no tags. */
  tags?: { tagsOfSkus(skuIds: readonly number[]): Promise<Map<number, TagOfFile[]>> };
  clock: Clock;
  /** ART_NUM_PATTERN, compiled by compileArtNumPattern. */
  artNumPattern: RegExp;
}

/** What a workbook upload looks like to the service: its bytes, and whether they were cut off. */
export interface ImportSource {
  stream: Readable;
  /** True once the stream was cut at the size limit (known after it has ended). */
  truncated(): boolean;
}

function presentSku(row: SkuRow, tags: readonly TagOfFile[]): Sku {
  return {
    id: row.id,
    artNum: row.art_num,
    name: row.name,
    series: row.series,
    category: row.category,
    color: row.color,
    season: row.season,
    gender: row.gender,
    tagIdList: tags.map((t) => t.id),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Reads whatever is left of a stream, so a cut-off upload can be told from a broken one. */
async function drain(stream: Readable): Promise<void> {
  stream.unpipe();
  for await (const _chunk of stream) {
    // discard
  }
}

/** The SKU master: listing, pickers, checks of file names, and the Excel import. */
export class SkuService {
  constructor(private readonly deps: SkuDependencies) {}

  private async tagsOf(skuIds: readonly number[]): Promise<Map<number, TagOfFile[]>> {
    return (await this.deps.tags?.tagsOfSkus(skuIds)) ?? new Map();
  }

  /** SPEC §7 `sku/data/list`: a page of articles ordered by number, optionally filtered. */
  async list(
    _auth: AuthContext,
    query: string | undefined,
    paging: { pageNo: number; pageSize: number },
  ): Promise<PagedSkus> {
    const rows = await this.deps.sku.list(
      query || undefined,
      (paging.pageNo - 1) * paging.pageSize,
      paging.pageSize + 1,
    );
    const page = rows.slice(0, paging.pageSize);
    const tags = await this.tagsOf(page.map((r) => r.id));
    return {
      list: page.map((row) => presentSku(row, tags.get(row.id) ?? [])),
      pageNo: paging.pageNo,
      pageSize: paging.pageSize,
      hasMore: rows.length > paging.pageSize,
    };
  }

  /** SPEC §7 `selector/sku-info`: up to 20 articles for a picker. */
  async options(_auth: AuthContext, query: string | undefined): Promise<SkuOption[]> {
    const rows = await this.deps.sku.options(query || undefined, SKU_SUGGEST_LIMIT);
    return rows.map((r) => ({ artNum: r.art_num, name: r.name }));
  }

  /** SPEC §7 `file/art-num`: article numbers starting with what was typed. */
  async suggest(_auth: AuthContext, artNum: string): Promise<ArtNumSuggestion[]> {
    if (!artNum) return [];
    const rows = await this.deps.sku.suggest(artNum, SKU_SUGGEST_LIMIT);
    const tags = await this.tagsOf(rows.map((r) => r.id));
    return rows.map((r) => ({
      artNum: r.art_num,
      name: r.name,
      tagIdList: (tags.get(r.id) ?? []).map((t) => t.id),
    }));
  }

  /**
   * SPEC §7 file-tag-info: the article numbers in each file name, checked against the master in
   * one query for the whole selection. Known ones take the master's spelling; unknown ones are
   * upper-cased (as the upload dialog pre-fills them) and listed apart.
   */
  async fileTagInfo(_auth: AuthContext, nameList: readonly string[]): Promise<FileTagInfoResult> {
    const extracted = nameList.map((name) => extractArtNums(name, this.deps.artNumPattern));
    const skus = await this.deps.sku.findSkus(extracted.flat());
    const known = new Map(skus.map((sku) => [sku.art_num.toLowerCase(), sku]));
    const tags = await this.tagsOf(skus.map((s) => s.id));
    return {
      list: nameList.map((fileName, index) => {
        const artNumList: string[] = [];
        const unknownArtNumList: string[] = [];
        // Tags of the name's known articles, each once: the first article's (selector order) first.
        const tagDTOList: TagOfFile[] = [];
        for (const found of extracted[index] ?? []) {
          const stored = known.get(found.toLowerCase());
          if (stored) {
            artNumList.push(stored.art_num);
            for (const tag of tags.get(stored.id) ?? [])
              if (!tagDTOList.some((t) => t.id === tag.id)) tagDTOList.push(tag);
          } else {
            const upper = found.toUpperCase();
            artNumList.push(upper);
            unknownArtNumList.push(upper);
          }
        }
        return { fileName, artNumList, unknownArtNumList, tagDTOList };
      }),
    };
  }

  /** Typed article numbers against the master: which are known (in its spelling), which not. */
  async check(_auth: AuthContext, artNumList: readonly string[]): Promise<SkuCheckResult> {
    // Before any SKU data is imported every number would be "unknown": that flags nothing useful.
    if (await this.deps.sku.isEmpty()) return { checked: false, knownArtNumList: [], unknownArtNumList: [] };
    const known = new Map(
      (await this.deps.sku.findArtNums(artNumList)).map((artNum) => [artNum.toLowerCase(), artNum]),
    );
    const knownArtNumList: string[] = [];
    const unknownArtNumList: string[] = [];
    for (const artNum of new Set(artNumList)) {
      const stored = known.get(artNum.toLowerCase());
      if (stored) knownArtNumList.push(stored);
      else unknownArtNumList.push(artNum);
    }
    return { checked: true, knownArtNumList, unknownArtNumList };
  }

  /** The empty import workbook (header row only). Import management (code 8). */
  async template(auth: AuthContext, chinese: boolean): Promise<Buffer> {
    requireAnyCode(auth, FunctionCode.import);
    return buildTemplate(chinese);
  }

  /** Throws SE_502 unless the caller holds import management (code 8). */
  requireImport(auth: AuthContext): void {
    requireAnyCode(auth, FunctionCode.import);
  }

  /**
   * Imports an .xlsx: the first sheet's first non-empty row is the header (Chinese or English
   * names), each further row one article. Every row is checked before anything is written; then
   * all rows are upserted by article number in one transaction. Columns missing from the header
   * are left as stored; an empty cell in a present column clears that value.
   */
  async importWorkbook(auth: AuthContext, source: ImportSource): Promise<SkuImportResult> {
    this.requireImport(auth);
    let parsed: { rows: SkuValues[]; columns: SkuColumn[] };
    try {
      parsed = await this.parseRows(source.stream);
    } catch (error) {
      await drain(source.stream);
      if (source.truncated()) throw new SkuImportError('SESK_06');
      if (error instanceof UnreadableWorkbookError) throw new SkuImportError('SESK_01');
      throw error;
    }
    await drain(source.stream);
    if (source.truncated()) throw new SkuImportError('SESK_06');

    const { rows, columns } = parsed;
    const counts = await this.deps.sku.transaction((sku) => sku.upsert(rows, columns, this.deps.clock.now()));
    return { total: rows.length, ...counts, unchanged: rows.length - counts.created - counts.updated };
  }

  private async parseRows(stream: Readable): Promise<{ rows: SkuValues[]; columns: SkuColumn[] }> {
    let header: ReturnType<typeof mapHeader> | null = null;
    const rows: SkuValues[] = [];
    const firstRowOf = new Map<string, number>();
    for await (const sheetRow of readFirstSheet(stream)) {
      if (!header) {
        header = mapHeader(sheetRow.cells);
        for (const field of SKU_REQUIRED_FIELDS) {
          if (!header.has(field)) throw new SkuImportError('SESK_02', {}, field);
        }
        continue;
      }
      if (rows.length >= SKU_IMPORT_MAX_ROWS)
        throw new SkuImportError('SESK_07', { max: SKU_IMPORT_MAX_ROWS });
      const values: Partial<Record<SkuColumn, string | null>> = {};
      for (const [field, column] of header) {
        const text = sheetRow.cells[column.index] ?? '';
        const where = { row: sheetRow.number, column: column.header };
        if (!text && SKU_REQUIRED_FIELDS.includes(field)) throw new SkuImportError('SESK_03', where);
        if ([...text].length > SKU_FIELD_MAX[field]) {
          throw new SkuImportError('SESK_04', { ...where, max: SKU_FIELD_MAX[field] });
        }
        values[SKU_FIELD_COLUMN[field]] = text || null;
      }
      const artNum = values.art_num as string;
      const key = artNum.toLowerCase();
      const other = firstRowOf.get(key);
      if (other !== undefined) {
        throw new SkuImportError('SESK_05', { row: sheetRow.number, value: artNum, other });
      }
      firstRowOf.set(key, sheetRow.number);
      rows.push({ ...values, art_num: artNum, name: values.name as string });
    }
    if (!header) throw new SkuImportError('SESK_02', {}, 'artNum');
    const columns = SKU_IMPORT_FIELDS.filter((f) => header.has(f)).map((f) => SKU_FIELD_COLUMN[f]);
    return { rows, columns };
  }
}
