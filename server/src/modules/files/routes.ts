import {
  deleteRecordQuerySchema,
  editFileRequestSchema,
  envelopeSchema,
  fileDetailQuerySchema,
  fileDetailSchema,
  hideFormatQuerySchema,
} from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { FilesService } from './service';

const nothing = envelopeSchema(z.null());

/** SPEC §7 file detail, edit, hide and delete-record. */
export const filesRoutes: FastifyPluginAsync<{ files: FilesService }> = async (app, { files }) => {
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
    async (request) => ok(await files.edit(authOf(request), request.body)),
  );

  routes.get(
    '/v1_0/file/hide',
    { schema: { querystring: hideFormatQuerySchema, response: { 200: nothing } } },
    async (request) => {
      await files.hideFormat(authOf(request), request.query.folderDataId, request.query.format);
      return ok(null);
    },
  );

  routes.get(
    '/v1_0/file/delete-record',
    { schema: { querystring: deleteRecordQuerySchema, response: { 200: nothing } } },
    async (request) => {
      await files.deleteRecord(authOf(request), request.query.id, request.query.folderDataId);
      return ok(null);
    },
  );
};
