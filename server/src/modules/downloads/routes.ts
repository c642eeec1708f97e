import {
  artNumDownloadRequestSchema,
  type BatchDownloadRequest,
  batchDownloadRequestSchema,
  envelopeSchema,
  OperationCode,
  safePathSegment,
} from '@dam/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import type { AuthContext } from '../access/access';
import { downloadSubject, type OperationRecorder } from '../logs/recorder';
import type { DownloadPlan, DownloadsService } from './service';
import { streamZip } from './zip';

const attachment = (name: string) => `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;
const ART_NUM_TICKET = 'art-num';
const BATCH_TICKET = 'batch';

/**
 * A signed-in download uses the caller's own permission, so it is never a share download, whatever
 * `isShareDownload` says: only the share-link routes (modules/shares) mark downloads as such.
 */
const signedIn = (body: BatchDownloadRequest): BatchDownloadRequest => ({ ...body, isShareDownload: 0 });

/**
 * One file as itself, several (or a download by article number) as a zip streamed while it is
 * built. Share-link downloads stream through here too.
 */
export async function sendDownload(
  downloads: DownloadsService,
  plan: DownloadPlan,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const only = plan.files[0];
  if (plan.files.length === 1 && only && plan.problems.length === 0 && !plan.forceZip) {
    const opened = await downloads.open(only);
    const name = safePathSegment((opened.path ?? only.path).split('/').pop() ?? only.path);
    reply.header('content-type', downloads.contentTypeOf(only));
    reply.header('content-disposition', attachment(name));
    if (!only.output) reply.header('content-length', only.source.file_size);
    return reply.send(opened.stream);
  }
  const { stream, abort } = streamZip(downloads.zipEntries(plan), plan.problems);
  // The client went away before the end: stop reading sources and free everything at once.
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort();
  });
  const stamp = new Date().toISOString().slice(0, 19).replace(/\D/g, '');
  reply.header('content-type', 'application/zip');
  reply.header('content-disposition', attachment(`download-${stamp}.zip`));
  return reply.send(stream);
}

/** SPEC §7 file/batch-download, and download tickets for links the browser saves to disk. */
export const downloadsRoutes: FastifyPluginAsync<{
  downloads: DownloadsService;
  oplog: OperationRecorder;
}> = async (app, { downloads, oplog }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    '/v1_0/file/batch-download',
    { schema: { body: batchDownloadRequestSchema } },
    async (request, reply) => {
      const plan = await downloads.plan(authOf(request), signedIn(request.body));
      await oplog.record(request, OperationCode.download, downloadSubject(plan));
      return sendDownload(downloads, plan, reply);
    },
  );

  /**
   * A browser saves a multi-gigabyte zip straight to disk only through a plain link, which cannot
   * carry the token header: this checks the request now, keeps it on the server for 5 minutes
   * and returns a short link to it (a selection of 3,000 ids would not fit in a URL).
   */
  routes.post(
    '/v1_0/file/download-ticket',
    {
      schema: {
        body: batchDownloadRequestSchema,
        response: { 200: envelopeSchema(z.object({ url: z.string() })) },
      },
    },
    async (request) => {
      const auth = authOf(request);
      await downloads.plan(auth, signedIn(request.body), { count: false });
      const ticket = await downloads.createTicket(auth, BATCH_TICKET, signedIn(request.body));
      return ok({ url: `/ske-api/v1_0/file/download?ticket=${ticket}` });
    },
  );

  /** Download by article numbers: one zip, a folder per article number (issue 5). */
  routes.post(
    '/v1_0/file/download-by-art-num',
    { schema: { body: artNumDownloadRequestSchema } },
    async (request, reply) => {
      const plan = await downloads.planByArtNums(authOf(request), request.body);
      await oplog.record(request, OperationCode.download, downloadSubject(plan, request.body.artNumList));
      return sendDownload(downloads, plan, reply);
    },
  );

  /** The same as a link the browser saves to disk; the (long) request is kept on the server. */
  routes.post(
    '/v1_0/file/download-by-art-num-ticket',
    {
      schema: {
        body: artNumDownloadRequestSchema,
        response: { 200: envelopeSchema(z.object({ url: z.string() })) },
      },
    },
    async (request) => {
      const auth = authOf(request);
      await downloads.planByArtNums(auth, request.body, { count: false });
      const ticket = await downloads.createTicket(auth, ART_NUM_TICKET, request.body);
      return ok({ url: `/ske-api/v1_0/file/download-by-art-num?ticket=${ticket}` });
    },
  );
};

/** The link of a download ticket: outside the token-header check, authorised by the ticket. */
export const downloadTicketRoute: FastifyPluginAsync<{
  downloads: DownloadsService;
  oplog: OperationRecorder;
  authenticateSession: (sessionId: number) => Promise<AuthContext>;
}> = async (app, { downloads, oplog, authenticateSession }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const ticketQuery = z.object({ ticket: z.string().min(20).max(100) });
  routes.get('/v1_0/file/download', { schema: { querystring: ticketQuery } }, async (request, reply) => {
    const { sessionId, request: stored } = await downloads.redeemTicket(request.query.ticket, BATCH_TICKET);
    const auth = await authenticateSession(sessionId);
    const body = signedIn(batchDownloadRequestSchema.parse(stored));
    const plan = await downloads.plan(auth, body);
    await oplog.record(request, OperationCode.download, downloadSubject(plan), auth);
    return sendDownload(downloads, plan, reply);
  });
  routes.get(
    '/v1_0/file/download-by-art-num',
    { schema: { querystring: ticketQuery } },
    async (request, reply) => {
      const { sessionId, request: stored } = await downloads.redeemTicket(
        request.query.ticket,
        ART_NUM_TICKET,
      );
      const auth = await authenticateSession(sessionId);
      const body = artNumDownloadRequestSchema.parse(stored);
      const plan = await downloads.planByArtNums(auth, body);
      await oplog.record(request, OperationCode.download, downloadSubject(plan, body.artNumList), auth);
      return sendDownload(downloads, plan, reply);
    },
  );
};
