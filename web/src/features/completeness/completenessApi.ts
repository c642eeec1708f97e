import type { CompletenessFilter, EndpointBody, Endpoints } from '@dam/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, saveFile } from '../../api/client';
import { endpoints } from '../../api/endpoints';

/** Everything under `all` is refetched after the expectation changes or an upload finishes. */
export const completenessKeys = {
  all: ['completeness'] as const,
  config: ['completeness', 'config'] as const,
  options: ['completeness', 'options'] as const,
  report: (filter: CompletenessFilter, pageNo: number, pageSize: number) =>
    ['completeness', 'report', filter, pageNo, pageSize] as const,
};

export function useCompletenessConfig() {
  return useQuery({ queryKey: completenessKeys.config, queryFn: () => call(endpoints.completenessConfig) });
}

export function useCompletenessOptions() {
  return useQuery({
    queryKey: completenessKeys.options,
    queryFn: () => call(endpoints.completenessFilterOptions),
    staleTime: 60_000,
  });
}

export function useCompletenessReport(
  filter: CompletenessFilter,
  pageNo: number,
  pageSize: number,
  enabled = true,
) {
  return useQuery({
    enabled,
    queryKey: completenessKeys.report(filter, pageNo, pageSize),
    queryFn: () => call(endpoints.completenessReport, { body: { ...filter, pageNo, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/** Saves the whole expectation; the form shows the server's reason when it is refused. */
export function useSaveCompletenessConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<Endpoints['saveCompletenessConfig']>) =>
      call(endpoints.saveCompletenessConfig, { body, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: completenessKeys.all }),
  });
}

export const saveCompletenessExport = (filter: CompletenessFilter) =>
  saveFile(endpoints.exportCompleteness, { body: filter });
