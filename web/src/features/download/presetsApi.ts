import type { EndpointBody, Endpoints } from '@dam/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';

export const presetsKeys = { all: ['download-presets'] as const };

/** Every signed-in user may read the presets: the download dialogs offer them. */
export function usePresets() {
  return useQuery({
    queryKey: presetsKeys.all,
    queryFn: () => call(endpoints.downloadPresets),
    staleTime: 60_000,
  });
}

export function useSavePreset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<Endpoints['saveDownloadPreset']>) =>
      call(endpoints.saveDownloadPreset, { body, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: presetsKeys.all }),
  });
}

export function useDeletePreset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(endpoints.deleteDownloadPreset, { body: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: presetsKeys.all }),
  });
}
