import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PAGE_PIXELS_MAX, type TemplateAsset } from '@dam/contract';
import { coded, invalidField } from '../../http/app-error';
import type { AuthContext } from '../access/access';
import { decodeImage } from '../media/decode';
import { encodeCost, type ImageHeader, ImageTooLargeError, readImageHeader } from '../media/image-limits';
import type { TemplatesDependencies } from './records';
import type { AssetRecord } from './templates.repository';

/** Fixed images stored and scratch folders of templates (TemplatesService in ./templates.service delegates here). */

/** An image file to store as a fixed image: where it is, how to read it, the file it was copied from, the field to blame. */
/** A fixed image is stored at most this wide: the widest page (TEMPLATE_WIDTH_MAX) never needs more. */
export const ASSET_WIDTH_MAX = 2000;
/** Where fixed images are stored: outside the `YYYY/MM/DD/` keys the object sweep treats as its own. */
export const ASSET_KEY_PREFIX = 'composite-assets/';

export interface AssetInput {
  file: string;
  format: 'psd' | 'image';
  sourceItemId: number | null;
  dir: string;
  field: string;
}

/**
 * Header-checked against the process's image limits and PAGE_PIXELS_MAX, decoded within the
 * image budget, at most ASSET_WIDTH_MAX wide, re-encoded as PNG (nothing of the upload's own
 * bytes is kept) and stored under `composite-assets/`.
 */
export async function storeAsset(
  deps: TemplatesDependencies,
  toDto: (row: AssetRecord) => Promise<TemplateAsset>,
  auth: AuthContext,
  input: AssetInput,
): Promise<TemplateAsset> {
  const { images } = deps;
  let header: ImageHeader;
  try {
    header = await readImageHeader(input.file, input.format);
  } catch {
    throw invalidField(input.field, 'invalidFormat');
  }
  images.check(header);
  const maxPixels = Math.min(images.limits.maxPixels, PAGE_PIXELS_MAX);
  if (header.width * header.height > maxPixels)
    throw new ImageTooLargeError(header.uprightWidth, header.uprightHeight, maxPixels);
  const output = path.join(input.dir, 'asset.png');
  const width = Math.min(header.uprightWidth, ASSET_WIDTH_MAX);
  let written: { width: number; height: number; size: number };
  try {
    written = await images.run(header.cost + encodeCost(width), async () => {
      const image = await decodeImage(input.file, {
        format: input.format,
        background: null,
        limitInputPixels: images.limits.maxPixels,
        scratchDir: input.dir,
      });
      return image.resize({ width: ASSET_WIDTH_MAX, withoutEnlargement: true }).png().toFile(output);
    });
  } catch (error) {
    // The header read, the pixels did not: a damaged image.
    deps.warn({ err: error }, 'template asset not decoded');
    throw invalidField(input.field, 'invalidFormat');
  }
  const key = `${ASSET_KEY_PREFIX}${randomUUID()}.png`;
  await deps.storage.writeFile(key, output, 'image/png');
  try {
    const row = await deps.repo.insertAsset({
      storageKey: key,
      width: written.width,
      height: written.height,
      bytes: written.size,
      sourceItemId: input.sourceItemId,
      userId: auth.userId,
      now: deps.clock.now(),
    });
    return await toDto(row);
  } catch (error) {
    await deps.storage
      .delete(key)
      .catch((err) => deps.warn({ err, key }, 'could not remove an unrecorded template asset'));
    throw error;
  }
}

/**
 * Runs `work` with a temporary folder of its own, removed afterwards whatever happened. An image
 * beyond the process's limits (an asset, a preview's source) is SEDL_04, as in downloads.
 */
export async function inScratch<T>(
  warn: TemplatesDependencies['warn'],
  work: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-template-'));
  try {
    return await work(dir);
  } catch (error) {
    if (error instanceof ImageTooLargeError)
      throw coded('SEDL_04', { width: error.width, height: error.height, limit: error.maxPixels });
    throw error;
  } finally {
    await fsp
      .rm(dir, { recursive: true, force: true })
      .catch((err) => warn({ err, dir }, 'could not remove a template work folder'));
  }
}
