import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { FilesService } from './service';

/** SPEC §7 file detail, edit, hide and delete-record. */
export const filesRoutes: FastifyPluginAsync<{ files: FilesService; oplog: OperationRecorder }> = async (
  app,
  { files, oplog },
) => {
  // The view is counted, and its FILE13 entry written, in the detail's own transaction (issue 39 item 3).
  route(app, endpoints.fileDetail, async (request) =>
    files.detail(authOf(request), request.query.id, {
      opening: request.query.opening ?? null,
      actor: oplog.actorOf(request),
    }),
  );

  route(app, endpoints.editFile, async (request) => {
    const subject = { items: [request.body.folderDataId] };
    return oplog.around(request, OperationCode.edit, subject, () =>
      files.edit(authOf(request), request.body),
    );
  });

  route(app, endpoints.hideFormat, async (request) => {
    await files.hideFormat(authOf(request), request.query.folderDataId, request.query.format);
    await oplog.record(request, OperationCode.hideFormat, {
      items: [request.query.folderDataId],
      newValue: request.query.format,
    });
    return null;
  });

  route(app, endpoints.deleteVersion, async (request) => {
    const subject = { uploads: [request.query.id] };
    await oplog.around(request, OperationCode.deleteVersion, subject, () =>
      files.deleteRecord(authOf(request), request.query.id, request.query.folderDataId),
    );
    return null;
  });
};
