import { isOperationCode, type LogEntry, type LogFilter, OPERATION_KEY_OF } from '@dam/contract';
import { describeEntry, type LogLanguage, operationLabel } from './describe';
import type { LogQuery, LogRow } from './repository';

/** How the log is read: a filter as a query, a stored row as the entry the screen and export show. */

export function toQuery(filter: LogFilter): LogQuery {
  return {
    startTime: filter.startTime ? new Date(filter.startTime) : undefined,
    endTime: filter.endTime ? new Date(filter.endTime) : undefined,
    operatorId: filter.operatorId,
    operatorName: filter.operatorName || undefined,
    codes: filter.operatorCodes,
    fileName: filter.fileName || undefined,
  };
}

/** The filter as the export's info sheet states it. */
export function describeFilter(filter: LogFilter): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return out;
}

export function presentEntry(row: LogRow, lang: LogLanguage, namesShown: number): LogEntry {
  const code = row.operator_code;
  return {
    id: row.id,
    time: row.created_at.toISOString(),
    operatorId: row.operator_id,
    operatorName: row.operator_name,
    operatorCode: code,
    operationKey: isOperationCode(code) ? OPERATION_KEY_OF[code] : null,
    operationName: operationLabel(code, lang),
    content: describeEntry(code, row.details, row.new_value, lang),
    details: row.details,
    // bigint[] arrives as text elements from node-postgres (its int8 parser covers scalars only).
    itemIds: row.item_ids.map(Number),
    fileNames: row.item_names.slice(0, namesShown),
    itemCount: row.item_count,
    newValue: row.new_value,
    ip: row.ip,
    userAgent: row.user_agent,
    reported: row.reported,
  };
}
