import type { EndpointBody, Endpoints } from '@dam/contract';
import type { Dayjs } from 'dayjs';
import type { PickedFile } from './engine/pickFiles';

type UploadEntry = EndpointBody<Endpoints['createUploads']>['uploadDetailDTOS'][number];

/**
 * The batch's upload entries (SPEC §4 uploadDetailDTOS), one per picked file in order: its name
 * and path as sent (`named`, after a fixed name), article number, its group's tags, the validity,
 * and, when the near-duplicate warning's "add as new version" was chosen, the file it joins.
 */
export function uploadEntries(
  files: PickedFile[],
  {
    named = files,
    artNumOf,
    tagsOf,
    validity,
    versionOf,
    keepCurrent,
  }: {
    named?: PickedFile[];
    artNumOf: (file: PickedFile) => string | undefined;
    tagsOf: (file: PickedFile) => number[] | undefined;
    validity: [Dayjs, Dayjs] | null;
    versionOf: ReadonlyMap<File, number>;
    /** New versions kept behind the file's current one (issue 39 item 9). */
    keepCurrent?: ReadonlySet<File>;
  },
): UploadEntry[] {
  return files.map((f, index) => {
    const artNum = artNumOf(f);
    const tags = tagsOf(f);
    const versionOfItemId = versionOf.get(f.file);
    return {
      fileName: (named[index] as PickedFile).fileName,
      fileSize: f.size,
      path: (named[index] as PickedFile).path,
      fileInfo: f.file.lastModified,
      ...(artNum ? { artNum } : {}),
      ...(tags?.length ? { tagIdList: tags } : {}),
      ...(validity
        ? {
            expireStartTime: validity[0].format('YYYY-MM-DD'),
            expireEndTime: validity[1].format('YYYY-MM-DD'),
          }
        : {}),
      ...(versionOfItemId !== undefined ? { versionOfItemId } : {}),
      ...(keepCurrent?.has(f.file) ? { keepCurrent: true } : {}),
    };
  });
}
