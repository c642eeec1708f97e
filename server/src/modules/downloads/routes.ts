import { type BatchDownloadRequest, endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { AuthContext } from '../access/access';
import { downloadSubject, type OperationRecorder } from '../logs/recorder';
import { sendDownload } from './send';
import { BATCH_TICKET, type DownloadPlan, type DownloadsService } from './service';

// A ticket keeps the plan checked and resolved when it was issued (issue 12: the link sends its
// first byte without planning 3,000 files a second time); the kinds were renamed with that change,
// so a ticket of the old shape (the request) is refused, not misread.
const ART_NUM_TICKET = 'art-num-plan';

/** What a download ticket keeps: the resolved plan (and the article numbers, for the log). */
interface PlanTicket {
  plan: DownloadPlan;
  artNumList?: string[];
}

/**
 * A signed-in download uses the caller's own permission, so it is never a share download, whatever
 * `isShareDownload` says: only the share-link routes (modules/shares) mark downloads as such.
 */
const signedIn = (body: BatchDownloadRequest): BatchDownloadRequest => ({ ...body, isShareDownload: 0 });

/** SPEC §7 file/batch-download, and download tickets for links the browser saves to disk. */
export const downloadsRoutes: FastifyPluginAsync<{
  downloads: DownloadsService;
  oplog: OperationRecorder;
}> = async (app, { downloads, oplog }) => {
  route(app, endpoints.downloadItems, async (request, reply) => {
    const plan = await downloads.plan(authOf(request), signedIn(request.body));
    await oplog.record(request, OperationCode.download, downloadSubject(plan));
    return sendDownload(downloads, plan, reply);
  });

  /**
   * A browser saves a multi-gigabyte zip straight to disk only through a plain link, which cannot
   * carry the token header: this checks the request now, keeps it on the server for 5 minutes
   * and returns a short link to it (a selection of 3,000 ids would not fit in a URL).
   */
  route(app, endpoints.downloadTicket, async (request) => {
    const auth = authOf(request);
    const plan = await downloads.plan(auth, signedIn(request.body), { count: false });
    return { url: await downloads.ticketLink(auth, plan) };
  });

  /** Download by article numbers: one zip, a folder per article number (issue 5). */
  route(app, endpoints.downloadByArtNums, async (request, reply) => {
    const plan = await downloads.planByArtNums(authOf(request), request.body);
    await oplog.record(request, OperationCode.download, downloadSubject(plan, request.body.artNumList));
    return sendDownload(downloads, plan, reply);
  });

  /** The same as a link the browser saves to disk; the (long) request is kept on the server. */
  route(app, endpoints.downloadByArtNumsTicket, async (request) => {
    const auth = authOf(request);
    const plan = await downloads.planByArtNums(auth, request.body, { count: false });
    const ticket = await downloads.createTicket(auth, ART_NUM_TICKET, {
      plan,
      artNumList: request.body.artNumList,
    } satisfies PlanTicket);
    return { url: `${endpoints.redeemArtNumDownloadTicket.path}?ticket=${ticket}` };
  });
};

/** The link of a download ticket: outside the token-header check, authorised by the ticket. */
export const downloadTicketRoute: FastifyPluginAsync<{
  downloads: DownloadsService;
  oplog: OperationRecorder;
  authenticateSession: (sessionId: number) => Promise<AuthContext>;
}> = async (app, { downloads, oplog, authenticateSession }) => {
  route(app, endpoints.redeemDownloadTicket, async (request, reply) => {
    const { sessionId, request: stored } = await downloads.redeemTicket(request.query.ticket, BATCH_TICKET);
    const auth = await authenticateSession(sessionId);
    const { plan } = stored as PlanTicket;
    await downloads.countPlanned(plan);
    await oplog.record(request, OperationCode.download, downloadSubject(plan), auth);
    return sendDownload(downloads, plan, reply);
  });
  route(app, endpoints.redeemArtNumDownloadTicket, async (request, reply) => {
    const { sessionId, request: stored } = await downloads.redeemTicket(request.query.ticket, ART_NUM_TICKET);
    const auth = await authenticateSession(sessionId);
    const { plan, artNumList } = stored as PlanTicket;
    await downloads.countPlanned(plan);
    await oplog.record(request, OperationCode.download, downloadSubject(plan, artNumList), auth);
    return sendDownload(downloads, plan, reply);
  });
};
