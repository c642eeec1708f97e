import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';

export const clientsKeys = { downloads: ['client-downloads'] as const };

/** Where the desktop client is downloaded (configured on the server; a link may be absent). */
export function useClientDownloads({ enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: clientsKeys.downloads,
    enabled,
    queryFn: () => call(endpoints.clientDownloads, { silent: true }),
    // Configuration: it changes with a restart of the server, not while the page is open.
    staleTime: Number.POSITIVE_INFINITY,
  });
}
