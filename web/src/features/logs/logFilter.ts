import type { LogListRequest, OperationCode } from '@dam/contract';
import type { Dayjs } from 'dayjs';

export interface LogFilterForm {
  range: [Dayjs | null, Dayjs | null] | null;
  operatorName: string;
  fileName: string;
  operatorCodes: OperationCode[];
}

/** What the log is filtered by: the list request without its paging. */
export type LogFilter = Omit<LogListRequest, 'pageNo' | 'pageSize'>;

export const EMPTY_FILTER: LogFilterForm = { range: null, operatorName: '', fileName: '', operatorCodes: [] };

/** The request filter of a form: empty fields are left out; the range covers whole days. */
export function toLogFilter(form: LogFilterForm): LogFilter {
  const [from, to] = form.range ?? [null, null];
  return {
    ...(from ? { startTime: from.startOf('day').toISOString() } : {}),
    ...(to ? { endTime: to.endOf('day').toISOString() } : {}),
    ...(form.operatorName.trim() ? { operatorName: form.operatorName.trim() } : {}),
    ...(form.fileName.trim() ? { fileName: form.fileName.trim() } : {}),
    ...(form.operatorCodes.length > 0 ? { operatorCodes: form.operatorCodes } : {}),
  };
}

/** The export's query of a filter: the same fields, codes comma-joined (as the export reads them). */
export function logExportQuery(filter: LogFilter): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    query[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return query;
}
