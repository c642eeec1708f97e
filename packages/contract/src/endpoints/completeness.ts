import { z } from 'zod';
import {
  completenessConfigInputSchema,
  completenessConfigSchema,
  completenessFilterOptionsSchema,
  completenessFilterSchema,
  completenessReportRequestSchema,
  completenessReportSchema,
} from '../completeness';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** The SKU completeness report (issue 14, function code 6): expectation, report, export. */
export const completenessEndpoints = {
  completenessConfig: defineEndpoint({
    ...routes.completenessConfig,
    reply: 'json',
    result: completenessConfigSchema,
  }),
  /** Replaces the whole expectation in one transaction. */
  saveCompletenessConfig: defineEndpoint({
    ...routes.saveCompletenessConfig,
    body: completenessConfigInputSchema,
    reply: 'json',
    result: z.null(),
  }),
  completenessFilterOptions: defineEndpoint({
    ...routes.completenessFilterOptions,
    reply: 'json',
    result: completenessFilterOptionsSchema,
  }),
  completenessReport: defineEndpoint({
    ...routes.completenessReport,
    body: completenessReportRequestSchema,
    reply: 'json',
    result: completenessReportSchema,
  }),
  /** The filtered list as an .xlsx workbook (at most COMPLETENESS_EXPORT_MAX_ROWS rows). */
  exportCompleteness: defineEndpoint({
    ...routes.exportCompleteness,
    body: completenessFilterSchema,
    reply: 'binary',
  }),
};
