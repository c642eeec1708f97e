import type { DuplicateReportRequest } from '@dam/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, saveFile } from '../../api/client';
import { endpoints } from '../../api/endpoints';

export const duplicateKeys = {
  all: ['duplicate-report'] as const,
  report: (request: DuplicateReportRequest, pageNo: number, pageSize: number) =>
    ['duplicate-report', request, pageNo, pageSize] as const,
};

/**
 * One page of the near-duplicate clusters (issue 17, code 6). Silent: the page shows the server's
 * refusal (a scope too broad asks to narrow it) where the clusters would be, not as a passing toast.
 */
export function useDuplicateReport(request: DuplicateReportRequest, pageNo: number, pageSize: number) {
  return useQuery({
    queryKey: duplicateKeys.report(request, pageNo, pageSize),
    queryFn: () =>
      call(endpoints.duplicateReport, { body: request, query: { pageNo, pageSize }, silent: true }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Every cluster of the request as an .xlsx workbook (oplog DUP01); saveFile shows a refusal. */
export const saveDuplicateExport = (request: DuplicateReportRequest) =>
  saveFile(endpoints.exportDuplicateReport, { body: request });
