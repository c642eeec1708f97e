import type { EndpointBody, Endpoints } from '@dam/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { filesKeys } from '../../api/items';

// Under the files key: any change to files refreshes an open viewer too.
export const viewerKeys = {
  detail: (id: number) => [...filesKeys.all, 'detail', id] as const,
  channelTags: (id: number) => [...filesKeys.all, 'channel-tags', id] as const,
};

/**
 * A key naming one opening of a file in the viewer (issue 39 item 3): the server counts the view
 * (and its FILE13 log entry) once per key, so refetches of the same opening count nothing.
 */
export function newOpening(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Pages served over plain HTTP on a LAN address have no randomUUID.
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The file's detail for the viewer's opening `opening` (sent with every fetch of that opening). */
export function useFileDetail(id: number, opening: string) {
  return useQuery({
    queryKey: viewerKeys.detail(id),
    queryFn: () => call(endpoints.fileDetail, { query: { id, opening } }),
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
