import {
  duplicateReportQuerySchema,
  duplicateReportRequestSchema,
  duplicateReportSchema,
  similarAfterRequestSchema,
  similarAfterResultSchema,
  similarAttachRequestSchema,
  similarAttachResultSchema,
  similarCheckRequestSchema,
  similarCheckResultSchema,
  similarOfFileQuerySchema,
  similarOfFileResultSchema,
  similarOfSelectionRequestSchema,
  similarOfSelectionResultSchema,
} from '../similar';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Near-duplicates and similar images (issue 17; paths of our own, SPEC names none). */
export const similarEndpoints = {
  /** The upload dialog's check of fingerprints made in the browser; matches only among what the caller sees. */
  similarCheck: defineEndpoint({
    ...routes.similarCheck,
    body: similarCheckRequestSchema,
    reply: 'json',
    result: similarCheckResultSchema,
  }),
  /** The upload panel's check of the caller's finished uploads with the server's own fingerprints. */
  similarAfterUpload: defineEndpoint({
    ...routes.similarAfterUpload,
    body: similarAfterRequestSchema,
    reply: 'json',
    result: similarAfterResultSchema,
  }),
  /** The upload panel's "add as new version": a finished upload joins the file it resembles. */
  similarAttach: defineEndpoint({
    ...routes.similarAttach,
    body: similarAttachRequestSchema,
    reply: 'json',
    result: similarAttachResultSchema,
  }),
  /** The viewer's "similar images". */
  similarOfFile: defineEndpoint({
    ...routes.similarOfFile,
    query: similarOfFileQuerySchema,
    reply: 'json',
    result: similarOfFileResultSchema,
  }),
  /** The selection menu's "similar images": near-duplicates of each selected file. */
  similarOfSelection: defineEndpoint({
    ...routes.similarOfSelection,
    body: similarOfSelectionRequestSchema,
    reply: 'json',
    result: similarOfSelectionResultSchema,
  }),
  /** Clusters of near-duplicates within the caller's reach (function code 6), largest savings first. */
  duplicateReport: defineEndpoint({
    ...routes.duplicateReport,
    query: duplicateReportQuerySchema,
    body: duplicateReportRequestSchema,
    reply: 'json',
    result: duplicateReportSchema,
  }),
  /** The same clusters as an .xlsx workbook. */
  exportDuplicateReport: defineEndpoint({
    ...routes.exportDuplicateReport,
    body: duplicateReportRequestSchema,
    reply: 'binary',
  }),
};
