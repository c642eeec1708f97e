import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { PresetsService } from './service';

/** Download presets (issue 5). */
export const presetsRoutes: FastifyPluginAsync<{ presets: PresetsService }> = async (app, { presets }) => {
  route(app, endpoints.downloadPresets, async () => presets.list());
  route(app, endpoints.saveDownloadPreset, async (request) => presets.save(authOf(request), request.body));
  route(app, endpoints.deleteDownloadPreset, async (request) => {
    await presets.delete(authOf(request), request.body.id);
    return null;
  });
};
