import type { ImportDetail, ImportKind } from '@dam/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, saveFile } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { filesKeys } from '../../api/items';
import { skuKeys } from '../sku';
import { isBusy } from './progress';

/** How often a running import is asked for its progress. */
export const IMPORT_POLL_MS = 1000;

export const importKeys = {
  all: ['imports'] as const,
  list: (pageNo: number, pageSize: number) => ['imports', 'list', pageNo, pageSize] as const,
  detail: (id: number) => ['imports', 'detail', id] as const,
};

/** One import; polled while its job is at work, and the history and SKU data refreshed when it ends. */
export function useImportDetail(id: number | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: importKeys.detail(id ?? 0),
    enabled: id !== null,
    queryFn: async () => {
      const before = client.getQueryData<ImportDetail>(importKeys.detail(id ?? 0));
      const detail = await call(endpoints.importDetail, { query: { id: id ?? 0 } });
      if (isBusy(before) && !isBusy(detail)) {
        void client.invalidateQueries({ queryKey: [...importKeys.all, 'list'] });
        if (detail.status === 'applied') {
          void client.invalidateQueries({ queryKey: skuKeys.all });
          // The SKU data shows tags by name: names of tags made since the list was read are needed.
          if (detail.kind === 'tagAssignments')
            void client.invalidateQueries({ queryKey: filesKeys.tagSelector });
        }
      }
      return detail;
    },
    refetchInterval: (query) => (isBusy(query.state.data) ? IMPORT_POLL_MS : false),
  });
}

export function useImportHistory(pageNo: number, pageSize: number) {
  return useQuery({
    queryKey: importKeys.list(pageNo, pageSize),
    queryFn: () => call(endpoints.importList, { query: { pageNo, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/** Uploads a workbook: the server reads it and starts the dry run. */
export function useCreateImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImportKind; file: File }) => {
      const form = new FormData();
      form.append('file', file);
      return call(endpoints.createImport, { query: { kind }, body: form, silent: true });
    },
    onSuccess: (detail) => {
      client.setQueryData(importKeys.detail(detail.id), detail);
      void client.invalidateQueries({ queryKey: [...importKeys.all, 'list'] });
    },
  });
}

/** Apply or discard: the answer replaces the import shown. */
export function useImportAction(action: 'apply' | 'discard') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      action === 'apply'
        ? call(endpoints.applyImport, { body: { id } })
        : call(endpoints.discardImport, { body: { id } }),
    onSuccess: (detail) => {
      client.setQueryData(importKeys.detail(detail.id), detail);
      void client.invalidateQueries({ queryKey: [...importKeys.all, 'list'] });
    },
  });
}

export const saveImportTemplate = (kind: ImportKind) =>
  saveFile(endpoints.importTemplate, { query: { kind } });
export const saveErrorReport = (id: number) => saveFile(endpoints.importErrorReport, { query: { id } });
