import {
  cancelShareQuerySchema,
  createShareRequestSchema,
  createShareResultSchema,
  envelopeSchema,
  myShareListSchema,
  newShareListSchema,
  newShareRequestSchema,
  OperationCode,
  pagingSchema,
  SHARE_TOKEN_HEADER,
  shareCodeParamsSchema,
  shareDownloadRequestSchema,
  shareFolderRequestSchema,
  shareFolderResultSchema,
  shareVisitSchema,
  verifySharePasswordRequestSchema,
} from '@dam/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { sendDownload } from '../downloads/routes';
import type { DownloadsService } from '../downloads/service';
import { downloadSubject, type OperationRecorder } from '../logs/recorder';
import type { SharesService } from './service';

const nothing = envelopeSchema(z.null());

/** Making, listing and stopping share links, and the latest shares: signed-in callers. */
export const sharesRoutes: FastifyPluginAsync<{ shares: SharesService; oplog: OperationRecorder }> = async (
  app,
  { shares, oplog },
) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/v1_0/user/share/produce-random-code',
    {
      schema: {
        body: createShareRequestSchema,
        response: { 200: envelopeSchema(createShareResultSchema) },
      },
    },
    async (request) => {
      const created = await shares.create(authOf(request), request.body);
      await oplog.record(request, OperationCode.createShare, { share: created.id });
      return ok(created);
    },
  );

  routes.get(
    '/v1_0/user/share/list',
    { schema: { querystring: pagingSchema, response: { 200: envelopeSchema(myShareListSchema) } } },
    async (request) => ok(await shares.listMine(authOf(request), request.query)),
  );

  routes.get(
    '/v1_0/user/share/cancel-share',
    { schema: { querystring: cancelShareQuerySchema, response: { 200: nothing } } },
    async (request) => {
      await shares.cancel(authOf(request), request.query);
      const { code, id } = request.query;
      await oplog.record(
        request,
        OperationCode.cancelShare,
        id !== undefined ? { share: id } : { shareCode: code as string },
      );
      return ok(null);
    },
  );

  routes.post(
    '/v1_0/file/new-share',
    {
      schema: {
        body: newShareRequestSchema.partial().nullish(),
        querystring: newShareRequestSchema.partial(),
        response: { 200: envelopeSchema(newShareListSchema) },
      },
    },
    async (request) => {
      // Paging in the body (SPEC §7 "body") or the query string, like file/folder.
      const paging = newShareRequestSchema.parse({ ...(request.body ?? {}), ...request.query });
      return ok(await shares.latest(authOf(request), paging));
    },
  );
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
  shares: SharesService;
  downloads: DownloadsService;
  oplog: OperationRecorder;
}> = async (app, { shares, downloads, oplog }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  /** A new visitor session (a token other than the one presented) is an opening of the link. */
  const recordOpening = async (
    request: FastifyRequest<{ Params: { code: string } }>,
    issued: string | null,
  ) => {
    if (issued !== null && issued !== visitorToken(request))
      await oplog.visitor(request, OperationCode.openShare, { shareCode: request.params.code });
  };

  routes.get(
    '/v1_0/user/share/random/:code',
    { schema: { params: shareCodeParamsSchema, response: { 200: envelopeSchema(shareVisitSchema) } } },
    async (request) => {
      const visit = await shares.visit(request.params.code, visitorToken(request));
      await recordOpening(request, visit.shareToken);
      return ok(visit);
    },
  );

  routes.post(
    '/v1_0/user/share/random/:code',
    {
      schema: {
        params: shareCodeParamsSchema,
        body: verifySharePasswordRequestSchema,
        response: { 200: envelopeSchema(shareVisitSchema) },
      },
      // Throttled by the service: per client address and link, in the database.
    },
    async (request) => {
      const visit = await shares.unlock(
        request.params.code,
        request.body.password,
        visitorToken(request),
        request.ip,
      );
      await recordOpening(request, visit.shareToken);
      return ok(visit);
    },
  );

  routes.post(
    '/v1_0/user/share/folder',
    {
      schema: {
        body: shareFolderRequestSchema,
        response: { 200: envelopeSchema(shareFolderResultSchema) },
      },
    },
    async (request) => ok(await shares.browse(visitorToken(request, request.body), request.body)),
  );

  routes.post(
    '/v1_0/user/share/download',
    { schema: { body: shareDownloadRequestSchema } },
    async (request, reply) => {
      const plan = await shares.download(visitorToken(request, request.body), request.body);
      await oplog.visitor(request, OperationCode.shareDownload, downloadSubject(plan));
      return sendDownload(downloads, plan, reply);
    },
  );

  routes.post(
    '/v1_0/user/share/download-ticket',
    {
      schema: {
        body: shareDownloadRequestSchema,
        response: { 200: envelopeSchema(z.object({ url: z.string() })) },
      },
    },
    async (request) => {
      const ticket = await shares.downloadTicket(visitorToken(request, request.body), request.body);
      return ok({ url: `/ske-api/v1_0/user/share/download?ticket=${ticket}` });
    },
  );

  routes.get(
    '/v1_0/user/share/download',
    { schema: { querystring: z.object({ ticket: z.string().min(20).max(100) }) } },
    async (request, reply) => {
      const plan = await shares.redeemDownload(request.query.ticket, (stored) =>
        shareDownloadRequestSchema.omit({ shareToken: true }).parse(stored),
      );
      await oplog.visitor(request, OperationCode.shareDownload, downloadSubject(plan));
      return sendDownload(downloads, plan, reply);
    },
  );
};
