import { z } from 'zod';
import { pagingSchema } from '../items';
import {
  cancelShareQuerySchema,
  createShareRequestSchema,
  createShareResultSchema,
  myShareListSchema,
  newShareListSchema,
  newShareRequestSchema,
  shareCodeParamsSchema,
  shareDownloadRequestSchema,
  sharedFileSchema,
  shareFileRequestSchema,
  shareFolderRequestSchema,
  shareFolderResultSchema,
  shareVisitSchema,
  verifySharePasswordRequestSchema,
} from '../shares';
import { defineEndpoint } from './define';
import { downloadTicketQuerySchema, downloadTicketSchema } from './downloads';
import { routes } from './routes';

/** Latest shares: paging in the body (SPEC §7 "body") or the query string, like file/folder. */
export const newSharesBodySchema = newShareRequestSchema.partial().nullish();
export const newSharesQuerySchema = newShareRequestSchema.partial();

/** Share links: the owner's calls (signed in) and the visitor's (SPEC §2 /visitfile, no sign-in). */
export const sharesEndpoints = {
  createShare: defineEndpoint({
    ...routes.createShare,
    body: createShareRequestSchema,
    reply: 'json',
    result: createShareResultSchema,
  }),
  myShares: defineEndpoint({
    ...routes.myShares,
    query: pagingSchema,
    reply: 'json',
    result: myShareListSchema,
  }),
  cancelShare: defineEndpoint({
    ...routes.cancelShare,
    query: cancelShareQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  latestShares: defineEndpoint({
    ...routes.latestShares,
    body: newSharesBodySchema,
    query: newSharesQuerySchema,
    reply: 'json',
    result: newShareListSchema,
  }),
  // The visitor's calls: the link's code, then the visitor token (header `share-token` or body).
  visitShare: defineEndpoint({
    ...routes.visitShare,
    params: shareCodeParamsSchema,
    reply: 'json',
    result: shareVisitSchema,
  }),
  unlockShare: defineEndpoint({
    ...routes.unlockShare,
    params: shareCodeParamsSchema,
    body: verifySharePasswordRequestSchema,
    reply: 'json',
    result: shareVisitSchema,
  }),
  shareFolder: defineEndpoint({
    ...routes.shareFolder,
    body: shareFolderRequestSchema,
    reply: 'json',
    result: shareFolderResultSchema,
  }),
  shareFile: defineEndpoint({
    ...routes.shareFile,
    body: shareFileRequestSchema,
    reply: 'json',
    result: sharedFileSchema,
  }),
  shareDownload: defineEndpoint({
    ...routes.shareDownload,
    body: shareDownloadRequestSchema,
    reply: 'binary',
  }),
  shareDownloadTicket: defineEndpoint({
    ...routes.shareDownloadTicket,
    body: shareDownloadRequestSchema,
    reply: 'json',
    result: downloadTicketSchema,
  }),
  redeemShareDownloadTicket: defineEndpoint({
    ...routes.redeemShareDownloadTicket,
    query: downloadTicketQuerySchema,
    reply: 'binary',
  }),
};
