import { envelopeSchema, searchRequestSchema, searchResultSchema } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { SearchService } from './service';

/** POST /v1_0/global/search under the main API prefix. */
export const searchRoutes: FastifyPluginAsync<{ search: SearchService }> = async (app, { search }) => {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/v1_0/global/search',
      { schema: { body: searchRequestSchema, response: { 200: envelopeSchema(searchResultSchema) } } },
      async (request) => ok(await search.search(authOf(request), request.body)),
    );
};
