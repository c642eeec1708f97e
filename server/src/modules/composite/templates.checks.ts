import { ItemState, type TemplateSpec } from '@dam/contract';
import { invalidField } from '../../http/app-error';
import type { AuthContext } from '../access/access';
import { canDownload } from '../items/policy';
import type { TemplatesDependencies } from './records';
import { assetIdsOf, storedSpec } from './template-spec';
import { checkTemplateHeight } from './templates.height';
import type { AssetRecord } from './templates.repository';

/**
 * The checks of a template's spec before it is saved or previewed (TemplatesService).
 *
 * What the schema cannot know: the fonts are installed here, the fixed images and the tags
 * exist (each refusal names the field, SE_400), and the page fits the renderer's limit (SECP_07).
 */
export async function checkTemplateSpec(
  deps: TemplatesDependencies,
  auth: AuthContext,
  spec: TemplateSpec,
  templateId?: number,
): Promise<void> {
  for (const [index, block] of spec.blocks.entries()) {
    if (block.type !== 'text') continue;
    if (!deps.fonts.get(block.fontId)?.available)
      throw invalidField(`spec.blocks.${index}.fontId`, 'fontMissing', { value: block.fontId });
  }
  const rows = await deps.repo.assets(assetIdsOf(spec));
  const assets = new Set(rows.map((asset) => asset.id));
  for (const [index, block] of spec.blocks.entries()) {
    if (block.type === 'fixed' && !assets.has(block.assetId))
      throw invalidField(`spec.blocks.${index}.assetId`, 'invalidValue', { value: block.assetId });
  }
  await checkAssetSources(deps, auth, spec, rows, templateId);
  checkTemplateHeight(spec, rows, deps.maxPageHeight);
  const tagsNamed: Array<{ field: string; tagId: number }> = [];
  for (const [index, block] of spec.blocks.entries()) {
    if (block.type === 'image' && block.rule.kind === 'tag')
      tagsNamed.push({ field: `spec.blocks.${index}.rule.tagId`, tagId: block.rule.tagId });
    if (block.type === 'grid')
      for (const [cell, rule] of block.cells.entries())
        if (rule.kind === 'tag')
          tagsNamed.push({ field: `spec.blocks.${index}.cells.${cell}.tagId`, tagId: rule.tagId });
  }
  for (const [index, tagId] of spec.output.tagIds.entries())
    tagsNamed.push({ field: `spec.output.tagIds.${index}`, tagId });
  const tags = await deps.repo.existingTags(tagsNamed.map((named) => named.tagId));
  const unknown = tagsNamed.find((named) => !tags.has(named.tagId));
  if (unknown) throw invalidField(unknown.field, 'invalidValue', { value: unknown.tagId });
}

/**
 * Asset ids are sequential and assets global: a fixed image copied from a file may be put in a
 * draft (saved or previewed) only by someone who may download that file, unless the template's
 * current saved version already has it (someone allowed put it there). Uploaded images (no
 * source file) are anyone's with code 9. A refusal names the block (SE_400), as for an unknown id.
 */
export async function checkAssetSources(
  deps: TemplatesDependencies,
  auth: AuthContext,
  spec: TemplateSpec,
  assets: readonly AssetRecord[],
  templateId: number | undefined,
): Promise<void> {
  const copied = assets.filter((asset) => asset.source_item_id !== null);
  if (copied.length === 0) return;
  const allowed = new Set<number>();
  const current = templateId === undefined ? undefined : await deps.repo.find(templateId);
  if (current) {
    const stored = await deps.repo.versionSpec(current.id, current.current_version);
    if (stored !== undefined) for (const id of assetIdsOf(storedSpec(stored))) allowed.add(id);
  }
  const toCheck = copied.filter((asset) => !allowed.has(asset.id));
  if (toCheck.length === 0) return;
  const items = new Map(
    (await deps.repo.itemsForAccess(toCheck.map((asset) => Number(asset.source_item_id)))).map((item) => [
      Number(item.id),
      item,
    ]),
  );
  for (const asset of toCheck) {
    const item = items.get(Number(asset.source_item_id));
    if (item && item.state === ItemState.normal && canDownload(auth, item)) continue;
    const index = spec.blocks.findIndex((block) => block.type === 'fixed' && block.assetId === asset.id);
    throw invalidField(`spec.blocks.${index}.assetId`, 'invalidValue', { value: asset.id });
  }
}
