import {
  endpoints,
  newShareRequestSchema,
  OperationCode,
  SHARE_TOKEN_HEADER,
  shareDownloadRequestSchema,
} from '@dam/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import { sendDownload } from '../downloads/send';
import type { DownloadsService } from '../downloads/service';
import { downloadSubject, type OperationRecorder } from '../logs/recorder';
import type { SharesService } from './service';
import type { ShareVisitorService } from './visitor';

/** Making, listing and stopping share links, and the latest shares: signed-in callers. */
export const sharesRoutes: FastifyPluginAsync<{ shares: SharesService; oplog: OperationRecorder }> = async (
  app,
  { shares, oplog },
) => {
  route(app, endpoints.createShare, async (request) => {
    const created = await shares.create(authOf(request), request.body);
    await oplog.record(request, OperationCode.createShare, { share: created.id });
    return created;
  });

  route(app, endpoints.myShares, async (request) => shares.listMine(authOf(request), request.query));

  route(app, endpoints.cancelShare, async (request) => {
    await shares.cancel(authOf(request), request.query);
    const { code, id } = request.query;
    await oplog.record(
      request,
      OperationCode.cancelShare,
      id !== undefined ? { share: id } : { shareCode: code as string },
    );
    return null;
  });

  route(app, endpoints.latestShares, async (request) => {
    // Paging in the body (SPEC §7 "body") or the query string, like file/folder.
    const paging = newShareRequestSchema.parse({ ...(request.body ?? {}), ...request.query });
    return shares.latest(authOf(request), paging);
  });
};

/** The visitor token: the `share-token` header, else `shareToken` in the body. */
function visitorToken(
  request: FastifyRequest,
  body?: { shareToken?: string | undefined },
): string | undefined {
  const header = request.headers[SHARE_TOKEN_HEADER];
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  return value || body?.shareToken || undefined;
}

/**
 * The share-link visitor's calls (SPEC §2 /visitfile): reachable without sign-in, registered
 * outside the signed-in hook. Access comes from the link's code, then from a visitor token.
 */
export const shareVisitorRoutes: FastifyPluginAsync<{
  shares: ShareVisitorService;
  downloads: DownloadsService;
  oplog: OperationRecorder;
}> = async (app, { shares, downloads, oplog }) => {
  /** A new visitor session (a token other than the one presented) is an opening of the link. */
  const recordOpening = async (
    request: FastifyRequest<{ Params: { code: string } }>,
    issued: string | null,
  ) => {
    if (issued !== null && issued !== visitorToken(request))
      await oplog.visitor(request, OperationCode.openShare, { shareCode: request.params.code });
  };

  route(app, endpoints.visitShare, async (request) => {
    const visit = await shares.visit(request.params.code, visitorToken(request));
    await recordOpening(request, visit.shareToken);
    return visit;
  });

  // Throttled by the service: per client address and link, in the database.
  route(app, endpoints.unlockShare, async (request) => {
    const visit = await shares.unlock(
      request.params.code,
      request.body.password,
      visitorToken(request),
      request.ip,
    );
    await recordOpening(request, visit.shareToken);
    return visit;
  });

  route(app, endpoints.shareFolder, async (request) =>
    shares.browse(visitorToken(request, request.body), request.body),
  );

  route(app, endpoints.shareFile, async (request) =>
    shares.file(visitorToken(request, request.body), request.body.folderDataId),
  );

  route(app, endpoints.shareDownload, async (request, reply) => {
    const plan = await shares.download(visitorToken(request, request.body), request.body);
    await oplog.visitor(request, OperationCode.shareDownload, downloadSubject(plan));
    return sendDownload(downloads, plan, reply);
  });

  route(app, endpoints.shareDownloadTicket, async (request) => {
    const ticket = await shares.downloadTicket(visitorToken(request, request.body), request.body);
    return { url: `${endpoints.redeemShareDownloadTicket.path}?ticket=${ticket}` };
  });

  route(app, endpoints.redeemShareDownloadTicket, async (request, reply) => {
    const plan = await shares.redeemDownload(request.query.ticket, (stored) =>
      shareDownloadRequestSchema.omit({ shareToken: true }).parse(stored),
    );
    await oplog.visitor(request, OperationCode.shareDownload, downloadSubject(plan));
    return sendDownload(downloads, plan, reply);
  });
};
