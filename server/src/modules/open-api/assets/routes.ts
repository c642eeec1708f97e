import { endpoints, type OpenLink, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../../http/app-error';
import { route } from '../../../http/endpoint';
import { authOf } from '../../../http/request-context';
import type { OperationRecorder } from '../../logs/recorder';
import type { OpenAssetsService } from './service';

/**
 * The open API's asset calls (issue 15): by article numbers, by tag, by folder, one asset, its
 * preview links. Registered inside the open API's scope (app.ts), whose key check sets
 * request.auth to the access record's user and logs OPEN01 for each answered call; the preview
 * call logs OPEN02 (links issued) with its asset instead.
 */
export const openAssetsRoutes: FastifyPluginAsync<{
  openAssets: OpenAssetsService;
  oplog: OperationRecorder;
  /** PUBLIC_URL: the address links point to; without it, the address the call came to. */
  publicUrl: string | null;
}> = async (app, { openAssets, oplog, publicUrl }) => {
  route(app, endpoints.openAssetsByArtNums, async (request) =>
    openAssets.byArtNums(authOf(request), request.body),
  );

  route(app, endpoints.openAssetsByTag, async (request) => openAssets.byTag(authOf(request), request.query));

  route(app, endpoints.openAssetsByFolder, async (request) =>
    openAssets.byFolder(authOf(request), request.query),
  );

  route(app, endpoints.openAsset, async (request) => openAssets.get(authOf(request), request.params.id));

  route(app, endpoints.openAssetPreview, async (request) => {
    const access = request.openAccess;
    if (!access) throw new AppError('SE_501');
    const links = await openAssets.previewLinks(authOf(request), access.accessId, request.params.id);
    await oplog.record(request, OperationCode.openLink, {
      items: [links.itemId],
      details: { call: 'assets.previewUrl' },
    });
    const base = publicUrl ?? `${request.protocol}://${request.host}`;
    return { preview: absolute(links.preview, base), thumbnail: absolute(links.thumbnail, base) };
  });
};

/** A link another system can follow: local media links are paths on this server. */
function absolute(link: OpenLink | null, base: string): OpenLink | null {
  return link ? { ...link, url: new URL(link.url, base).toString() } : null;
}
