import type { Readable } from 'node:stream';
import {
  callbackQuerySchema,
  cancelUploadRequestSchema,
  createdUploadSchema,
  createUploadBatchSchema,
  envelopeSchema,
  folderNodeSchema,
  folderSelectorRequestSchema,
  multipartStateSchema,
  OperationCode,
  pagedUploadRecordsSchema,
  pagingSchema,
  partDoneRequestSchema,
  signPartsRequestSchema,
  signPartsResultSchema,
  storageInfoSchema,
  storedPartSchema,
  uploadIdBodySchema,
} from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { ItemsService } from '../items/service';
import type { OperationRecorder } from '../logs/recorder';
import type { UploadsService } from './service';

const nothing = envelopeSchema(z.null());

/** Upload calls of SPEC §7 plus the multipart steps (signed-in callers). */
export const uploadsRoutes: FastifyPluginAsync<{
  uploads: UploadsService;
  items: ItemsService;
  oplog: OperationRecorder;
}> = async (app, { uploads, items, oplog }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const base = '/v1_0/file-upload';

  routes.get('/sts', { schema: { response: { 200: envelopeSchema(storageInfoSchema) } } }, async () =>
    ok(uploads.storageInfo()),
  );

  routes.post(
    `${base}/upload`,
    {
      schema: {
        body: createUploadBatchSchema,
        response: { 200: envelopeSchema(z.array(createdUploadSchema)) },
      },
    },
    async (request) => ok(await uploads.createBatch(authOf(request), request.body)),
  );

  routes.post(
    `${base}/multipart/start`,
    { schema: { body: uploadIdBodySchema, response: { 200: envelopeSchema(multipartStateSchema) } } },
    async (request) => ok(await uploads.startMultipart(authOf(request), request.body.id)),
  );

  routes.post(
    `${base}/multipart/sign`,
    { schema: { body: signPartsRequestSchema, response: { 200: envelopeSchema(signPartsResultSchema) } } },
    async (request) =>
      ok(await uploads.signParts(authOf(request), request.body.id, request.body.partNumbers)),
  );

  routes.post(
    `${base}/multipart/part-done`,
    { schema: { body: partDoneRequestSchema, response: { 200: nothing } } },
    async (request) => {
      await uploads.partDone(authOf(request), request.body);
      return ok(null);
    },
  );

  routes.get(
    `${base}/callback`,
    { schema: { querystring: callbackQuerySchema, response: { 200: nothing } } },
    async (request) => {
      const finished = await uploads.callback(authOf(request), request.query);
      if (finished) await oplog.record(request, OperationCode.upload, { uploads: [request.query.id] });
      return ok(null);
    },
  );

  routes.get(
    `${base}/reupload`,
    { schema: { querystring: callbackQuerySchema, response: { 200: nothing } } },
    async (request) => {
      await uploads.reupload(authOf(request), request.query.id);
      return ok(null);
    },
  );

  routes.get(
    `${base}/uploading`,
    { schema: { querystring: pagingSchema, response: { 200: envelopeSchema(pagedUploadRecordsSchema) } } },
    async (request) => ok(await uploads.list(authOf(request), 'unfinished', request.query)),
  );

  routes.post(
    `${base}/uploaded-list`,
    { schema: { querystring: pagingSchema, response: { 200: envelopeSchema(pagedUploadRecordsSchema) } } },
    async (request) => ok(await uploads.list(authOf(request), 'finished', request.query)),
  );

  routes.post(
    `${base}/cancel-upload`,
    { schema: { body: cancelUploadRequestSchema, response: { 200: nothing } } },
    async (request) => {
      await uploads.cancel(authOf(request), request.body.idList);
      return ok(null);
    },
  );

  routes.get(
    `${base}/selector`,
    {
      schema: {
        querystring: folderSelectorRequestSchema,
        response: { 200: envelopeSchema(z.array(folderNodeSchema)) },
      },
    },
    async (request) => ok(await items.folderSelector(authOf(request), request.query.currentFolderId)),
  );
};

/**
 * The local driver's part endpoint: a PUT of raw bytes authorised by the signed URL alone (like a
 * presigned S3 URL), streamed to disk without buffering the part in memory.
 */
export const localPartRoute: FastifyPluginAsync<{ uploads: UploadsService }> = async (app, { uploads }) => {
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tokenQuery = z.object({ token: z.string().min(10).max(2000) });
  routes.put(
    '/v1_0/file-upload/part',
    {
      // A part may take HTTP_UPLOAD_TIMEOUT_MS to arrive; a part refused before its body was read
      // closes the connection (http/connection-limits.ts).
      config: { longBody: true },
      schema: { querystring: tokenQuery, response: { 200: envelopeSchema(storedPartSchema) } },
    },
    async (request, reply) => {
      const part = await uploads.receiveLocalPart(request.query.token, request.body as Readable);
      reply.header('etag', part.etag);
      return ok(part);
    },
  );
};
