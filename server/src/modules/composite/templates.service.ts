import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  FunctionCode,
  ItemState,
  ItemType,
  type Language,
  type previewTemplateRequestSchema,
  type saveTemplateRequestSchema,
  TEMPLATE_ASSET_MAX_BYTES,
  type TemplateAsset,
  type TemplateDetail,
  type TemplateFont,
  type TemplateSpec,
  type TemplateSummary,
  type templateDetailQuerySchema,
} from '@dam/contract';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError, coded, invalidField } from '../../http/app-error';
import { type AuthContext, requireAnyCode } from '../access/access';
import { canDownload, canSee } from '../items/policy';
import { SourceFiles } from '../media/source-file';
import { SOURCE_FORMAT_ORDER } from './fill';
import type { AssetUpload, TemplateSaved, TemplatesDependencies } from './records';
import { inScratch, storeAsset } from './template-assets';
import { renderPreviewPage, skuFieldsOf } from './template-preview';
import {
  assetIdsOf,
  canonicalJson,
  constraintOf,
  PLACEHOLDER_FIELDS,
  sniffImageFormat,
  storedSpec,
} from './template-spec';
import { checkAssetSources, checkTemplateSpec } from './templates.checks';
import { checkTemplateHeight } from './templates.height';
import type { AssetRecord, TemplateRecord } from './templates.repository';

export type { TemplateSaved } from './records';

type PreviewRequest = z.output<typeof previewTemplateRequestSchema>;
type DetailQuery = z.output<typeof templateDetailQuerySchema>;
type SaveTemplateRequest = z.output<typeof saveTemplateRequestSchema>;

/** Exact previews one person may ask for per minute: each is a whole render (plan §1). */
export const PREVIEWS_PER_MINUTE = 30;
const MB = 1024 * 1024;

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
    await checkTemplateSpec(this.deps, auth, spec, body.id);
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
    return inScratch(this.deps.warn, async (dir) => {
      const file = path.join(dir, `upload.${format}`);
      await fsp.writeFile(file, bytes);
      return storeAsset(this.deps, (row) => this.assetDto(row, auth), auth, {
        file,
        format: 'image',
        sourceItemId: null,
        dir,
        field: 'file',
      });
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
    return inScratch(this.deps.warn, async (dir) => {
      const file = await this.fileOf(source.storage_key, path.join(dir, `source.${extension}`), format);
      return storeAsset(this.deps, (row) => this.assetDto(row, auth), auth, {
        file,
        format,
        sourceItemId: itemId,
        dir,
        field: 'folderDataId',
      });
    });
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
    if (request.spec) await checkAssetSources(this.deps, auth, spec, assets, request.templateId);
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
    const fields = artNum
      ? (filled?.fields ?? (await skuFieldsOf(this.deps.repo, artNum)))
      : PLACEHOLDER_FIELDS;

    return inScratch(this.deps.warn, (dir) =>
      renderPreviewPage(
        this.deps,
        (key, copy, format) => this.fileOf(key, copy, format),
        { spec, fields, filled, assets, naming },
        dir,
      ),
    );
  }

  /**
   * A stored object as a local file: itself on the local driver, else a copy at `copy` (made once
   * its first bytes show an image within the pixel limit; media/source-file.ts).
   */
  private fileOf(key: string, copy: string, format: string): Promise<string> {
    return this.sourceFiles.fileOf(key, copy, format.toLowerCase() === 'psd' ? 'psd' : 'image');
  }
}
