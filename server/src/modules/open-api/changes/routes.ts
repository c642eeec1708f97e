import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../http/endpoint';
import { authOf } from '../../../http/request-context';
import type { OpenChangesService } from './service';

/**
 * GET /open/v1/assets/changes (issue 15): what changed, oldest first, by opaque cursor. Inside
 * the open API's scope (app.ts): the key check sets request.auth and logs OPEN01.
 */
export const openChangesRoutes: FastifyPluginAsync<{ openChanges: OpenChangesService }> = async (
  app,
  { openChanges },
) => {
  route(app, endpoints.openAssetChanges, async (request) => openChanges.page(authOf(request), request.query));
};
