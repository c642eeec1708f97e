import { z } from 'zod';
import { MAIN_API_PREFIX } from '../constants';
import { folderNodeSchema, folderSelectorRequestSchema, pagingSchema } from '../items';
import {
  callbackQuerySchema,
  cancelUploadRequestSchema,
  createdUploadSchema,
  createUploadBatchSchema,
  multipartStateSchema,
  pagedUploadRecordsSchema,
  partDoneRequestSchema,
  signPartsRequestSchema,
  signPartsResultSchema,
  storageInfoSchema,
  storedPartSchema,
  uploadIdBodySchema,
} from '../uploads';
import { defineEndpoint } from './define';

/** The signed URL of a local-driver part (like a presigned S3 URL). */
export const partTokenQuerySchema = z.object({ token: z.string().min(10).max(2000) });

const base = `${MAIN_API_PREFIX}/v1_0/file-upload` as const;

/** Upload calls of SPEC §7 plus the multipart steps. */
export const uploadsEndpoints = {
  storageInfo: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/sts`,
    reply: 'json',
    result: storageInfoSchema,
  }),
  createUploads: defineEndpoint({
    method: 'POST',
    path: `${base}/upload`,
    body: createUploadBatchSchema,
    reply: 'json',
    result: z.array(createdUploadSchema),
  }),
  startMultipart: defineEndpoint({
    method: 'POST',
    path: `${base}/multipart/start`,
    body: uploadIdBodySchema,
    reply: 'json',
    result: multipartStateSchema,
  }),
  signParts: defineEndpoint({
    method: 'POST',
    path: `${base}/multipart/sign`,
    body: signPartsRequestSchema,
    reply: 'json',
    result: signPartsResultSchema,
  }),
  partDone: defineEndpoint({
    method: 'POST',
    path: `${base}/multipart/part-done`,
    body: partDoneRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  finishUpload: defineEndpoint({
    method: 'GET',
    path: `${base}/callback`,
    query: callbackQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  reupload: defineEndpoint({
    method: 'GET',
    path: `${base}/reupload`,
    query: callbackQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  unfinishedUploads: defineEndpoint({
    method: 'GET',
    path: `${base}/uploading`,
    query: pagingSchema,
    reply: 'json',
    result: pagedUploadRecordsSchema,
  }),
  finishedUploads: defineEndpoint({
    method: 'POST',
    path: `${base}/uploaded-list`,
    query: pagingSchema,
    reply: 'json',
    result: pagedUploadRecordsSchema,
  }),
  cancelUploads: defineEndpoint({
    method: 'POST',
    path: `${base}/cancel-upload`,
    body: cancelUploadRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  uploadFolderSelector: defineEndpoint({
    method: 'GET',
    path: `${base}/selector`,
    query: folderSelectorRequestSchema,
    reply: 'json',
    result: z.array(folderNodeSchema),
  }),
  /** The local driver's part: raw bytes in, authorised by the signed URL alone (no JSON body). */
  putLocalPart: defineEndpoint({
    method: 'PUT',
    path: `${base}/part`,
    query: partTokenQuerySchema,
    reply: 'json',
    result: storedPartSchema,
  }),
};
