import {
  type EditFileRequest,
  type FileDetail,
  PreviewStatus,
  type TagOfFile,
  type UploadRecordInfo,
} from '@dam/contract';
import { AppError, invalidField } from '../../http/app-error';
import { type Clock, calendarDate } from '../../lib/clock';
import { MAX_RENDERED_PAGES, pageKeyOf } from '../../storage/document-pages';
import type { ObjectStorage } from '../../storage/storage';
import type { AuthContext } from '../access/access';
import type { ObjectsFreed } from '../deletion-outbox/service';
import { visibleFile } from '../items/lookup';
import { canDownload, canEdit, canSee } from '../items/policy';
import { isExpired, presentItem } from '../items/presenter';
import type { ItemsRepository, ItemWithOwner } from '../items/repository';
import type { LogActor } from '../logs/service';
import type { MediaUrls } from '../media/urls';
import type { FilesRepository } from './repository';

/** What browsers show as they are; other formats are shown through their JPEG preview. */
export const BROWSER_VIEWABLE = new Set([
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'svg',
  'mp4',
  'webm',
  'mov',
  'pdf',
]);

const VIDEO_FORMATS = new Set(['mp4', 'm4v', 'webm', 'mov', 'avi', 'mkv', 'mpeg', 'rmvb']);

/**
 * What a video record plays from (issue 11 item 2): its rendition, or the original when the media
 * job found browsers play it. Records from before renditions (play_status null, job done) keep
 * playing MP4/WebM originals as they did.
 */
export function playSourceOf(record: {
  format: string;
  storage_key: string;
  play_key: string | null;
  play_status: PreviewStatus | null;
  preview_status: PreviewStatus;
}): { key: string | null; status: PreviewStatus } {
  if (!VIDEO_FORMATS.has(record.format)) return { key: null, status: PreviewStatus.none };
  if (record.play_status === null) {
    if (record.preview_status === PreviewStatus.pending) return { key: null, status: PreviewStatus.pending };
    return ['mp4', 'webm'].includes(record.format)
      ? { key: record.storage_key, status: PreviewStatus.ready }
      : { key: null, status: PreviewStatus.none };
  }
  if (record.play_status === PreviewStatus.ready) {
    return { key: record.play_key ?? record.storage_key, status: PreviewStatus.ready };
  }
  return { key: null, status: record.play_status };
}

export interface FilesDependencies {
  files: FilesRepository;
  items: ItemsRepository;
  /** The tags of an item for the detail (the tags module); without it the detail lists none. */
  tags?: { tagsOfItem(itemId: number): Promise<TagOfFile[]> };
  storage: ObjectStorage;
  mediaUrls: MediaUrls;
  clock: Clock;
  timeZone: string;
  warn: (details: Record<string, unknown>, message: string) => void;
  /** Queues the deletion of objects recorded in the outbox (deleting a record). */
  objectsFreed?: ObjectsFreed;
}

/** The file detail screen: what a file is, its versions, editing it (SPEC §2 File detail, §5 File rename). */
export class FilesService {
  constructor(private readonly deps: FilesDependencies) {}

  private today(): string {
    return calendarDate(this.deps.clock.now(), this.deps.timeZone);
  }

  private async editableFile(items: ItemsRepository, auth: AuthContext, id: number): Promise<ItemWithOwner> {
    const row = await visibleFile(items, auth, id);
    if (!canEdit(auth, row)) throw new AppError('SE_502');
    return row;
  }

  /**
   * Opens a file: its detail, and (SPEC §5) a view that lands in "recent", counted once per opening
   * (`viewing.opening`, the viewer's key; issue 39 item 3) with its operation log entry.
   */
  async detail(
    auth: AuthContext,
    id: number,
    viewing: { opening: string | null; actor: LogActor },
  ): Promise<FileDetail> {
    const row = await visibleFile(this.deps.items, auth, id);
    const records = await this.deps.files.records(id);
    const shownFormat =
      row.file_formats?.split(',').find((f) => records.some((r) => r.format === f && !r.hidden)) ?? null;
    const counted = await this.deps.files.recordOpening({
      userId: auth.userId,
      item: { id: row.id, name: row.name },
      format: shownFormat,
      opening: viewing.opening,
      actor: viewing.actor,
      now: this.deps.clock.now(),
    });
    const today = this.today();
    const expired = isExpired(row.expire_start_date, row.expire_end_date, today);
    const mayDownload = canDownload(auth, row);
    const urls = this.deps.mediaUrls;

    const infos: UploadRecordInfo[] = await Promise.all(
      records.map(async (r) => {
        // SPEC §4: an expired file offers no view or download of its history.
        const open = !expired;
        const previewUrl = !open
          ? null
          : r.preview_key
            ? await urls.urlOf(r.preview_key, auth)
            : BROWSER_VIEWABLE.has(r.format)
              ? await urls.urlOf(r.storage_key, auth)
              : null;
        return {
          id: r.id,
          fileName: r.file_name,
          fileFormat: r.format,
          fileSize: r.file_size,
          filePx: r.width && r.height ? `${r.width}*${r.height}` : null,
          uploadTime: (r.completed_at ?? r.created_at).toISOString(),
          userName: r.user_name,
          hide: r.hidden,
          artNum: r.art_num,
          url: open && mayDownload ? await urls.downloadUrl(r.storage_key, r.file_name, auth) : null,
          compactUrl: await urls.urlOf(r.thumb_key, auth),
          previewUrl,
          previewStatus: r.preview_status,
        };
      }),
    );
    const formats = row.file_formats?.split(',') ?? [];
    const main = formats
      .map((format) => records.find((r) => r.format === format && !r.hidden))
      .find((r) => r !== undefined);
    const mainInfo = main ? infos.find((i) => i.id === main.id) : undefined;
    const mainPreview = main
      ? main.preview_key
        ? await urls.urlOf(main.preview_key, auth)
        : BROWSER_VIEWABLE.has(main.format)
          ? await urls.urlOf(main.storage_key, auth)
          : null
      : null;
    const item = presentItem(row, auth, today);
    const play = main ? playSourceOf(main) : { key: null, status: PreviewStatus.none };
    return {
      id: row.id,
      type: row.type,
      name: row.name,
      folderId: row.parent_id,
      path: row.folder_path,
      fileFormat: row.file_formats,
      url: mainInfo?.url ?? null,
      previewUrl: mainPreview,
      compactUrl: await urls.urlOf(row.cover_key, auth),
      previewStatus: main?.preview_status ?? PreviewStatus.none,
      playUrl: play.key && !expired ? await urls.urlOf(play.key, auth) : null,
      playStatus: play.status,
      pageCount: main?.page_count ?? null,
      pageUrls:
        main?.page_count && !expired
          ? await Promise.all(
              Array.from(
                { length: Math.min(main.page_count, MAX_RENDERED_PAGES) },
                (_, i) => urls.urlOf(pageKeyOf(main.storage_key, i + 1), auth) as Promise<string>,
              ),
            )
          : [],
      expireStartTime: row.expire_start_date,
      expireEndTime: row.expire_end_date,
      expired,
      totalSize: row.total_size,
      filePx: main?.width && main.height ? `${main.width}*${main.height}` : null,
      artNum: row.art_num,
      userName: row.user_name,
      createdAt: row.created_at.toISOString(),
      viewCount: row.view_count + (counted ? 1 : 0),
      downloadCount: row.download_count,
      collected: row.collected,
      authList: item.authList,
      tagDTOList: (await this.deps.tags?.tagsOfItem(row.id)) ?? [],
      folderDataInfoDTOList: infos,
    };
  }

  /**
   * Renames (SPEC §5: a name used by another file sharing a format is taken; with no format in
   * common the two merge once confirmed), or sets validity and article number.
   */
  async edit(auth: AuthContext, body: EditFileRequest): Promise<{ folderDataId: number }> {
    return this.deps.files.transaction(async (files, items) => {
      const row = await this.editableFile(items, auth, body.folderDataId);
      let resultId = row.id;
      if (body.name !== undefined && body.name !== row.name) {
        await items.lockName(row.parent_id, body.name);
        const other = await items.findLiveFileByName(row.parent_id, body.name);
        if (other && other.id !== row.id) {
          // A hidden file's name is taken, nothing more: its formats are not revealed (issue 9).
          if (!canSee(auth, other)) throw new AppError('SEF_01');
          const mine = new Set(row.file_formats?.split(',') ?? []);
          const shared = (other.file_formats?.split(',') ?? []).some((f) => mine.has(f));
          if (shared) throw new AppError('SEF_01');
          if (!body.confirmMerge) throw new AppError('SEF_07');
          if (!canEdit(auth, other)) throw new AppError('SE_502');
          await files.moveRecords(row.id, other.id);
          await files.moveFavouritesAndViews(row.id, other.id);
          await files.moveTags(row.id, other.id);
          await files.deleteItem(row.id);
          await items.refreshFileSummary(other.id, this.deps.clock.now());
          resultId = other.id;
        } else {
          await items.renameItem(row.id, body.name, this.deps.clock.now());
        }
      }
      const metadata = {
        ...(body.startValidTime !== undefined ? { expire_start_date: body.startValidTime } : {}),
        ...(body.endValidTime !== undefined ? { expire_end_date: body.endValidTime } : {}),
        ...(body.artNum !== undefined ? { art_num: body.artNum || null } : {}),
      };
      if (Object.keys(metadata).length > 0)
        await items.updateMetadata(resultId, metadata, this.deps.clock.now());
      return { folderDataId: resultId };
    });
  }

  /** Hides one format of a file (its records stay, listed as hidden); the last visible one cannot go. */
  async hideFormat(auth: AuthContext, itemId: number, format: string): Promise<void> {
    await this.deps.files.transaction(async (files, items) => {
      const row = await this.editableFile(items, auth, itemId);
      const visible = row.file_formats?.split(',') ?? [];
      if (!visible.includes(format)) throw invalidField('format', 'invalidValue');
      if (visible.length === 1) throw invalidField('format', 'wrongState');
      await files.hideFormat(itemId, format);
      await items.refreshFileSummary(itemId, this.deps.clock.now());
    });
  }

  /** Deletes one upload record, only while the file keeps at least one other (SPEC §2 edit mode). */
  async deleteRecord(auth: AuthContext, recordId: number, itemId: number): Promise<void> {
    const freed = await this.deps.files.transaction(async (files, items) => {
      await this.editableFile(items, auth, itemId);
      const records = await files.records(itemId);
      const record = records.find((r) => r.id === recordId);
      if (!record) throw new AppError('SE_404');
      if (records.length <= 1) throw invalidField('id', 'wrongState');
      const keys = await files.deleteRecord(recordId, this.deps.clock.now());
      await items.refreshFileSummary(itemId, this.deps.clock.now());
      return keys;
    });
    // Its objects (original, thumbnail, preview) go through the deletion outbox, retried until gone.
    await this.deps.objectsFreed?.(freed);
  }
}
