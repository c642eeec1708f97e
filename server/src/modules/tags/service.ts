import type { Readable } from 'node:stream';
import {
  CHANNEL_TAGS_PER_ITEM_MAX,
  type ChannelTag,
  type ErrorCode,
  FunctionCode,
  ItemState,
  ItemType,
  type ManagedTagDimension,
  type modifyTagRequestSchema,
  type SkuTag,
  splitTagCell,
  TAG_DIMENSIONS_MAX,
  TAG_EXCHANGE_MAX_ROWS,
  TAG_ITEMS_PER_DIMENSION,
  TAG_WORKBOOK_FIXED_HEADERS,
  type TagDimension,
  type TagModelImportResult,
  type TagOfFile,
  type tagModelExportRequestSchema,
  type updateTagRequestSchema,
  type ValidationKey,
} from '@dam/contract';
import type { z } from 'zod';
import { AppError, coded, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, fileScopeFilter, requireAnyCode } from '../access/access';
import { canEdit, canSee } from '../items/policy';
import { type ItemsRepository, type ItemWithOwner, isUniqueViolation } from '../items/repository';
import { readFirstSheet, UnreadableWorkbookError } from '../sku/workbook';
import { TagCatalog } from './catalog';
import type { ChannelTagRow, TagsRepository } from './repository';
import { columnLabel, fixedColumnOf, fixedHeader, writeTagWorkbook } from './workbook';

export interface TagsDependencies {
  tags: TagsRepository;
  items: ItemsRepository;
  clock: Clock;
}

/** What went wrong in a row of a tag import: a catalogue message or a validation message. */
export type ImportDetail =
  | { code: ErrorCode; values: Record<string, string | number> }
  | { key: ValidationKey; values: Record<string, string | number> };

/**
 * Why a tag import was refused: a problem of the whole file (`code` with `values`: SESK_01
 * unreadable, SESK_02 no ID column, SESK_06 too large, SESK_07 too many rows), or of one place
 * (`code` SETG_14 with row, column and `detail`).
 */
export class TagImportError extends Error {
  override name = 'TagImportError';
  constructor(
    readonly code: ErrorCode,
    readonly values: Record<string, string | number> = {},
    readonly detail?: ImportDetail,
  ) {
    super(code);
  }
}

const atCell = (row: number, column: string, detail: ImportDetail) =>
  new TagImportError('SETG_14', { row, column }, detail);

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

/** Names no dimension may take: the fixed columns of the tag workbook. */
const RESERVED_DIMENSION_NAMES = new Set(
  Object.values(TAG_WORKBOOK_FIXED_HEADERS).flatMap((headers) => headers.map((h) => h.toLowerCase())),
);

/**
 * Tag dimensions and tags (management: function code 4), tagging files and folders (edit
 * permission on each), channel tags, SKU tags, and the tag Excel exchange (SPEC §2, §3, §5, §7).
 */
export class TagsService {
  constructor(private readonly deps: TagsDependencies) {}

  private get repo() {
    return this.deps.tags;
  }

  /**
   * A live item the caller can see: unknown or not visible SE_404 alike (docs/decisions.md, Errors),
   * in the recycle bin SEF_04; with `edit`, also one the caller may change (SE_502).
   */
  private async liveItem(
    items: ItemsRepository,
    auth: AuthContext,
    id: number,
    edit: boolean,
  ): Promise<ItemWithOwner> {
    const row = await items.findById(id, auth.userId);
    if (!row || !canSee(auth, row)) throw new AppError('SE_404');
    if (row.state !== ItemState.normal) throw new AppError('SEF_04');
    if (edit && !canEdit(auth, row)) throw new AppError('SE_502');
    return row;
  }

  // --- Reading the catalogue ------------------------------------------------------------------

  /** SPEC §7 `selector/tags`: every dimension in selector order; the item's tags marked selected. */
  async selector(auth: AuthContext, folderDataId?: number): Promise<TagDimension[]> {
    let selected = new Set<number>();
    if (folderDataId !== undefined) {
      await this.liveItem(this.deps.items, auth, folderDataId, false);
      selected = new Set((await this.repo.tagIdsOfItems([folderDataId])).get(folderDataId));
    }
    const catalog = await TagCatalog.load(this.repo);
    return catalog.ordered.map((dimension) => ({
      id: dimension.id,
      dimensionName: dimension.name,
      required: dimension.required,
      parentDimensionId: dimension.parent_id,
      tagDTOList: catalog.tagsOf(dimension.id).map((tag) => ({
        id: tag.id,
        tagName: tag.name,
        required: dimension.required,
        parentTagId: tag.parent_id,
        selected: selected.has(tag.id),
      })),
    }));
  }

  /** The management list (code 4): the selector's order, with sort order and usage counts. */
  async manageList(auth: AuthContext): Promise<ManagedTagDimension[]> {
    requireAnyCode(auth, FunctionCode.tag);
    return this.managed(this.repo);
  }

  private async managed(repo: TagsRepository, only?: number): Promise<ManagedTagDimension[]> {
    const [catalog, usage] = await Promise.all([TagCatalog.load(repo), repo.usage()]);
    return catalog.ordered
      .filter((dimension) => only === undefined || dimension.id === only)
      .map((dimension) => ({
        id: dimension.id,
        dimensionName: dimension.name,
        required: dimension.required,
        parentDimensionId: dimension.parent_id,
        sortOrder: dimension.position,
        tagDTOList: catalog.tagsOf(dimension.id).map((tag) => ({
          id: tag.id,
          tagName: tag.name,
          required: dimension.required,
          parentTagId: tag.parent_id,
          itemCount: usage.get(tag.id)?.items ?? 0,
          skuCount: usage.get(tag.id)?.skus ?? 0,
        })),
      }));
  }

  /** The tags of one item in selector order (the file detail's tagDTOList). */
  async tagsOfItem(itemId: number): Promise<TagOfFile[]> {
    const [catalog, tagIds] = await Promise.all([
      TagCatalog.load(this.repo),
      this.repo.tagIdsOfItems([itemId]),
    ]);
    return catalog.tagsOfFile(tagIds.get(itemId) ?? []);
  }

  // --- Managing dimensions and tags (code 4) -------------------------------------------------

  /** SPEC §7 `manage/update-tag`: saves one whole dimension and its tags in one transaction. */
  async saveDimension(
    auth: AuthContext,
    body: z.output<typeof updateTagRequestSchema>,
  ): Promise<ManagedTagDimension> {
    requireAnyCode(auth, FunctionCode.tag);
    try {
      return await this.repo.transaction(async (repo) => {
        await repo.lockStructure();
        const catalog = await TagCatalog.load(repo);
        const existing = body.id === undefined ? undefined : catalog.dimension(body.id);
        if (body.id !== undefined && !existing) throw new AppError('SETG_01');
        if (!existing && catalog.ordered.length >= TAG_DIMENSIONS_MAX)
          throw coded('SETG_07', { max: TAG_DIMENSIONS_MAX });
        if (RESERVED_DIMENSION_NAMES.has(body.dimensionName.toLowerCase()))
          throw invalidField('dimensionName', 'invalidValue');
        const clash = catalog.dimensionNamed(body.dimensionName);
        if (clash && clash.id !== existing?.id) throw new AppError('SETG_03');

        const parentId = body.parentDimensionId;
        if (parentId !== null) {
          if (!catalog.dimension(parentId)) throw new AppError('SETG_01');
          if (existing && catalog.subtreeOf(existing.id).has(parentId))
            throw invalidField('parentDimensionId', 'invalidValue');
        }
        // SPEC §5: a tag with a superior tag cannot be required (only top-level dimensions can be).
        if (body.required && (parentId !== null || body.tagDTOList.some((t) => t.parentTagId !== null)))
          throw new AppError('SETG_06');

        const tags = body.tagDTOList;
        if (tags.length === 0) throw invalidField('tagDTOList', 'required');
        if (tags.length > TAG_ITEMS_PER_DIMENSION) throw coded('SETG_05', { max: TAG_ITEMS_PER_DIMENSION });
        const names = new Set<string>();
        const keptIds = new Set<number>();
        for (const [index, tag] of tags.entries()) {
          const key = tag.tagName.toLowerCase();
          if (names.has(key)) throw coded('SETG_04', { value: tag.tagName });
          names.add(key);
          if (tag.id !== undefined) {
            if (catalog.tag(tag.id)?.dimension_id !== existing?.id || keptIds.has(tag.id))
              throw invalidField(`tagDTOList.${index}.id`, 'invalidValue');
            keptIds.add(tag.id);
          }
          if (tag.parentTagId !== null && catalog.tag(tag.parentTagId)?.dimension_id !== (parentId ?? -1))
            throw invalidField(`tagDTOList.${index}.parentTagId`, 'invalidValue');
        }
        const removed = existing ? catalog.tagsOf(existing.id).filter((t) => !keptIds.has(t.id)) : [];
        if (existing) {
          // Tags of child dimensions naming a removed tag as superior would lose their meaning.
          const removedIds = new Set(removed.map((t) => t.id));
          for (const child of catalog.childrenOf(existing.id)) {
            const dependent = catalog
              .tagsOf(child.id)
              .find((t) => t.parent_id && removedIds.has(t.parent_id));
            if (dependent) {
              const superior = catalog.tag(dependent.parent_id as number);
              throw coded('SETG_09', { value: superior?.name ?? '' });
            }
          }
          // A new parent dimension: tags of child dimensions keep pointing into this one; nothing else does.
        }

        const now = this.deps.clock.now();
        let dimensionId: number;
        if (existing) {
          dimensionId = existing.id;
          const siblings = catalog.ordered.filter((d) => d.parent_id === parentId && d.id !== existing.id);
          await repo.updateDimension(
            existing.id,
            {
              name: body.dimensionName,
              required: body.required,
              parent_id: parentId,
              // Moved under another parent: placed last there.
              ...(existing.parent_id !== parentId
                ? { position: Math.max(-1, ...siblings.map((d) => d.position)) + 1 }
                : {}),
            },
            now,
          );
        } else {
          const siblings = catalog.ordered.filter((d) => d.parent_id === parentId);
          dimensionId = await repo.insertDimension(
            {
              name: body.dimensionName,
              required: body.required,
              parent_id: parentId,
              position: Math.max(-1, ...siblings.map((d) => d.position)) + 1,
            },
            now,
          );
        }
        await repo.deleteTags(removed.map((t) => t.id));
        await repo.parkTagNames([...keptIds]);
        for (const [position, tag] of tags.entries()) {
          const values = { name: tag.tagName, parent_id: tag.parentTagId, position };
          if (tag.id !== undefined) await repo.updateTag(tag.id, values, now);
          else await repo.insertTag({ ...values, dimension_id: dimensionId }, now);
        }
        const [saved] = await this.managed(repo, dimensionId);
        return saved as ManagedTagDimension;
      });
    } catch (error) {
      // Every writer holds the structure lock, so this only guards against writers outside it.
      if (isUniqueViolation(error)) throw new AppError('SETG_03');
      throw error;
    }
  }

  /** Deletes a dimension with its tags and their links to items and SKUs, in one transaction. */
  async deleteDimension(auth: AuthContext, id: number): Promise<void> {
    requireAnyCode(auth, FunctionCode.tag);
    await this.repo.transaction(async (repo) => {
      await repo.lockStructure();
      const catalog = await TagCatalog.load(repo);
      if (!catalog.dimension(id)) throw new AppError('SETG_01');
      if (catalog.childrenOf(id).length > 0) throw new AppError('SETG_08');
      await repo.deleteDimension(id);
    });
  }

  /**
   * Re-orders sibling dimensions: the listed ones take the first positions in the order given,
   * the unlisted siblings follow in their previous order.
   */
  async sortDimensions(auth: AuthContext, ids: number[]): Promise<void> {
    requireAnyCode(auth, FunctionCode.tag);
    const listed = unique(ids);
    await this.repo.transaction(async (repo) => {
      await repo.lockStructure();
      const catalog = await TagCatalog.load(repo);
      const rows = listed.map((id) => catalog.dimension(id));
      if (rows.some((row) => !row)) throw new AppError('SETG_01');
      const parentId = rows[0]?.parent_id ?? null;
      if (rows.some((row) => row?.parent_id !== parentId)) throw invalidField('idList', 'invalidValue');
      const others = catalog.ordered
        .filter((d) => d.parent_id === parentId && !listed.includes(d.id))
        .sort((a, b) => a.position - b.position || a.id - b.id);
      const order = [...listed, ...others.map((d) => d.id)];
      for (const [position, id] of order.entries()) await repo.setDimensionPosition(id, position);
    });
  }

  // --- Tagging items ----------------------------------------------------------------------------

  /** SPEC §7 `file/modify-tag`: one or many items (batch tagging), all or nothing. */
  async modifyTags(
    auth: AuthContext,
    body: z.output<typeof modifyTagRequestSchema>,
  ): Promise<{ count: number }> {
    const itemIds = unique([
      ...(body.folderDataId !== undefined ? [body.folderDataId] : []),
      ...(body.folderDataIdList ?? []),
    ]);
    const tagIds = unique(body.tagIdList);
    const mode = body.mode;
    return this.repo.transaction(async (repo, items) => {
      const rows = await items.findByIds(itemIds, auth.userId);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const id of itemIds) {
        const row = byId.get(id);
        if (!row || !canSee(auth, row)) throw new AppError('SE_404');
        if (row.state !== ItemState.normal) throw new AppError('SEF_04');
        if (!canEdit(auth, row)) throw new AppError('SE_502');
      }
      const known = await repo.lockTags(tagIds);
      const unknown = tagIds.find((id) => !known.has(id));
      if (unknown !== undefined) throw coded('SETG_02', { value: unknown });
      const catalog = await TagCatalog.load(repo);
      if (mode === 'replace') {
        catalog.check(tagIds);
        await repo.replaceItemTags(itemIds, tagIds);
      } else {
        const current = await repo.tagIdsOfItems(itemIds);
        for (const id of itemIds) catalog.check(unique([...(current.get(id) ?? []), ...tagIds]));
        await repo.addItemTags(itemIds, tagIds);
      }
      return { count: itemIds.length };
    });
  }

  /**
   * Checks the tag sets of an upload batch before its records are made (unknown tag SETG_02, the
   * rules of SPEC §5 on every non-empty set). The tags are applied when each file goes live.
   */
  async checkTagSets(sets: ReadonlyArray<readonly number[]>): Promise<void> {
    const distinct = new Map(sets.filter((s) => s.length > 0).map((s) => [[...s].sort().join(','), s]));
    if (distinct.size === 0) return;
    const catalog = await TagCatalog.load(this.repo);
    for (const set of distinct.values()) catalog.check(unique(set));
  }

  // --- Channel tags -------------------------------------------------------------------------------

  private channelTag(row: ChannelTagRow): ChannelTag {
    return {
      id: row.id,
      channelName: row.channel_name,
      folderDataId: row.item_id,
      createdAt: row.created_at.toISOString(),
    };
  }

  async listChannelTags(auth: AuthContext, itemId: number): Promise<ChannelTag[]> {
    await this.liveItem(this.deps.items, auth, itemId, false);
    return (await this.repo.channelTags(itemId)).map((row) => this.channelTag(row));
  }

  async addChannelTag(auth: AuthContext, itemId: number, channelName: string): Promise<ChannelTag> {
    try {
      return await this.repo.transaction(async (repo, items) => {
        await this.liveItem(items, auth, itemId, true);
        await repo.lockItem(itemId);
        const existing = await repo.channelTags(itemId);
        if (existing.some((c) => c.channel_name.toLowerCase() === channelName.toLowerCase()))
          throw coded('SETG_12', { value: channelName });
        if (existing.length >= CHANNEL_TAGS_PER_ITEM_MAX)
          throw coded('SETG_13', { max: CHANNEL_TAGS_PER_ITEM_MAX });
        const row = await repo.insertChannelTag(itemId, channelName, auth.userId, this.deps.clock.now());
        return this.channelTag(row);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw coded('SETG_12', { value: channelName });
      throw error;
    }
  }

  async deleteChannelTag(auth: AuthContext, id: number): Promise<void> {
    await this.repo.transaction(async (repo, items) => {
      const row = await repo.findChannelTag(id);
      if (!row) throw new AppError('SE_404');
      await this.liveItem(items, auth, row.item_id, true);
      await repo.deleteChannelTag(id);
    });
  }

  // --- Tags of SKUs -----------------------------------------------------------------------------

  /** Tags of SKUs by id, in selector order (for the SKU module's answers). */
  async tagsOfSkus(skuIds: readonly number[]): Promise<Map<number, TagOfFile[]>> {
    if (skuIds.length === 0) return new Map();
    const [catalog, tagIds] = await Promise.all([TagCatalog.load(this.repo), this.repo.tagIdsOfSkus(skuIds)]);
    return new Map([...tagIds].map(([skuId, ids]) => [skuId, catalog.tagsOfFile(ids)]));
  }

  /** `file-upload/list-sku-tag`: the tags of these article numbers, in the order asked. */
  async listSkuTags(_auth: AuthContext, artNums: readonly string[]): Promise<SkuTag[]> {
    const skus = await this.repo.skusByArtNums(artNums);
    const byKey = new Map(skus.map((s) => [s.art_num.toLowerCase(), s]));
    const tags = await this.tagsOfSkus(skus.map((s) => s.id));
    const seen = new Set<number>();
    const result: SkuTag[] = [];
    for (const artNum of artNums) {
      const sku = byKey.get(artNum.toLowerCase());
      if (!sku || seen.has(sku.id)) continue;
      seen.add(sku.id);
      const list = tags.get(sku.id) ?? [];
      result.push({ artNum: sku.art_num, tagIdList: list.map((t) => t.id), tagDTOList: list });
    }
    return result;
  }

  /** `manage/sku-tag` (code 4): sets the tags of one article. */
  async setSkuTags(auth: AuthContext, artNum: string, tagIdList: readonly number[]): Promise<SkuTag> {
    requireAnyCode(auth, FunctionCode.tag);
    const tagIds = unique(tagIdList);
    await this.repo.transaction(async (repo) => {
      const [sku] = await repo.skusByArtNums([artNum]);
      if (!sku) throw new AppError('SE_404');
      const known = await repo.lockTags(tagIds);
      const unknown = tagIds.find((id) => !known.has(id));
      if (unknown !== undefined) throw coded('SETG_02', { value: unknown });
      (await TagCatalog.load(repo)).check(tagIds);
      await repo.replaceSkuTags(sku.id, tagIds);
    });
    const [result] = await this.listSkuTags(auth, [artNum]);
    return result as SkuTag;
  }

  // --- Tag Excel exchange (code 4) ------------------------------------------------------------

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
    for (const id of ids) {
      const row = byId.get(id);
      if (!row || !canSee(auth, row)) throw new AppError('SE_404');
      if (row.state !== ItemState.normal) throw new AppError('SEF_04');
    }
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
  async importWorkbook(auth: AuthContext, source: ImportSource): Promise<TagModelImportResult> {
    requireAnyCode(auth, FunctionCode.tag);
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
    const { header, rows } = sheet;
    if (!header) throw new TagImportError('SESK_02', { column: 'ID' });

    return this.repo.transaction(async (repo) => {
      // No dimension or tag changes (and no other import) until this one commits.
      await repo.lockStructure();
      const catalog = await TagCatalog.load(repo);

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
        else if (!fixed)
          throw atCell(header.number, label, { key: 'unknownDimension', values: { value: text } });
      }
      if (!idColumn) throw new TagImportError('SESK_02', { column: 'ID' });
      const idAt = idColumn;
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
      for (const row of rows) {
        const text = row.cells[idAt.index] ?? '';
        const id = idOf(row.cells);
        if (id === null)
          throw atCell(row.number, idAt.label, { key: 'unknownItem', values: { value: text } });
        const other = firstRowOf.get(id);
        if (other !== undefined)
          throw atCell(row.number, idAt.label, { key: 'duplicateRow', values: { value: id, other } });
        firstRowOf.set(id, row.number);
        const item = itemById.get(id);
        if (item?.state !== ItemState.normal)
          throw atCell(row.number, idAt.label, { key: 'unknownItem', values: { value: id } });
        if (!canSee(auth, item) || !canEdit(auth, item))
          throw atCell(row.number, idAt.label, { key: 'notEditable', values: { value: id } });

        const before = current.get(id) ?? [];
        const next = before.filter((tagId) => {
          const tag = catalog.tag(tagId);
          return !tag || !dimensionsInFile.has(tag.dimension_id);
        });
        for (const column of dimensionColumns) {
          for (const name of splitTagCell(row.cells[column.index] ?? '')) {
            const tag = catalog.tagNamed(column.dimensionId, name);
            if (!tag) throw atCell(row.number, column.label, { code: 'SETG_02', values: { value: name } });
            next.push(tag.id);
          }
        }
        const set = unique(next);
        const problem = catalog.problem(set);
        if (problem)
          throw atCell(row.number, columnOfDimension(problem.dimensionId), {
            code: problem.code,
            values: problem.values,
          });
        if (!sameSet(before, set)) changed.set(id, set);
      }
      await repo.setItemTagSets(changed);
      return { total: rows.length, changed: changed.size, unchanged: rows.length - changed.size };
    });
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
