import {
  deletePresetRequestSchema,
  downloadPresetSchema,
  envelopeSchema,
  savePresetRequestSchema,
} from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { PresetsService } from './service';

/** Download presets under the main API prefix (issue 5). */
export const presetsRoutes: FastifyPluginAsync<{ presets: PresetsService }> = async (app, { presets }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/v1_0/download-preset/list',
    { schema: { response: { 200: envelopeSchema(z.array(downloadPresetSchema)) } } },
    async () => ok(await presets.list()),
  );
  routes.post(
    '/v1_0/download-preset/save',
    {
      schema: { body: savePresetRequestSchema, response: { 200: envelopeSchema(downloadPresetSchema) } },
    },
    async (request) => ok(await presets.save(authOf(request), request.body)),
  );
  routes.post(
    '/v1_0/download-preset/delete',
    { schema: { body: deletePresetRequestSchema, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await presets.delete(authOf(request), request.body.id);
      return ok(null);
    },
  );
};
