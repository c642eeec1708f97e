import {
  createImportQuerySchema,
  importDetailSchema,
  importIdQuerySchema,
  importIdSchema,
  importListQuerySchema,
  importPageSchema,
  importTemplateQuerySchema,
} from '../imports';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Import management (SPEC §2 /manage/import, §6 code 8; issue 14). */
export const importsEndpoints = {
  /** A multipart/form-data upload of one workbook in the field `file`; starts the dry run. */
  createImport: defineEndpoint({
    ...routes.createImport,
    query: createImportQuerySchema,
    reply: 'json',
    result: importDetailSchema,
  }),
  importDetail: defineEndpoint({
    ...routes.importDetail,
    query: importIdQuerySchema,
    reply: 'json',
    result: importDetailSchema,
  }),
  /** Applies a checked import (all rows, one transaction); a repeated call answers the same import. */
  applyImport: defineEndpoint({
    ...routes.applyImport,
    body: importIdSchema,
    reply: 'json',
    result: importDetailSchema,
  }),
  discardImport: defineEndpoint({
    ...routes.discardImport,
    body: importIdSchema,
    reply: 'json',
    result: importDetailSchema,
  }),
  importList: defineEndpoint({
    ...routes.importList,
    query: importListQuerySchema,
    reply: 'json',
    result: importPageSchema,
  }),
  /** The problems of an import as an .xlsx: row, column, problem, and the row's cells. */
  importErrorReport: defineEndpoint({
    ...routes.importErrorReport,
    query: importIdQuerySchema,
    reply: 'binary',
  }),
  importTemplate: defineEndpoint({
    ...routes.importTemplate,
    query: importTemplateQuerySchema,
    reply: 'binary',
  }),
};
