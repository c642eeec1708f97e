import { z } from 'zod';
import { MAIN_API_PREFIX } from '../constants';
import {
  addLogRequestSchema,
  logExportQuerySchema,
  logListRequestSchema,
  logListResultSchema,
} from '../logs';
import { searchRequestSchema, searchResultSchema } from '../search';
import { defineEndpoint } from './define';

export const healthSchema = z.object({ status: z.literal('ok'), version: z.string(), database: z.string() });

/** Global search (SPEC §7). */
export const searchEndpoints = {
  search: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/global/search`,
    body: searchRequestSchema,
    reply: 'json',
    result: searchResultSchema,
  }),
};

/** The operation log (SPEC §2 /manage/log, §7 operator-log/add-log). */
export const logsEndpoints = {
  reportOperation: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/operator-log/add-log`,
    body: addLogRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  operationLog: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/operator-log/list`,
    body: logListRequestSchema,
    reply: 'json',
    result: logListResultSchema,
  }),
  /** The filtered log as an Excel workbook. */
  exportOperationLog: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/operator-log/export`,
    query: logExportQuerySchema,
    reply: 'binary',
  }),
};

/** For load balancers and the about page: answers only when the database does. */
export const healthEndpoints = {
  health: defineEndpoint({ method: 'GET', path: '/health', reply: 'json', result: healthSchema }),
};
