import { PreviewStatus, type SharedFile } from '@dam/contract';
import { MAX_RENDERED_PAGES, pageKeyOf } from '../../storage/document-pages';
import type { FilesRepository } from '../files/repository';
import { BROWSER_VIEWABLE, playSourceOf } from '../files/service';
import { isExpired } from '../items/presenter';
import type { ItemWithOwner } from '../items/repository';
import type { MediaUrls } from '../media/urls';

/**
 * A file inside a share link as the visitor's viewer shows it (issue 39 item 6): what the
 * signed-in viewer shows of it (files/service `detail`): the main format's preview, the video
 * source (rendition or playable original) and the PDF page images; with media URLs made for the
 * link, which the media endpoint serves only while the link is live and offers the file.
 * Never the original's download link: downloads go through the link's download calls.
 */
export async function presentSharedFile(
  row: ItemWithOwner,
  files: Pick<FilesRepository, 'records'>,
  urls: MediaUrls,
  shareId: number,
  today: string,
): Promise<SharedFile> {
  const bearer = { shareId };
  const records = await files.records(row.id);
  const formats = row.file_formats?.split(',') ?? [];
  const main = formats
    .map((format) => records.find((r) => r.format === format && !r.hidden))
    .find((r) => r !== undefined);
  const expired = isExpired(row.expire_start_date, row.expire_end_date, today);
  const previewUrl = main
    ? main.preview_key
      ? await urls.urlOf(main.preview_key, bearer)
      : BROWSER_VIEWABLE.has(main.format)
        ? await urls.urlOf(main.storage_key, bearer)
        : null
    : null;
  const play = main ? playSourceOf(main) : { key: null, status: PreviewStatus.none };
  const pages = main?.page_count && !expired ? Math.min(main.page_count, MAX_RENDERED_PAGES) : 0;
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    fileFormat: row.file_formats,
    previewUrl,
    compactUrl: await urls.urlOf(row.cover_key, bearer),
    previewStatus: main?.preview_status ?? PreviewStatus.none,
    playUrl: play.key && !expired ? await urls.urlOf(play.key, bearer) : null,
    playStatus: play.status,
    pageCount: main?.page_count ?? null,
    pageUrls: await Promise.all(
      Array.from(
        { length: pages },
        (_, i) => urls.urlOf(pageKeyOf(main?.storage_key ?? '', i + 1), bearer) as Promise<string>,
      ),
    ),
    expired,
  };
}
