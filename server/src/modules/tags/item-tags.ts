import { ItemState, type modifyTagRequestSchema, type TagOfFile } from '@dam/contract';
import type { z } from 'zod';
import { coded } from '../../http/app-error';
import type { AuthContext } from '../access/access';
import { canSee, requireLiveItem } from '../items/policy';
import { TagCatalog } from './catalog';
import type { TagsRepository } from './repository';

const unique = (ids: Iterable<number>) => [...new Set(ids)];

/**
 * The tags of files and folders: tagging them (edit permission on each, SPEC §5 rules on every
 * resulting set), checking an upload batch's tag sets, and an item's tags for its detail.
 */
export class ItemTagsService {
  constructor(private readonly deps: { tags: TagsRepository }) {}

  private get repo() {
    return this.deps.tags;
  }

  /** The tags of one item in selector order (the file detail's tagDTOList). */
  async tagsOfItem(itemId: number): Promise<TagOfFile[]> {
    const [catalog, tagIds] = await Promise.all([
      TagCatalog.load(this.repo),
      this.repo.tagIdsOfItems([itemId]),
    ]);
    return catalog.tagsOfFile(tagIds.get(itemId) ?? []);
  }

  /** The tags of each of these items the caller may see (batch tagging's list); others are left out. */
  async tagsOfItems(
    auth: AuthContext,
    ids: readonly number[],
  ): Promise<Array<{ folderDataId: number; tagDTOList: TagOfFile[] }>> {
    const itemIds = unique(ids);
    return this.repo.transaction(async (repo, items) => {
      const visible = (await items.findByIds(itemIds, auth.userId)).filter(
        (row) => row.state === ItemState.normal && canSee(auth, row),
      );
      const [catalog, tagIds] = await Promise.all([
        TagCatalog.load(repo),
        repo.tagIdsOfItems(visible.map((row) => row.id)),
      ]);
      const shown = new Set(visible.map((row) => row.id));
      return itemIds
        .filter((id) => shown.has(id))
        .map((id) => ({ folderDataId: id, tagDTOList: catalog.tagsOfFile(tagIds.get(id) ?? []) }));
    });
  }

  /** The names of `tagIds` in selector order, for the operation log. */
  async tagNames(tagIds: readonly number[]): Promise<string[]> {
    const catalog = await TagCatalog.load(this.repo);
    return catalog.tagsOfFile(unique(tagIds)).map((tag) => tag.tagName);
  }

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
      for (const id of itemIds) requireLiveItem(auth, byId.get(id), 'edit');
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
}
