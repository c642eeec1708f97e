import { z } from 'zod';
import {
  deleteRecordQuerySchema,
  editFileRequestSchema,
  fileDetailQuerySchema,
  fileDetailSchema,
  hideFormatQuerySchema,
} from '../files';
import { defineEndpoint } from './define';
import { routes } from './routes';

export const editFileResultSchema = z.object({ folderDataId: z.number().int() });

/** SPEC §7 file detail, edit, hide and delete-record. */
export const filesEndpoints = {
  fileDetail: defineEndpoint({
    ...routes.fileDetail,
    query: fileDetailQuerySchema,
    reply: 'json',
    result: fileDetailSchema,
  }),
  editFile: defineEndpoint({
    ...routes.editFile,
    body: editFileRequestSchema,
    reply: 'json',
    result: editFileResultSchema,
  }),
  hideFormat: defineEndpoint({
    ...routes.hideFormat,
    query: hideFormatQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  deleteVersion: defineEndpoint({
    ...routes.deleteVersion,
    query: deleteRecordQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
};
