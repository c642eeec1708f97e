import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { SearchService } from './service';

/** Global search (SPEC §7 global/search). */
export const searchRoutes: FastifyPluginAsync<{ search: SearchService }> = async (app, { search }) => {
  route(app, endpoints.search, async (request) => search.search(authOf(request), request.body));
};
