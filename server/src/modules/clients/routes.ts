import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../http/endpoint';

/** The desktop client's download links from the configuration (SPEC §2 top-bar menu). */
export const clientRoutes: FastifyPluginAsync<{
  config: Pick<Config, 'CLIENT_DOWNLOAD_MAC_URL' | 'CLIENT_DOWNLOAD_WIN_URL'>;
}> = async (app, { config }) => {
  route(app, endpoints.clientDownloads, async () => ({
    mac: config.CLIENT_DOWNLOAD_MAC_URL ?? null,
    windows: config.CLIENT_DOWNLOAD_WIN_URL ?? null,
  }));
};
