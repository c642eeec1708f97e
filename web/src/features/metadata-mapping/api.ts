import type { EndpointBody, Endpoints } from '@dam/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { filesKeys } from '../../api/items';

export const mappingKeys = {
  rules: ['metadata-mapping', 'rules'] as const,
  findings: (pageNo: number, pageSize: number) => ['metadata-mapping', 'findings', pageNo, pageSize] as const,
  // Under the files key: a file's tags changed or its metadata read again refreshes it.
  ofFile: (id: number) => [...filesKeys.all, 'metadata-mapping', id] as const,
};

/** The keyword → tag rules (tag managers, code 4). */
export function useMappingRules() {
  return useQuery({ queryKey: mappingKeys.rules, queryFn: () => call(endpoints.metadataTagRules) });
}

export function useSaveMappingRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<Endpoints['saveMetadataTagRule']>) =>
      call(endpoints.saveMetadataTagRule, { body, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: mappingKeys.rules }),
  });
}

export function useDeleteMappingRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(endpoints.deleteMetadataTagRule, { body: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: mappingKeys.rules }),
  });
}

/** The dimensions a rule may target, read afresh each time the dialog opens (one may just have been made). */
export function useDimensionChoices() {
  return useQuery({
    queryKey: ['metadata-mapping', 'dimensions'] as const,
    queryFn: () => call(endpoints.tagDimensions),
    staleTime: 0,
  });
}

/** Recent conflicts and unmatched values, newest first. */
export function useMappingFindings(pageNo: number, pageSize: number) {
  return useQuery({
    queryKey: mappingKeys.findings(pageNo, pageSize),
    queryFn: () => call(endpoints.mappingFindings, { query: { pageNo, pageSize } }),
    placeholderData: (previous) => previous,
  });
}

/** What the rules could not apply to one file (the viewer's metadata section). */
export function useFileMappingFindings(fileId: number) {
  return useQuery({
    queryKey: mappingKeys.ofFile(fileId),
    queryFn: () => call(endpoints.fileMappingFindings, { query: { folderDataId: fileId }, silent: true }),
    staleTime: 30_000,
  });
}
