import {
  deleteRecordQuerySchema,
  editFileRequestSchema,
  envelopeSchema,
  fileDetailQuerySchema,
  fileDetailSchema,
  hideFormatQuerySchema,
  OperationCode,
} from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { FilesService } from './service';

const nothing = envelopeSchema(z.null());

/** SPEC §7 file detail, edit, hide and delete-record. */
export const filesRoutes: FastifyPluginAsync<{ files: FilesService; oplog: OperationRecorder }> = async (
  app,
  { files, oplog },
) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/v1_0/file/detail',
    { schema: { querystring: fileDetailQuerySchema, response: { 200: envelopeSchema(fileDetailSchema) } } },
    async (request) => ok(await files.detail(authOf(request), request.query.id)),
  );

  routes.post(
    '/v1_0/file/edit',
    {
      schema: {
        body: editFileRequestSchema,
        response: { 200: envelopeSchema(z.object({ folderDataId: z.number().int() })) },
      },
    },
    async (request) => {
      const subject = { items: [request.body.folderDataId] };
      return ok(
        await oplog.around(request, OperationCode.edit, subject, () =>
          files.edit(authOf(request), request.body),
        ),
      );
    },
  );

  routes.get(
    '/v1_0/file/hide',
    { schema: { querystring: hideFormatQuerySchema, response: { 200: nothing } } },
    async (request) => {
      await files.hideFormat(authOf(request), request.query.folderDataId, request.query.format);
      await oplog.record(request, OperationCode.hideFormat, {
        items: [request.query.folderDataId],
        newValue: request.query.format,
      });
      return ok(null);
    },
  );

  routes.get(
    '/v1_0/file/delete-record',
    { schema: { querystring: deleteRecordQuerySchema, response: { 200: nothing } } },
    async (request) => {
      const subject = { uploads: [request.query.id] };
      await oplog.around(request, OperationCode.deleteVersion, subject, () =>
        files.deleteRecord(authOf(request), request.query.id, request.query.folderDataId),
      );
      return ok(null);
    },
  );
};
