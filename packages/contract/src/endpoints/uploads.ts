import { z } from 'zod';
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
import { routes } from './routes';

/** The signed URL of a local-driver part (like a presigned S3 URL). */
export const partTokenQuerySchema = z.object({ token: z.string().min(10).max(2000) });

/** Upload calls of SPEC §7 plus the multipart steps. */
export const uploadsEndpoints = {
  storageInfo: defineEndpoint({
    ...routes.storageInfo,
    reply: 'json',
    result: storageInfoSchema,
  }),
  createUploads: defineEndpoint({
    ...routes.createUploads,
    body: createUploadBatchSchema,
    reply: 'json',
    result: z.array(createdUploadSchema),
  }),
  startMultipart: defineEndpoint({
    ...routes.startMultipart,
    body: uploadIdBodySchema,
    reply: 'json',
    result: multipartStateSchema,
  }),
  signParts: defineEndpoint({
    ...routes.signParts,
    body: signPartsRequestSchema,
    reply: 'json',
    result: signPartsResultSchema,
  }),
  partDone: defineEndpoint({
    ...routes.partDone,
    body: partDoneRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  finishUpload: defineEndpoint({
    ...routes.finishUpload,
    query: callbackQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  reupload: defineEndpoint({
    ...routes.reupload,
    query: callbackQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  unfinishedUploads: defineEndpoint({
    ...routes.unfinishedUploads,
    query: pagingSchema,
    reply: 'json',
    result: pagedUploadRecordsSchema,
  }),
  finishedUploads: defineEndpoint({
    ...routes.finishedUploads,
    query: pagingSchema,
    reply: 'json',
    result: pagedUploadRecordsSchema,
  }),
  cancelUploads: defineEndpoint({
    ...routes.cancelUploads,
    body: cancelUploadRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  uploadFolderSelector: defineEndpoint({
    ...routes.uploadFolderSelector,
    query: folderSelectorRequestSchema,
    reply: 'json',
    result: z.array(folderNodeSchema),
  }),
  /** The local driver's part: raw bytes in, authorised by the signed URL alone (no JSON body). */
  putLocalPart: defineEndpoint({
    ...routes.putLocalPart,
    query: partTokenQuerySchema,
    reply: 'json',
    result: storedPartSchema,
  }),
};
