import type { Readable } from 'node:stream';
import {
  ERROR_MESSAGES,
  FunctionCode,
  fillTemplate,
  ItemState,
  ItemType,
  type Language,
  splitTagCell,
  TAG_EXCHANGE_MAX_ROWS,
  TAG_IMPORT_PREVIEW_MAX,
  type TagModelImportResult,
  type tagModelExportRequestSchema,
} from '@dam/contract';
import type { z } from 'zod';
import { coded, invalidField } from '../../http/app-error';
import { type AuthContext, fileScopeFilter, requireAnyCode } from '../access/access';
import { canEdit, canSee, requireLiveItem } from '../items/policy';
import type { ItemsRepository } from '../items/repository';
import { readFirstSheet, UnreadableWorkbookError } from '../sku/workbook';
import { TagCatalog } from './catalog';
import { atCell, TagImportError } from './import-error';
import type { TagsRepository } from './repository';
import { columnLabel, fixedColumnOf, fixedHeader, writeTagWorkbook } from './workbook';

/** What an import upload looks like to the service: its bytes, and whether they were cut off. */
export interface ImportSource {
  stream: Readable;
  /** True once the stream was cut at the size limit (known after it has ended). */
  truncated(): boolean;
}

/** Reads whatever is left of a stream, so a cut-off upload can be told from a broken one. */
async function drain(stream: Readable): Promise<void> {
  stream.unpipe();
  for await (const _chunk of stream) {
    // discard
  }
}

const unique = (ids: Iterable<number>) => [...new Set(ids)];
const sameSet = (a: readonly number[], b: readonly number[]) => {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((id) => set.has(id));
};

/** The tag Excel exchange (code 4): files' tags exported by dimension, edited, imported back. */
export class TagExchangeService {
  constructor(private readonly deps: { tags: TagsRepository; items: ItemsRepository }) {}

  private get repo() {
    return this.deps.tags;
  }

  /** Throws SE_502 unless the caller holds tag management (code 4). */
  requireTagManagement(auth: AuthContext): void {
    requireAnyCode(auth, FunctionCode.tag);
  }

  /**
   * SPEC §7 `manage/tag-model-export`: one row per live file of the range the caller can see
   * (chosen files, and files inside chosen folders, recursively), one column per dimension.
   */
  async exportWorkbook(
    auth: AuthContext,
    body: z.output<typeof tagModelExportRequestSchema>,
    chinese: boolean,
  ): Promise<Buffer> {
    requireAnyCode(auth, FunctionCode.tag);
    const ids = unique([...body.folderDataIdList, ...body.folderIdList]);
    if (ids.length === 0) throw invalidField('folderDataIdList', 'chooseRange');
    const rows = await this.deps.items.findByIds(ids, auth.userId);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) requireLiveItem(auth, byId.get(id));
    const folders = rows.filter((r) => r.type === ItemType.folder);
    // A folder inside another chosen folder adds nothing.
    const folderIdPaths = folders
      .filter((f) => !folders.some((o) => o !== f && f.id_path.startsWith(o.id_path)))
      .map((f) => f.id_path);
    const files = await this.repo.filesInRange(
      { fileIds: rows.filter((r) => r.type !== ItemType.folder).map((r) => r.id), folderIdPaths },
      { userId: auth.userId, view: fileScopeFilter(auth, 'view') },
      TAG_EXCHANGE_MAX_ROWS + 1,
    );
    if (files.length > TAG_EXCHANGE_MAX_ROWS) throw coded('SETG_15', { max: TAG_EXCHANGE_MAX_ROWS });
    const [catalog, tagIds] = await Promise.all([
      TagCatalog.load(this.repo),
      this.repo.tagIdsOfItems(files.map((f) => f.id)),
    ]);
    const dimensions = catalog.ordered;
    const columns = [
      { header: fixedHeader('id', chinese), width: 12 },
      { header: fixedHeader('path', chinese), width: 36 },
      { header: fixedHeader('name', chinese), width: 32 },
      { header: fixedHeader('artNum', chinese), width: 18 },
      ...dimensions.map((d) => ({ header: d.name, width: 24 })),
    ];
    function* lines() {
      for (const file of files) {
        const byDimension = new Map<number, string[]>();
        for (const tag of catalog.order(tagIds.get(file.id) ?? [])) {
          const list = byDimension.get(tag.dimension_id) ?? [];
          list.push(tag.name);
          byDimension.set(tag.dimension_id, list);
        }
        yield [
          file.id,
          file.folder_path,
          file.name,
          file.art_num,
          ...dimensions.map((d) => byDimension.get(d.id)?.join(', ') ?? null),
        ];
      }
    }
    return writeTagWorkbook(chinese ? '标签' : 'Tags', columns, lines());
  }

  /**
   * SPEC §7 `manage/tag-model-import`: reads every row, checks all of them (in row order, the first
   * problem refuses the whole file), then applies them in one transaction.
   */
  async importWorkbook(
    auth: AuthContext,
    source: ImportSource,
    options: { dryRun?: boolean; lang?: Language } = {},
  ): Promise<TagModelImportResult> {
    const dryRun = options.dryRun === true;
    const lang = options.lang ?? 'zh';
    requireAnyCode(auth, FunctionCode.tag);
    const { header, rows } = await this.readSource(source);
    if (!header) throw new TagImportError('SESK_02', { column: 'ID' });

    return this.repo.transaction(async (repo) => {
      // No dimension or tag changes (and no other import) until this one commits.
      await repo.lockStructure();
      const catalog = await TagCatalog.load(repo);

      const { idColumn: idAt, dimensionColumns } = importColumns(header, catalog);
      const columnOfDimension = (dimensionId: number | null) =>
        dimensionColumns.find((c) => c.dimensionId === dimensionId)?.label ??
        (dimensionId === null ? idAt.label : (catalog.dimension(dimensionId)?.name ?? ''));
      const dimensionsInFile = new Set(dimensionColumns.map((c) => c.dimensionId));

      const idOf = (cells: string[]) => {
        const text = cells[idAt.index] ?? '';
        return /^\d{1,15}$/.test(text) ? Number(text) : null;
      };
      const ids = unique(rows.flatMap((row) => idOf(row.cells) ?? []));
      const [items, current] = await Promise.all([repo.itemsForImport(ids), repo.tagIdsOfItems(ids)]);
      const itemById = new Map(items.map((i) => [i.id, i]));

      const firstRowOf = new Map<number, number>();
      const changed = new Map<number, number[]>();
      const changes: TagModelImportResult['changes'] = [];
      const problems: TagModelImportResult['problems'] = [];
      let problemCount = 0;
      /** Applying, the first problem refuses the file; a dry run notes each and reads on. */
      const refuse = (row: number, error: TagImportError) => {
        if (!dryRun) throw error;
        problemCount += 1;
        if (problems.length < TAG_IMPORT_PREVIEW_MAX) {
          problems.push({
            row,
            message: fillTemplate(ERROR_MESSAGES[lang][error.code], error.valuesIn(lang)),
          });
        }
      };
      const namesOf = (tagIds: number[]) => catalog.tagsOfFile(tagIds).map((tag) => tag.tagName);
      for (const row of rows) {
        const text = row.cells[idAt.index] ?? '';
        const id = idOf(row.cells);
        if (id === null) {
          refuse(row.number, atCell(row.number, idAt.label, { key: 'unknownItem', values: { value: text } }));
          continue;
        }
        const other = firstRowOf.get(id);
        if (other !== undefined) {
          refuse(
            row.number,
            atCell(row.number, idAt.label, { key: 'duplicateRow', values: { value: id, other } }),
          );
          continue;
        }
        firstRowOf.set(id, row.number);
        const item = itemById.get(id);
        if (item?.state !== ItemState.normal) {
          refuse(row.number, atCell(row.number, idAt.label, { key: 'unknownItem', values: { value: id } }));
          continue;
        }
        if (!canSee(auth, item) || !canEdit(auth, item)) {
          refuse(row.number, atCell(row.number, idAt.label, { key: 'notEditable', values: { value: id } }));
          continue;
        }

        const before = current.get(id) ?? [];
        const next = before.filter((tagId) => {
          const tag = catalog.tag(tagId);
          return !tag || !dimensionsInFile.has(tag.dimension_id);
        });
        let unknownTag: TagImportError | null = null;
        for (const column of dimensionColumns) {
          for (const name of splitTagCell(row.cells[column.index] ?? '')) {
            const tag = catalog.tagNamed(column.dimensionId, name);
            if (tag) next.push(tag.id);
            else
              unknownTag ??= atCell(row.number, column.label, { code: 'SETG_02', values: { value: name } });
          }
        }
        if (unknownTag) {
          refuse(row.number, unknownTag);
          continue;
        }
        const set = unique(next);
        const problem = catalog.problem(set);
        if (problem) {
          refuse(
            row.number,
            atCell(row.number, columnOfDimension(problem.dimensionId), {
              code: problem.code,
              values: problem.values,
            }),
          );
          continue;
        }
        if (sameSet(before, set)) continue;
        changed.set(id, set);
        if (dryRun && changes.length < TAG_IMPORT_PREVIEW_MAX) {
          changes.push({
            row: row.number,
            folderDataId: id,
            name: item.name,
            before: namesOf(before),
            after: namesOf(set),
          });
        }
      }
      if (!dryRun) await repo.setItemTagSets(changed);
      return {
        total: rows.length,
        changed: changed.size,
        unchanged: rows.length - changed.size - problemCount,
        dryRun,
        changes,
        problems,
        problemCount,
      };
    });
  }

  /** The upload's sheet, drained to its end; a cut-off or unreadable file is refused. */
  private async readSource(source: ImportSource) {
    let sheet: {
      header: { number: number; cells: string[] } | null;
      rows: Array<{ number: number; cells: string[] }>;
    };
    try {
      sheet = await this.readSheet(source.stream);
    } catch (error) {
      await drain(source.stream);
      if (source.truncated()) throw new TagImportError('SESK_06');
      if (error instanceof UnreadableWorkbookError) throw new TagImportError('SESK_01');
      throw error;
    }
    await drain(source.stream);
    if (source.truncated()) throw new TagImportError('SESK_06');
    return sheet;
  }

  private async readSheet(stream: Readable) {
    let header: { number: number; cells: string[] } | null = null;
    const rows: Array<{ number: number; cells: string[] }> = [];
    for await (const row of readFirstSheet(stream)) {
      if (!header) {
        header = row;
        continue;
      }
      if (rows.length >= TAG_EXCHANGE_MAX_ROWS)
        throw new TagImportError('SESK_07', { max: TAG_EXCHANGE_MAX_ROWS });
      rows.push(row);
    }
    return { header, rows };
  }
}

/** The header's ID column and the columns naming a dimension; any other column is refused. */
function importColumns(header: { number: number; cells: string[] }, catalog: TagCatalog) {
  let idColumn: { index: number; label: string } | undefined;
  const dimensionColumns: Array<{ index: number; label: string; dimensionId: number }> = [];
  for (const [index, text] of header.cells.entries()) {
    if (!text) continue;
    const label = columnLabel(index, text);
    const dimension = catalog.dimensionNamed(text.replace(/[*＊]/g, '').trim());
    if (dimension) {
      dimensionColumns.push({ index, label, dimensionId: dimension.id });
      continue;
    }
    const fixed = fixedColumnOf(text);
    if (fixed === 'id' && !idColumn) idColumn = { index, label };
    else if (!fixed) throw atCell(header.number, label, { key: 'unknownDimension', values: { value: text } });
  }
  if (!idColumn) throw new TagImportError('SESK_02', { column: 'ID' });
  return { idColumn, dimensionColumns };
}
