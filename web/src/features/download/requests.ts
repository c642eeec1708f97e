import { type DownloadMetadata, type Item, ItemType, parseArtNums } from '@dam/contract';

/** What the download dialogs ask of embedded metadata (issue 42). */
export interface MetadataOptions {
  metadata: DownloadMetadata;
  /** `.xmp` sidecars beside formats that cannot carry the metadata; only with `embed`. */
  xmpSidecars: boolean;
}

export const DEFAULT_METADATA_OPTIONS: MetadataOptions = { metadata: 'embed', xmpSidecars: false };

/** The metadata fields of a request: absent for the server's default (the platform's written in). */
function metadataField({ metadata, xmpSidecars }: MetadataOptions): {
  metadata?: DownloadMetadata;
  xmpSidecars?: true;
} {
  if (metadata !== 'embed') return { metadata };
  return xmpSidecars ? { xmpSidecars: true } : {};
}

/** What goes to the server: each item with the formats asked for (SPEC §7 batch-download). */
export function downloadRequest(
  items: Item[],
  chosen: Record<number, string[]>,
  forAll: string[],
  scalingPx: number | null,
  presetId: number | null = null,
  metadata: MetadataOptions = DEFAULT_METADATA_OPTIONS,
): {
  downloadFolderDataDTOList: Array<{ folderDataId: number; fileFormatList: string[] }>;
  equalScalingPx?: number;
  presetId?: number;
  metadata?: DownloadMetadata;
  xmpSidecars?: true;
} | null {
  const list = items
    .map((item) => ({
      folderDataId: item.id,
      fileFormatList: [
        ...new Set([...(chosen[item.id] ?? []), ...(item.type === ItemType.folder ? [] : forAll)]),
      ],
    }))
    .filter((entry) => entry.fileFormatList.length > 0);
  if (list.length === 0) return null;
  // A preset sets the size itself; equal scaling applies only without one.
  if (presetId) return { downloadFolderDataDTOList: list, presetId, ...metadataField(metadata) };
  return {
    downloadFolderDataDTOList: list,
    ...(scalingPx ? { equalScalingPx: scalingPx } : {}),
    ...metadataField(metadata),
  };
}

/** The request of a download by article numbers, or null when the text holds none. */
export function artNumDownloadRequest(
  text: string,
  formats: string[],
  presetId: number | null,
  metadata: MetadataOptions = DEFAULT_METADATA_OPTIONS,
): {
  artNumList: string[];
  formats: string[];
  presetId?: number;
  metadata?: DownloadMetadata;
  xmpSidecars?: true;
} | null {
  const artNumList = parseArtNums(text);
  if (artNumList.length === 0) return null;
  const wanted = formats.includes('all') ? [] : formats;
  return { artNumList, formats: wanted, ...(presetId ? { presetId } : {}), ...metadataField(metadata) };
}

/** The request of a collection's download: its id, the formats (`all` = every one) and the settings. */
export function collectionDownloadRequest(
  id: number,
  formats: string[],
  scalingPx: number | null,
  presetId: number | null,
  metadata: MetadataOptions = DEFAULT_METADATA_OPTIONS,
): {
  id: number;
  formats: string[];
  equalScalingPx?: number;
  presetId?: number;
  metadata?: DownloadMetadata;
  xmpSidecars?: true;
} {
  const wanted = formats.includes('all') ? [] : formats;
  // A preset sets the size itself; equal scaling applies only without one.
  const size = presetId ? { presetId } : scalingPx ? { equalScalingPx: scalingPx } : {};
  return { id, formats: wanted, ...size, ...metadataField(metadata) };
}
