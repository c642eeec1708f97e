import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, saveFile } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { type LogFilter, logExportQuery } from './logFilter';

export const LOG_PAGE_SIZE = 20;

export const logsKeys = {
  page: (filter: LogFilter, pageNo: number) => ['operation-log', filter, pageNo] as const,
};

export function useOperationLog(filter: LogFilter, pageNo: number) {
  return useQuery({
    queryKey: logsKeys.page(filter, pageNo),
    queryFn: () =>
      call(endpoints.operationLog, {
        body: { ...filter, pageNo, pageSize: LOG_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

export const saveLogExport = (filter: LogFilter) =>
  saveFile(endpoints.exportOperationLog, { query: logExportQuery(filter) });
