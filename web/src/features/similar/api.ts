import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { filesKeys } from '../../api/items';

// Under the files key (as the viewer's keys): any change to files refreshes them too.
export const similarKeys = {
  ofFile: (id: number) => [...filesKeys.all, 'similar', id] as const,
};

/** How long "similar images" looks again while the file's fingerprint is still being made. */
const SIMILAR_PENDING_POLL_MS = 5_000;
const SIMILAR_PENDING_PATIENCE_MS = 10 * 60 * 1000;

/** A file's near-duplicates and its neighbours by colour (issue 17), asked for when the section opens. */
export function useSimilarOfFile(fileId: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: similarKeys.ofFile(fileId),
    queryFn: () => call(endpoints.similarOfFile, { query: { folderDataId: fileId }, silent: true }),
    staleTime: 30_000,
    // A fresh upload's fingerprint comes from the media queue a moment later: look again until then.
    refetchInterval: (query) =>
      query.state.data?.fingerprint === 'pending' &&
      query.state.dataUpdateCount < SIMILAR_PENDING_PATIENCE_MS / SIMILAR_PENDING_POLL_MS
        ? SIMILAR_PENDING_POLL_MS
        : false,
  });
}
