import { z } from 'zod';
import { MAIN_API_PREFIX } from '../constants';
import {
  deleteRecordQuerySchema,
  editFileRequestSchema,
  fileDetailQuerySchema,
  fileDetailSchema,
  hideFormatQuerySchema,
} from '../files';
import { defineEndpoint } from './define';

export const editFileResultSchema = z.object({ folderDataId: z.number().int() });

/** SPEC §7 file detail, edit, hide and delete-record. */
export const filesEndpoints = {
  fileDetail: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file/detail`,
    query: fileDetailQuerySchema,
    reply: 'json',
    result: fileDetailSchema,
  }),
  editFile: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/edit`,
    body: editFileRequestSchema,
    reply: 'json',
    result: editFileResultSchema,
  }),
  hideFormat: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file/hide`,
    query: hideFormatQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  deleteVersion: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file/delete-record`,
    query: deleteRecordQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
};
