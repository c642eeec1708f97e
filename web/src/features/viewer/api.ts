import type { EndpointBody, Endpoints } from '@dam/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { filesKeys } from '../files/api';

// Under the files key: any change to files refreshes an open viewer too.
export const viewerKeys = {
  detail: (id: number) => [...filesKeys.all, 'detail', id] as const,
  channelTags: (id: number) => [...filesKeys.all, 'channel-tags', id] as const,
};

export function useFileDetail(id: number) {
  return useQuery({
    queryKey: viewerKeys.detail(id),
    queryFn: () => call(endpoints.fileDetail, { query: { id } }),
  });
}

export const viewerApi = {
  /** Saves the info panel; a refusal is shown by the caller (a merge is asked about first). */
  edit: (body: EndpointBody<Endpoints['editFile']>) => call(endpoints.editFile, { body, silent: true }),
  hideFormat: (folderDataId: number, format: string) =>
    call(endpoints.hideFormat, { query: { folderDataId, format } }),
  deleteVersion: (folderDataId: number, id: number) =>
    call(endpoints.deleteVersion, { query: { id, folderDataId } }),
};

export function useChannelTags(fileId: number) {
  return useQuery({
    queryKey: viewerKeys.channelTags(fileId),
    queryFn: () => call(endpoints.channelTags, { query: { folderDataId: fileId } }),
  });
}

export function useAddChannelTag(fileId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (channelName: string) =>
      call(endpoints.addChannelTag, { body: { folderDataId: fileId, channelName }, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: viewerKeys.channelTags(fileId) }),
  });
}

export function useDeleteChannelTag(fileId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(endpoints.deleteChannelTag, { query: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: viewerKeys.channelTags(fileId) }),
  });
}
