import type { Readable } from 'node:stream';
import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { ItemsService } from '../items/service';
import type { OperationRecorder } from '../logs/recorder';
import type { UploadsService } from './service';

/** Upload calls of SPEC §7 plus the multipart steps (signed-in callers). */
export const uploadsRoutes: FastifyPluginAsync<{
  uploads: UploadsService;
  items: ItemsService;
  oplog: OperationRecorder;
}> = async (app, { uploads, items, oplog }) => {
  route(app, endpoints.storageInfo, async () => uploads.storageInfo());
  route(app, endpoints.createUploads, async (request) => uploads.createBatch(authOf(request), request.body));
  route(app, endpoints.startMultipart, async (request) =>
    uploads.startMultipart(authOf(request), request.body.id),
  );
  route(app, endpoints.signParts, async (request) =>
    uploads.signParts(authOf(request), request.body.id, request.body.partNumbers),
  );
  route(app, endpoints.partDone, async (request) => {
    await uploads.partDone(authOf(request), request.body);
    return null;
  });
  route(app, endpoints.finishUpload, async (request) => {
    const finished = await uploads.callback(authOf(request), request.query);
    if (finished) await oplog.record(request, OperationCode.upload, { uploads: [request.query.id] });
    return null;
  });
  route(app, endpoints.similarAttach, async (request) => {
    const { attached, source } = await uploads.attachAsVersion(
      authOf(request),
      request.body.uploadId,
      request.body.itemId,
      request.body.keepCurrent === true,
    );
    // The upload now resolves to the target, so the target is named; the file it left is told.
    await oplog.record(request, OperationCode.attachVersion, {
      items: [attached.itemId],
      details: {
        uploadId: request.body.uploadId,
        ...(source ? { fromItemId: source.id, fromItemDeleted: source.deleted } : {}),
      },
    });
    return attached;
  });
  route(app, endpoints.reupload, async (request) => {
    await uploads.reupload(authOf(request), request.query.id);
    return null;
  });
  route(app, endpoints.unfinishedUploads, async (request) =>
    uploads.list(authOf(request), 'unfinished', request.query),
  );
  route(app, endpoints.finishedUploads, async (request) =>
    uploads.list(authOf(request), 'finished', request.query),
  );
  route(app, endpoints.cancelUploads, async (request) => {
    await uploads.cancel(authOf(request), request.body.idList);
    return null;
  });
  route(app, endpoints.uploadFolderSelector, async (request) =>
    items.folderSelector(authOf(request), request.query.currentFolderId),
  );
};

/**
 * The local driver's part endpoint: a PUT of raw bytes authorised by the signed URL alone (like a
 * presigned S3 URL), streamed to disk without buffering the part in memory.
 */
export const localPartRoute: FastifyPluginAsync<{ uploads: UploadsService }> = async (app, { uploads }) => {
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  route(
    app,
    endpoints.putLocalPart,
    // A part may take HTTP_UPLOAD_TIMEOUT_MS to arrive; a part refused before its body was read
    // closes the connection (http/connection-limits.ts).
    { config: { longBody: true } },
    async (request, reply) => {
      const part = await uploads.receiveLocalPart(request.query.token, request.body as Readable);
      reply.header('etag', part.etag);
      return part;
    },
  );
};
