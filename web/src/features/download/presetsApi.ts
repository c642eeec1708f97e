import type { DownloadPreset, SavePresetRequest } from '@dam/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

const base = '/ske-api/v1_0/download-preset';
export const presetsKey = ['download-presets'] as const;

/** Every signed-in user may read the presets: the download dialogs offer them. */
export function usePresets() {
  return useQuery({
    queryKey: presetsKey,
    queryFn: () => api.get<DownloadPreset[]>(`${base}/list`),
    staleTime: 60_000,
  });
}

export function useSavePreset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SavePresetRequest) => api.post<DownloadPreset>(`${base}/save`, body, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: presetsKey }),
  });
}

export function useDeletePreset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<null>(`${base}/delete`, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: presetsKey }),
  });
}
