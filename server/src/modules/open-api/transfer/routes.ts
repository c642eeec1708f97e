import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../../../http/app-error';
import { route } from '../../../http/endpoint';
import { authOf, type OpenAccessCaller } from '../../../http/request-context';
import { sendDownload } from '../../downloads/send';
import type { DownloadsService } from '../../downloads/service';
import { downloadSubject, type OperationRecorder } from '../../logs/recorder';
import type { OpenTransferService } from './service';

/**
 * Where links of an answer start: PUBLIC_URL when configured (behind a proxy the server cannot
 * know its public name otherwise), else the protocol and host the caller reached this server by
 * (`X-Forwarded-*` honoured only from TRUST_PROXY).
 */
export function baseUrlOf(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/** The access record of a signed call (set by the key check, modules/open-api/auth). */
function openAccessOf(request: FastifyRequest): OpenAccessCaller {
  if (!request.openAccess) throw new AppError('SE_501');
  return request.openAccess;
}

/** The open API's download links and upload entry: signed calls, inside the open API's scope. */
export const openTransferRoutes: FastifyPluginAsync<{
  openTransfer: OpenTransferService;
  oplog: OperationRecorder;
  publicUrl: string | undefined;
}> = async (app, { openTransfer, oplog, publicUrl }) => {
  route(app, endpoints.openDownloadUrl, async (request) => {
    const issued = await openTransfer.downloadUrl(
      authOf(request),
      openAccessOf(request).accessId,
      request.body,
      baseUrlOf(request, publicUrl),
    );
    // No links (nothing matched): nothing issued, the call is logged as a plain open call.
    if (issued.result.links.length > 0) {
      const subject = downloadSubject(issued.plan, issued.artNums);
      await oplog.record(request, OperationCode.openLink, {
        ...subject,
        details: {
          ...subject.details,
          mode: request.body.mode,
          links: issued.result.links.length,
          expiresAt: issued.expiresAt.toISOString(),
          ...(issued.result.unmatched.length > 0 ? { unmatchedCount: issued.result.unmatched.length } : {}),
        },
      });
    }
    return issued.result;
  });

  route(app, endpoints.openCreateUpload, async (request) =>
    openTransfer.createUploads(authOf(request), request.body, baseUrlOf(request, publicUrl)),
  );

  route(app, endpoints.openUploadParts, async (request) =>
    openTransfer.signParts(
      authOf(request),
      request.params.id,
      request.body.partNumbers,
      baseUrlOf(request, publicUrl),
    ),
  );

  route(app, endpoints.openCompleteUpload, async (request) => {
    const { assetId, finished } = await openTransfer.complete(
      authOf(request),
      request.params.id,
      request.body,
    );
    // The upload's entry (FILE01), as the browser's callback writes it, once per file.
    if (finished) await oplog.record(request, OperationCode.upload, { uploads: [request.params.id] });
    return { assetId };
  });
};

/**
 * The link of openDownloadUrl: outside the open API's scope (no signature), authorised by its
 * ticket and the record holding it, checked again now. Sent as signed-in downloads are; logged
 * as a download (FILE09) with the record as the operator.
 */
export const openDownloadRoute: FastifyPluginAsync<{
  openTransfer: OpenTransferService;
  downloads: DownloadsService;
  oplog: OperationRecorder;
}> = async (app, { openTransfer, downloads, oplog }) => {
  // No HEAD twin: a HEAD would redeem, count and log a download without sending it.
  route(app, endpoints.openDownload, { exposeHeadRoute: false }, async (request, reply) => {
    const link = await openTransfer.redeem(request.query.ticket);
    // As a signed call through the record would be: the log names the record (`API · <name>`).
    request.openAccess = link.caller;
    request.auth = link.auth;
    await oplog.record(request, OperationCode.download, downloadSubject(link.plan, link.artNums));
    return sendDownload(downloads, link.plan, reply, link.zipName ? { zipName: link.zipName } : {});
  });
};
