import { reportExportQuerySchema, reportRequestSchema, reportResultSchema } from '../reports';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Data reports (SPEC §2 /manage/data-table, §6 code 6). */
export const reportsEndpoints = {
  /** The figures of one period: totals, the trend by bucket and the table by dimension. */
  dataReport: defineEndpoint({
    ...routes.dataReport,
    body: reportRequestSchema,
    reply: 'json',
    result: reportResultSchema,
  }),
  /** The same report as an .xlsx workbook (Chinese for `lang: zh`, English otherwise). */
  exportDataReport: defineEndpoint({
    ...routes.exportDataReport,
    query: reportExportQuerySchema,
    reply: 'binary',
  }),
};
