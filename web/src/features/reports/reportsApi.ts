import type { ReportRequest } from '@dam/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, saveFile } from '../../api/client';
import { endpoints } from '../../api/endpoints';

export const reportKeys = {
  report: (request: ReportRequest) => ['data-report', request] as const,
};

/** The report of a request; nothing is asked while the period is not valid (`enabled` false). */
export function useDataReport(request: ReportRequest, enabled: boolean) {
  return useQuery({
    queryKey: reportKeys.report(request),
    queryFn: () => call(endpoints.dataReport, { body: request }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const saveReportExport = (request: ReportRequest) =>
  saveFile(endpoints.exportDataReport, { query: request });
