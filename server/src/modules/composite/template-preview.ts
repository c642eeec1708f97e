import fsp from 'node:fs/promises';
import path from 'node:path';
import { PREVIEW_WIDTH_MAX, type TemplateSpec, type TextField } from '@dam/contract';
import { coded, invalidField } from '../../http/app-error';
import { TextTooLargeError } from './engine/text';
import { type PageRenderer, PageTooLargeError, type SlotSource } from './engine/types';
import type { ArticleFiller } from './fill';
import type { TemplatesDependencies } from './records';
import type { AssetRecord } from './templates.repository';

/** What a preview page is rendered from: the spec, its text, the slots filled (none: grey boxes), its fixed images. */
export interface PreviewPage {
  spec: TemplateSpec;
  fields: Partial<Record<TextField, string>>;
  filled: Awaited<ReturnType<ArticleFiller['fill']>> | null;
  assets: readonly AssetRecord[];
  naming: Parameters<PageRenderer['render']>[0]['naming'];
}

/**
 * Renders the exact preview's page in the scratch folder `dir` (TemplatesService.preview in
 * ./templates.service has checked the request), answering its JPEG bytes.
 */
export async function renderPreviewPage(
  deps: Pick<TemplatesDependencies, 'renderer' | 'maxPageHeight'>,
  fileOf: (key: string, copy: string, format: string) => Promise<string>,
  { spec, fields, filled, assets, naming }: PreviewPage,
  dir: string,
): Promise<Buffer> {
  const assetFiles = new Map<number, string>();
  for (const asset of assets)
    assetFiles.set(asset.id, await fileOf(asset.storage_key, path.join(dir, `asset-${asset.id}.png`), 'png'));
  // Without an article no slot is known: the renderer draws each as a labelled grey box.
  const sources = new Map<string, SlotSource | null>();
  const copies = new Map<number, string>();
  for (const slot of filled?.slots ?? []) {
    const chosen = slot.chosen;
    if (!chosen) {
      sources.set(slot.slot, null);
      continue;
    }
    let file = copies.get(chosen.itemId);
    if (!file) {
      file = await fileOf(
        chosen.storageKey,
        path.join(dir, `source-${chosen.itemId}.${chosen.format}`),
        chosen.format,
      );
      copies.set(chosen.itemId, file);
    }
    sources.set(slot.slot, { itemId: chosen.itemId, name: chosen.name, file, format: chosen.format });
  }
  try {
    const rendered = await deps.renderer.render({
      spec,
      fields,
      sources,
      assets: assetFiles,
      scratchDir: dir,
      want: { page: true, slices: false },
      previewWidth: PREVIEW_WIDTH_MAX,
      maxPageHeight: deps.maxPageHeight,
      naming,
    });
    if (!rendered.page) throw new Error('the renderer wrote no page for a preview');
    return await fsp.readFile(rendered.page.file);
  } catch (error) {
    if (error instanceof PageTooLargeError)
      throw coded('SECP_07', { detail: `${error.height} > ${error.max}` });
    // Text beyond what pango/cairo draw is the template's (or the article's fields'): a 4xx.
    if (error instanceof TextTooLargeError) {
      const index = spec.blocks.findIndex((block) => block.id === error.blockId);
      throw invalidField(index < 0 ? 'spec.blocks' : `spec.blocks.${index}.text`, 'invalidValue');
    }
    throw error;
  }
}

/** The article number and its SKU row's columns; without a row, the article number alone. */
export async function skuFieldsOf(
  repo: Pick<TemplatesDependencies['repo'], 'skuFields'>,
  artNum: string,
): Promise<Partial<Record<TextField, string>>> {
  const sku = await repo.skuFields(artNum);
  if (!sku) return { artNum };
  return {
    artNum: sku.art_num,
    name: sku.name,
    series: sku.series ?? '',
    category: sku.category ?? '',
    color: sku.color ?? '',
    season: sku.season ?? '',
    gender: sku.gender ?? '',
  };
}
