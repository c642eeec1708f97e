import {
  ItemState,
  ItemType,
  type OpenAsset,
  type OpenAssetPage,
  type OpenAssetSummary,
  type OpenByArtNumsResult,
  type OpenLink,
  type openByArtNumsRequestSchema,
  type openByFolderQuerySchema,
  type openByTagQuerySchema,
  type ReviewState,
  type TagOfFile,
} from '@dam/contract';
import type { z } from 'zod';
import { AppError } from '../../../http/app-error';
import { type Clock, calendarDate } from '../../../lib/clock';
import { type AuthContext, fileScopeFilter } from '../../access/access';
import { canSee } from '../../items/policy';
import type { ExpiringUrl, MediaUrls } from '../../media/urls';
import { decodeCursor, encodeCursor } from './cursor';
import { formatsOfRow, presentSummary } from './presenter';
import type { AssetRow, AssetViewer, OpenAssetsRepository } from './repository';

/**
 * Originals that are themselves a preview image (what any client shows as it is); other formats
 * have a JPEG preview made by the media job, or none. Video and PDF originals are not images,
 * and SVG may carry scripts: none of them is handed out as a "preview".
 */
const IMAGE_PREVIEWS = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp']);

export interface OpenAssetsDependencies {
  repo: OpenAssetsRepository;
  /** The tags of an item, with their dimensions (the tags module). */
  tags: { tagsOfItem(itemId: number): Promise<TagOfFile[]> };
  mediaUrls: MediaUrls;
  clock: Clock;
  /** BUSINESS_TIME_ZONE: the day validity is judged on (SPEC §4), as everywhere else. */
  timeZone: string;
}

/**
 * The open API's asset calls (issue 15): another system, acting with its access record's user's
 * rights, finds assets by article number, tag or folder, reads one, and gets preview links. What
 * that user may not see is absent (or SE_404, like unknown ids); nothing here counts as a view.
 */
export class OpenAssetsService {
  constructor(private readonly deps: OpenAssetsDependencies) {}

  private today(): string {
    return calendarDate(this.deps.clock.now(), this.deps.timeZone);
  }

  private viewerOf(auth: AuthContext, reviewState?: ReviewState): AssetViewer {
    return { userId: auth.userId, view: fileScopeFilter(auth, 'view'), reviewState };
  }

  /**
   * The assets of each article number asked (case-insensitive), newest first, at most
   * `limitPerArtNum` each; numbers with none the caller may see are `unmatched`, as sent. A
   * number sent twice is answered once; two spellings of one number are answered each.
   */
  async byArtNums(
    auth: AuthContext,
    body: z.output<typeof openByArtNumsRequestSchema>,
  ): Promise<OpenByArtNumsResult> {
    const asked = [...new Set(body.artNums)];
    const formats = body.formats && body.formats.length > 0 ? [...new Set(body.formats)] : null;
    const rows = await this.deps.repo.byArtNums(
      asked,
      this.viewerOf(auth, body.reviewState),
      formats,
      body.limitPerArtNum,
    );
    const today = this.today();
    const found = new Map<string, Array<AssetRow & { asked: string }>>();
    for (const row of rows) {
      const list = found.get(row.asked) ?? [];
      list.push(row);
      found.set(row.asked, list);
    }
    const matches: OpenByArtNumsResult['matches'] = [];
    const unmatched: string[] = [];
    for (const artNum of asked) {
      const list = found.get(artNum);
      if (!list) {
        unmatched.push(artNum);
        continue;
      }
      list.sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || Number(b.id) - Number(a.id));
      matches.push({ artNum, assets: list.map((row) => presentSummary(row, today)) });
    }
    return { matches, unmatched };
  }

  /** Live files carrying a tag, in item-id order, a page after the cursor. Unknown tag: SE_404. */
  async byTag(auth: AuthContext, query: z.output<typeof openByTagQuerySchema>): Promise<OpenAssetPage> {
    const after = query.cursor ? decodeCursor(query.cursor, 't').id : null;
    if (!(await this.deps.repo.tagExists(query.tagId))) throw new AppError('SE_404');
    const rows = await this.deps.repo.byTag(
      query.tagId,
      this.viewerOf(auth, query.reviewState),
      after,
      query.limit + 1,
    );
    return this.page(rows, query.limit, (last) => encodeCursor({ kind: 't', id: Number(last.id) }));
  }

  /**
   * A folder's own files (newest first), or with `recursive` every file below it (in id-path
   * order), a page after the cursor. A folder the caller cannot see, or that is not a live
   * folder, is SE_404 (in the recycle bin SEF_04, as elsewhere).
   */
  async byFolder(auth: AuthContext, query: z.output<typeof openByFolderQuerySchema>): Promise<OpenAssetPage> {
    const cursor = query.cursor ?? null;
    // The cursor is checked before anything is read: a bad one says nothing about the folder.
    const afterChild = cursor && !query.recursive ? decodeCursor(cursor, 'c') : null;
    const afterPath = cursor && query.recursive ? decodeCursor(cursor, 'r').relativePath : null;
    const folder = await this.deps.repo.item(query.folderId);
    if (!folder || folder.type !== ItemType.folder || !canSee(auth, folder)) throw new AppError('SE_404');
    if (folder.state !== ItemState.normal) throw new AppError('SEF_04');
    const viewer = this.viewerOf(auth, query.reviewState);
    if (query.recursive) {
      const rows = await this.deps.repo.subtree(
        folder.id_path,
        viewer,
        afterPath === null ? null : folder.id_path + afterPath,
        query.limit + 1,
      );
      return this.page(rows, query.limit, (last) =>
        encodeCursor({ kind: 'r', relativePath: last.id_path.slice(folder.id_path.length) }),
      );
    }
    const rows = await this.deps.repo.children(
      folder.id,
      viewer,
      afterChild ? { createdKey: afterChild.createdKey, id: afterChild.id } : null,
      query.limit + 1,
    );
    return this.page(rows, query.limit, (last) =>
      encodeCursor({ kind: 'c', createdKey: last.created_key, id: Number(last.id) }),
    );
  }

  /** A page of `limit` from `limit + 1` rows: the extra row only says that there is a next page. */
  private page<R extends AssetRow>(rows: R[], limit: number, cursorOf: (last: R) => string): OpenAssetPage {
    const today = this.today();
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      list: shown.map((row) => presentSummary(row, today)),
      nextCursor: rows.length > limit && last ? cursorOf(last) : null,
    };
  }

  /** A live file the caller may see; SE_404 for anything else (a folder, unknown, hidden), SEF_04 in the bin. */
  private async visibleFile(auth: AuthContext, id: number) {
    const row = await this.deps.repo.item(id);
    if (!row || row.type === ItemType.folder || !canSee(auth, row)) throw new AppError('SE_404');
    if (row.state !== ItemState.normal) throw new AppError('SEF_04');
    return row;
  }

  /**
   * One asset whole: each visible format's current version (size, pixels, how many versions),
   * tags with their dimensions, validity. Unlike the file detail screen it is not a view: no
   * view count, nothing in anyone's "recently viewed".
   */
  async get(auth: AuthContext, id: number): Promise<OpenAsset> {
    const row = await this.visibleFile(auth, id);
    const [records, tags] = await Promise.all([
      this.deps.repo.formatsOf(row.id),
      this.deps.tags.tagsOfItem(row.id),
    ]);
    const order = formatsOfRow(row);
    const rank = (format: string) => {
      const index = order.indexOf(format);
      return index === -1 ? order.length : index;
    };
    const summary: OpenAssetSummary = presentSummary(row, this.today());
    return {
      ...summary,
      formatDetails: records
        .sort((a, b) => rank(a.format) - rank(b.format) || a.format.localeCompare(b.format))
        .map((r) => ({
          format: r.format,
          size: Number(r.file_size),
          width: r.width,
          height: r.height,
          versions: Number(r.versions),
          updatedAt: (r.completed_at ?? r.created_at).toISOString(),
        })),
      tags: tags.map((tag) => ({
        tagId: tag.id,
        name: tag.tagName,
        dimensionId: tag.dimensionId,
        dimensionName: tag.dimensionName || null,
      })),
      createdAt: row.created_at.toISOString(),
    };
  }

  /**
   * Links to an asset's preview image and thumbnail, made for the access record (`accessId`):
   * they die when it is deleted or turned off, and answer only while its user may see the file
   * (local driver, checked by the media endpoint; S3 presigned links simply expire).
   * The preview is that of the file's main format (the first visible one), as the file detail
   * shows it: the media job's JPEG preview, or the original when it is itself a web image.
   */
  async previewLinks(
    auth: AuthContext,
    accessId: number,
    id: number,
  ): Promise<{ itemId: number; preview: OpenLink | null; thumbnail: OpenLink | null }> {
    const row = await this.visibleFile(auth, id);
    const records = await this.deps.repo.formatsOf(row.id);
    const main = formatsOfRow(row)
      .map((format) => records.find((r) => r.format === format))
      .find((r) => r !== undefined);
    const previewKey = main
      ? (main.preview_key ?? (IMAGE_PREVIEWS.has(main.format) ? main.storage_key : null))
      : null;
    const bearer = { accessId };
    const [preview, thumbnail] = await Promise.all([
      this.deps.mediaUrls.linkOf(previewKey, bearer),
      this.deps.mediaUrls.linkOf(row.cover_key, bearer),
    ]);
    return { itemId: row.id, preview: linkOf(preview), thumbnail: linkOf(thumbnail) };
  }

  /**
   * For the change journal: of these item ids, those that still exist, each with whether the
   * caller may see it (a file, by its current row) and its summary when it is a live file (null
   * in the recycle bin). Purged ids are absent.
   */
  async currentOf(
    auth: AuthContext,
    ids: readonly number[],
  ): Promise<Map<number, { visible: boolean; summary: OpenAssetSummary | null }>> {
    const rows = await this.deps.repo.itemsByIds([...new Set(ids)]);
    const today = this.today();
    return new Map(
      rows.map((row) => {
        const visible = row.type !== ItemType.folder && canSee(auth, row);
        const live = visible && row.state === ItemState.normal;
        return [Number(row.id), { visible, summary: live ? presentSummary(row, today) : null }];
      }),
    );
  }
}

const linkOf = (link: ExpiringUrl | null): OpenLink | null =>
  link ? { url: link.url, expiresAt: link.expiresAt.toISOString() } : null;
