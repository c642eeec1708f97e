import { FunctionCode, type SkuTag, type TagOfFile } from '@dam/contract';
import { AppError, coded } from '../../http/app-error';
import { type AuthContext, requireAnyCode } from '../access/access';
import { TagCatalog } from './catalog';
import type { TagsRepository } from './repository';

/** The tags of SKUs (article numbers): read for uploads and the SKU list, set by tag managers (code 4). */
export class SkuTagsService {
  constructor(private readonly deps: { tags: TagsRepository }) {}

  private get repo() {
    return this.deps.tags;
  }

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
    const tagIds = [...new Set(tagIdList)];
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
}
