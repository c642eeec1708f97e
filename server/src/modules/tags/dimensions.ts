import {
  FunctionCode,
  type ManagedTagDimension,
  TAG_DIMENSIONS_MAX,
  TAG_ITEMS_PER_DIMENSION,
  TAG_WORKBOOK_FIXED_HEADERS,
  type TagDimension,
  type updateTagRequestSchema,
} from '@dam/contract';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError, coded, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { AuthContext } from '../access/access';
import { requireAnyCode } from '../access/access';
import { requireLiveItem } from '../items/policy';
import type { ItemsRepository } from '../items/repository';
import { TagCatalog } from './catalog';
import type { TagsRepository } from './repository';

/** Names no dimension may take: the fixed columns of the tag workbook. */
const RESERVED_DIMENSION_NAMES = new Set(
  Object.values(TAG_WORKBOOK_FIXED_HEADERS).flatMap((headers) => headers.map((h) => h.toLowerCase())),
);

/**
 * The tag catalogue: dimensions and their tags as the selector and the management screen show
 * them, and their management (function code 4, SPEC §5 rules on names, superiors and required).
 */
export class TagDimensionsService {
  constructor(private readonly deps: { tags: TagsRepository; items: ItemsRepository; clock: Clock }) {}

  private get repo() {
    return this.deps.tags;
  }

  /** SPEC §7 `selector/tags`: every dimension in selector order; the item's tags marked selected. */
  async selector(auth: AuthContext, folderDataId?: number): Promise<TagDimension[]> {
    let selected = new Set<number>();
    if (folderDataId !== undefined) {
      requireLiveItem(auth, await this.deps.items.findById(folderDataId, auth.userId));
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
    const listed = [...new Set(ids)];
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
}
