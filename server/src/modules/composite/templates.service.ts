import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  FunctionCode,
  ItemState,
  ItemType,
  type Language,
  PAGE_PIXELS_MAX,
  PREVIEW_WIDTH_MAX,
  type previewTemplateRequestSchema,
  type saveTemplateRequestSchema,
  TEMPLATE_ASSET_MAX_BYTES,
  TEXT_FIELDS,
  type TemplateAsset,
  type TemplateDetail,
  type TemplateFont,
  type TemplateSpec,
  type TemplateSummary,
  type TextField,
  type templateDetailQuerySchema,
  templateSpecSchema,
} from '@dam/contract';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError, coded, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { ObjectStorage } from '../../storage/storage';
import { type AuthContext, requireAnyCode } from '../access/access';
import { canDownload, canSee } from '../items/policy';
import { decodeImage } from '../media/decode';
import {
  encodeCost,
  type ImageHeader,
  ImageTooLargeError,
  type ImageWork,
  readImageHeader,
} from '../media/image-limits';
import { SourceFiles } from '../media/source-file';
import type { MediaUrls } from '../media/urls';
import type { RateLimiter } from '../ratelimit/limiter';
import { TextTooLargeError } from './engine/text';
import { type FontRegistry, type PageRenderer, PageTooLargeError, type SlotSource } from './engine/types';
import { type ArticleFiller, SOURCE_FORMAT_ORDER } from './fill';
import { checkTemplateHeight } from './templates.height';
import type { AssetRecord, TemplateRecord, TemplatesRepository } from './templates.repository';

type PreviewRequest = z.output<typeof previewTemplateRequestSchema>;
type DetailQuery = z.output<typeof templateDetailQuerySchema>;
type SaveTemplateRequest = z.output<typeof saveTemplateRequestSchema>;

/** Exact previews one person may ask for per minute: each is a whole render (plan §1). */
export const PREVIEWS_PER_MINUTE = 30;
/** A fixed image is stored at most this wide: the widest page (TEMPLATE_WIDTH_MAX) never needs more. */
export const ASSET_WIDTH_MAX = 2000;
/** Where fixed images are stored: outside the `YYYY/MM/DD/` keys the object sweep treats as its own. */
export const ASSET_KEY_PREFIX = 'composite-assets/';
const MB = 1024 * 1024;

/** What an uploaded fixed image looks like to the service: its bytes, and whether they were cut off. */
export interface AssetUpload {
  stream: Readable;
  /** True once the stream was cut at TEMPLATE_ASSET_MAX_BYTES (known after it has ended). */
  truncated(): boolean;
}

/** What a save did, for the operation log (nothing changed: no entry). */
export interface TemplateSaved {
  id: number;
  version: number;
  name: string;
  created: boolean;
  /** What changed of an existing template: a new version, the name, the status. */
  changes: { spec: boolean; name: boolean; status: boolean };
}

export interface TemplatesDependencies {
  repo: TemplatesRepository;
  fonts: FontRegistry;
  renderer: PageRenderer;
  storage: ObjectStorage;
  /** Where a stored object is on disk (local driver), or null: it is then copied to read it. */
  localPath: (key: string) => string | null;
  images: ImageWork;
  mediaUrls: MediaUrls;
  limiter: RateLimiter;
  /** Fills a preview's slots from an article's files (the maker's slot filling); absent: grey boxes. */
  filler?: Pick<ArticleFiller, 'fill' | 'contextOf'>;
  clock: Clock;
  /** COMPOSE_MAX_PAGE_HEIGHT. */
  maxPageHeight: number;
  warn: (details: Record<string, unknown>, message: string) => void;
}

/** JSON with object keys sorted: two specs that mean the same compare equal (jsonb reorders keys). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

/**
 * A stored spec as the schema gives it today: defaults added since it was saved are filled in, so
 * an unchanged template does not look changed. A spec the schema no longer accepts is kept as is.
 */
function storedSpec(stored: unknown): TemplateSpec {
  const parsed = templateSpecSchema.safeParse(stored);
  return parsed.success ? parsed.data : (stored as TemplateSpec);
}

/** The assets a spec's fixed blocks name, each once. */
export function assetIdsOf(spec: TemplateSpec): number[] {
  return [...new Set(spec.blocks.flatMap((block) => (block.type === 'fixed' ? [block.assetId] : [])))];
}

/** The first bytes of the formats a fixed image may be uploaded in; anything else (SVG too) is refused. */
export function sniffImageFormat(bytes: Buffer): 'jpg' | 'png' | 'webp' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** A text field's own placeholder as its value: a preview without an article shows where each goes. */
const PLACEHOLDER_FIELDS = Object.fromEntries(TEXT_FIELDS.map((field) => [field, `{${field}}`])) as Record<
  TextField,
  string
>;

/**
 * Detail-page templates (issue 16): everyone signed in lists and opens the active ones (to compose
 * with them); function code 9 manages them: archived ones too, saving (a new immutable version only
 * when the spec changed), deleting, fixed images. The exact preview renders a page through the
 * engine's renderer, at most PREVIEW_WIDTH_MAX wide, PREVIEWS_PER_MINUTE per person. A refused
 * request changes nothing: every check runs before the first write, and a save is one transaction.
 */
export class TemplatesService {
  private readonly sourceFiles: SourceFiles;

  constructor(private readonly deps: TemplatesDependencies) {
    this.sourceFiles = new SourceFiles(deps.storage, deps.images, deps.localPath);
  }

  private mayManage(auth: AuthContext): boolean {
    return auth.functionCodes.has(FunctionCode.template);
  }

  private summary(row: TemplateRecord): TemplateSummary {
    const spec = storedSpec(row.spec);
    return {
      id: row.id,
      name: row.name,
      status: row.status === 1 ? 1 : 0,
      currentVersion: row.current_version,
      width: row.width,
      blockTypes: spec.blocks.map((block) => block.type),
      sliceMaxHeight: row.slice_max_height,
      updatedAt: row.updated_at.toISOString(),
      updatedByName: row.updated_by_name,
      missingFonts: this.deps.fonts.missingFonts(spec),
    };
  }

  private async assetDto(row: AssetRecord, auth: AuthContext): Promise<TemplateAsset> {
    return {
      id: row.id,
      width: row.width,
      height: row.height,
      url: (await this.deps.mediaUrls.urlOf(row.storage_key, auth)) ?? '',
    };
  }

  /** A template the caller may open: active ones for everyone, archived ones with code 9; else SECP_01. */
  private async openable(auth: AuthContext, id: number): Promise<TemplateRecord> {
    const row = await this.deps.repo.find(id);
    if (!row || (row.status !== 1 && !this.mayManage(auth))) throw new AppError('SECP_01');
    return row;
  }

  async list(auth: AuthContext, manage: boolean): Promise<TemplateSummary[]> {
    if (manage) requireAnyCode(auth, FunctionCode.template);
    return (await this.deps.repo.list(manage)).map((row) => this.summary(row));
  }

  async detail(auth: AuthContext, query: DetailQuery): Promise<TemplateDetail> {
    const row = await this.openable(auth, query.id);
    const version = query.version ?? row.current_version;
    const stored = await this.deps.repo.versionSpec(row.id, version);
    if (stored === undefined) throw invalidField('version', 'invalidValue', { value: version });
    const spec = storedSpec(stored);
    const [versions, assets] = await Promise.all([
      this.deps.repo.versions(row.id),
      this.deps.repo.assets(assetIdsOf(spec)),
    ]);
    return {
      template: this.summary(row),
      version,
      spec,
      versions: versions.map((v) => ({
        version: v.version,
        createdAt: v.created_at.toISOString(),
        createdByName: v.created_by_name,
      })),
      assets: await Promise.all(assets.map((asset) => this.assetDto(asset, auth))),
    };
  }

  fonts(): TemplateFont[] {
    return this.deps.fonts.list().map((font) => ({
      id: font.id,
      family: font.family,
      cjk: font.cjk,
      bold: font.boldFile !== null,
      available: font.available,
    }));
  }

  /**
   * What the schema cannot know: the fonts are installed here, the fixed images and the tags
   * exist (each refusal names the field, SE_400), and the page fits the renderer's limit (SECP_07).
   */
  private async checkSpec(auth: AuthContext, spec: TemplateSpec, templateId?: number): Promise<void> {
    for (const [index, block] of spec.blocks.entries()) {
      if (block.type !== 'text') continue;
      if (!this.deps.fonts.get(block.fontId)?.available)
        throw invalidField(`spec.blocks.${index}.fontId`, 'fontMissing', { value: block.fontId });
    }
    const rows = await this.deps.repo.assets(assetIdsOf(spec));
    const assets = new Set(rows.map((asset) => asset.id));
    for (const [index, block] of spec.blocks.entries()) {
      if (block.type === 'fixed' && !assets.has(block.assetId))
        throw invalidField(`spec.blocks.${index}.assetId`, 'invalidValue', { value: block.assetId });
    }
    await this.checkAssetSources(auth, spec, rows, templateId);
    checkTemplateHeight(spec, rows, this.deps.maxPageHeight);
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
    const tags = await this.deps.repo.existingTags(tagsNamed.map((named) => named.tagId));
    const unknown = tagsNamed.find((named) => !tags.has(named.tagId));
    if (unknown) throw invalidField(unknown.field, 'invalidValue', { value: unknown.tagId });
  }

  /**
   * Asset ids are sequential and assets global: a fixed image copied from a file may be put in a
   * draft (saved or previewed) only by someone who may download that file, unless the template's
   * current saved version already has it (someone allowed put it there). Uploaded images (no
   * source file) are anyone's with code 9. A refusal names the block (SE_400), as for an unknown id.
   */
  private async checkAssetSources(
    auth: AuthContext,
    spec: TemplateSpec,
    assets: readonly AssetRecord[],
    templateId: number | undefined,
  ): Promise<void> {
    const copied = assets.filter((asset) => asset.source_item_id !== null);
    if (copied.length === 0) return;
    const allowed = new Set<number>();
    const current = templateId === undefined ? undefined : await this.deps.repo.find(templateId);
    if (current) {
      const stored = await this.deps.repo.versionSpec(current.id, current.current_version);
      if (stored !== undefined) for (const id of assetIdsOf(storedSpec(stored))) allowed.add(id);
    }
    const toCheck = copied.filter((asset) => !allowed.has(asset.id));
    if (toCheck.length === 0) return;
    const items = new Map(
      (await this.deps.repo.itemsForAccess(toCheck.map((asset) => Number(asset.source_item_id)))).map(
        (item) => [Number(item.id), item],
      ),
    );
    for (const asset of toCheck) {
      const item = items.get(Number(asset.source_item_id));
      if (item && item.state === ItemState.normal && canDownload(auth, item)) continue;
      const index = spec.blocks.findIndex((block) => block.type === 'fixed' && block.assetId === asset.id);
      throw invalidField(`spec.blocks.${index}.assetId`, 'invalidValue', { value: asset.id });
    }
  }

  /**
   * Creates a template (version 1), or saves an existing one: a new version only when the spec
   * differs from the current one (canonical JSON), the name and status in place. The template
   * row is locked first, so of two saves from the same version the second gets SECP_06. A name
   * taken (without regard to case) is SECP_02, also when a concurrent save took it first: the
   * unique index decides, and its violation rolls the whole save back.
   */
  async save(auth: AuthContext, body: SaveTemplateRequest): Promise<TemplateSaved> {
    requireAnyCode(auth, FunctionCode.template);
    const { spec } = body;
    if (body.id !== undefined && body.baseVersion === undefined)
      throw invalidField('baseVersion', 'required');
    await this.checkSpec(auth, spec, body.id);
    const now = this.deps.clock.now();
    const versionOf = (templateId: number, version: number) => ({
      templateId,
      version,
      spec,
      width: spec.width,
      blockCount: spec.blocks.length,
      sliceMaxHeight: spec.output.sliceMaxHeight,
      userId: auth.userId,
      now,
    });
    try {
      const templateId = body.id;
      if (templateId === undefined) {
        return await this.deps.repo.transaction(async (repo) => {
          const id = await repo.insertTemplate({
            name: body.name,
            status: body.status,
            userId: auth.userId,
            now,
          });
          await repo.insertVersion(versionOf(id, 1));
          return {
            id,
            version: 1,
            name: body.name,
            created: true,
            changes: { spec: true, name: true, status: true },
          };
        });
      }
      return await this.deps.repo.transaction(async (repo) => {
        const current = await repo.lock(templateId);
        if (!current) throw new AppError('SECP_01');
        if (current.current_version !== body.baseVersion) throw new AppError('SECP_06');
        const stored = storedSpec(await repo.versionSpec(templateId, current.current_version));
        const changes = {
          spec: canonicalJson(stored) !== canonicalJson(spec),
          name: current.name !== body.name,
          status: current.status !== body.status,
        };
        const version = changes.spec ? current.current_version + 1 : current.current_version;
        if (changes.spec) await repo.insertVersion(versionOf(templateId, version));
        if (changes.spec || changes.name || changes.status)
          await repo.updateTemplate(templateId, {
            name: body.name,
            status: body.status,
            currentVersion: version,
            userId: auth.userId,
            now,
          });
        return { id: templateId, version, name: body.name, created: false, changes };
      });
    } catch (error) {
      if (isUniqueViolation(error) && constraintOf(error) !== 'composite_template_versions_pkey')
        throw new AppError('SECP_02');
      throw error;
    }
  }

  /** Soft delete: jobs keep the versions they rendered. Answers the name, or null when already gone. */
  async delete(auth: AuthContext, id: number): Promise<string | null> {
    requireAnyCode(auth, FunctionCode.template);
    return this.deps.repo.softDelete(id, auth.userId, this.deps.clock.now());
  }

  /** Function code 9, checked before a byte of an upload is read. */
  requireManage(auth: AuthContext): void {
    requireAnyCode(auth, FunctionCode.template);
  }

  /** A fixed image uploaded as JPG, PNG or WebP (its first bytes decide; SVG is refused), stored as PNG. */
  async uploadAsset(auth: AuthContext, upload: AssetUpload): Promise<TemplateAsset> {
    requireAnyCode(auth, FunctionCode.template);
    const chunks: Buffer[] = [];
    for await (const chunk of upload.stream) chunks.push(chunk as Buffer);
    if (upload.truncated())
      throw invalidField('file', 'tooBig', { max: `${Math.floor(TEMPLATE_ASSET_MAX_BYTES / MB)} MB` });
    const bytes = Buffer.concat(chunks);
    const format = sniffImageFormat(bytes);
    if (!format) throw invalidField('file', 'invalidFormat');
    return this.inScratch(async (dir) => {
      const file = path.join(dir, `upload.${format}`);
      await fsp.writeFile(file, bytes);
      return this.storeAsset(auth, { file, format: 'image', sourceItemId: null, dir, field: 'file' });
    });
  }

  /**
   * A copy of a file as a fixed image: the caller must be allowed to download it (a banner is
   * copied into every page rendered with it). Its best image format is used.
   */
  async assetFromFile(auth: AuthContext, itemId: number): Promise<TemplateAsset> {
    requireAnyCode(auth, FunctionCode.template);
    const found = await this.deps.repo.fileWithSources(itemId);
    // Unknown, not visible, or a folder: the same answer (docs/decisions.md, Errors).
    if (!found || !canSee(auth, found.item) || found.item.type === ItemType.folder)
      throw new AppError('SE_404');
    if (found.item.state !== ItemState.normal) throw new AppError('SEF_04');
    if (!canDownload(auth, found.item)) throw new AppError('SE_502');
    const source = SOURCE_FORMAT_ORDER.flatMap((format) =>
      found.sources.filter((s) => s.format.toLowerCase() === format),
    )[0];
    if (!source) throw invalidField('folderDataId', 'invalidFormat');
    const format = source.format.toLowerCase() === 'psd' ? 'psd' : 'image';
    const extension = source.format.toLowerCase().replace(/[^a-z0-9]/g, '');
    return this.inScratch(async (dir) => {
      const file = await this.fileOf(source.storage_key, path.join(dir, `source.${extension}`), format);
      return this.storeAsset(auth, { file, format, sourceItemId: itemId, dir, field: 'folderDataId' });
    });
  }

  /**
   * Header-checked against the process's image limits and PAGE_PIXELS_MAX, decoded within the
   * image budget, at most ASSET_WIDTH_MAX wide, re-encoded as PNG (nothing of the upload's own
   * bytes is kept) and stored under `composite-assets/`.
   */
  private async storeAsset(
    auth: AuthContext,
    input: { file: string; format: 'psd' | 'image'; sourceItemId: number | null; dir: string; field: string },
  ): Promise<TemplateAsset> {
    const { images } = this.deps;
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
      this.deps.warn({ err: error }, 'template asset not decoded');
      throw invalidField(input.field, 'invalidFormat');
    }
    const key = `${ASSET_KEY_PREFIX}${randomUUID()}.png`;
    await this.deps.storage.writeFile(key, output, 'image/png');
    try {
      const row = await this.deps.repo.insertAsset({
        storageKey: key,
        width: written.width,
        height: written.height,
        bytes: written.size,
        sourceItemId: input.sourceItemId,
        userId: auth.userId,
        now: this.deps.clock.now(),
      });
      return await this.assetDto(row, auth);
    } catch (error) {
      await this.deps.storage
        .delete(key)
        .catch((err) => this.deps.warn({ err, key }, 'could not remove an unrecorded template asset'));
      throw error;
    }
  }

  /**
   * The exact preview: the page as the engine renders it, scaled to at most PREVIEW_WIDTH_MAX, as
   * JPEG bytes. A draft spec needs code 9; a saved version only needs to be openable. With an
   * article number the slots are filled as the maker fills them (the caller's downloadable files,
   * hand-picked overrides) and the text from its SKU row; without one the slots are labelled grey
   * boxes and the text shows its placeholders.
   */
  async preview(auth: AuthContext, request: PreviewRequest, lang: Language = 'zh'): Promise<Buffer> {
    let spec: TemplateSpec;
    if (request.spec) {
      requireAnyCode(auth, FunctionCode.template);
      spec = request.spec;
    } else {
      const row = await this.openable(auth, request.templateId as number);
      const version = request.version ?? row.current_version;
      const stored = await this.deps.repo.versionSpec(row.id, version);
      if (stored === undefined) throw invalidField('version', 'invalidValue', { value: version });
      spec = storedSpec(stored);
    }
    await this.deps.limiter.take([
      { key: `template-preview:${auth.userId}`, max: PREVIEWS_PER_MINUTE, windowMs: 60_000 },
    ]);
    const missingFonts = this.deps.fonts.missingFonts(spec);
    if (missingFonts.length > 0) throw coded('SECP_03', { detail: missingFonts.join(', ') });
    const assets = await this.deps.repo.assets(assetIdsOf(spec));
    const known = new Set(assets.map((asset) => asset.id));
    for (const [index, block] of spec.blocks.entries())
      if (block.type === 'fixed' && !known.has(block.assetId))
        throw invalidField(`spec.blocks.${index}.assetId`, 'invalidValue', { value: block.assetId });
    // A draft's copied images are the caller's to use only as a save would allow.
    if (request.spec) await this.checkAssetSources(auth, spec, assets, request.templateId);
    checkTemplateHeight(spec, assets, this.deps.maxPageHeight);
    const artNum = request.artNum;
    // Slots are named by what they hold, in the caller's language (issue 39 item 4).
    const context = await this.deps.filler?.contextOf(spec, lang);
    const naming = context ?? { lang };
    const filled =
      artNum && this.deps.filler
        ? await this.deps.filler.fill(
            auth,
            spec,
            artNum,
            request.overrides.filter((o) => o.artNum.toLowerCase() === artNum.toLowerCase()),
            context,
          )
        : null;
    const fields = artNum ? (filled?.fields ?? (await this.fieldsOf(artNum))) : PLACEHOLDER_FIELDS;

    return this.inScratch(async (dir) => {
      const assetFiles = new Map<number, string>();
      for (const asset of assets)
        assetFiles.set(
          asset.id,
          await this.fileOf(asset.storage_key, path.join(dir, `asset-${asset.id}.png`), 'png'),
        );
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
          file = await this.fileOf(
            chosen.storageKey,
            path.join(dir, `source-${chosen.itemId}.${chosen.format}`),
            chosen.format,
          );
          copies.set(chosen.itemId, file);
        }
        sources.set(slot.slot, { itemId: chosen.itemId, name: chosen.name, file, format: chosen.format });
      }
      try {
        const rendered = await this.deps.renderer.render({
          spec,
          fields,
          sources,
          assets: assetFiles,
          scratchDir: dir,
          want: { page: true, slices: false },
          previewWidth: PREVIEW_WIDTH_MAX,
          maxPageHeight: this.deps.maxPageHeight,
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
    });
  }

  /** The article number and its SKU row's columns; without a row, the article number alone. */
  private async fieldsOf(artNum: string): Promise<Partial<Record<TextField, string>>> {
    const sku = await this.deps.repo.skuFields(artNum);
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

  /**
   * Runs `work` with a temporary folder of its own, removed afterwards whatever happened. An image
   * beyond the process's limits (an asset, a preview's source) is SEDL_04, as in downloads.
   */
  private async inScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
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
        .catch((err) => this.deps.warn({ err, dir }, 'could not remove a template work folder'));
    }
  }

  /**
   * A stored object as a local file: itself on the local driver, else a copy at `copy` (made once
   * its first bytes show an image within the pixel limit; media/source-file.ts).
   */
  private fileOf(key: string, copy: string, format: string): Promise<string> {
    return this.sourceFiles.fileOf(key, copy, format.toLowerCase() === 'psd' ? 'psd' : 'image');
  }
}

function constraintOf(error: unknown): string | undefined {
  return (error as { constraint?: string }).constraint;
}
