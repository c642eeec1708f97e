import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { filesKeys } from '../../api/items';

// Under the files key (as the viewer's keys): a new format uploaded or a version replaced refreshes it.
export const metadataKeys = {
  ofFile: (id: number) => [...filesKeys.all, 'metadata', id] as const,
};

/** How often the section looks again while a fresh upload's metadata is still being read, and for how long. */
const METADATA_PENDING_POLL_MS = 3_000;
const METADATA_PENDING_PATIENCE_MS = 10 * 60 * 1000;

/** What was read from each of a file's records (issue 42), newest first. */
export function useFileMetadata(fileId: number) {
  return useQuery({
    queryKey: metadataKeys.ofFile(fileId),
    queryFn: () => call(endpoints.fileMetadata, { query: { folderDataId: fileId }, silent: true }),
    staleTime: 30_000,
    // The media job reads the metadata a moment after the upload: look again until every record is read.
    refetchInterval: (query) =>
      query.state.data?.records.some((record) => record.status === 'pending') &&
      query.state.dataUpdateCount < METADATA_PENDING_PATIENCE_MS / METADATA_PENDING_POLL_MS
        ? METADATA_PENDING_POLL_MS
        : false,
  });
}
