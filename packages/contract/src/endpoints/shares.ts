import { z } from 'zod';
import { MAIN_API_PREFIX } from '../constants';
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
  shareFolderRequestSchema,
  shareFolderResultSchema,
  shareVisitSchema,
  verifySharePasswordRequestSchema,
} from '../shares';
import { defineEndpoint } from './define';
import { downloadTicketQuerySchema, downloadTicketSchema } from './downloads';

/** Latest shares: paging in the body (SPEC §7 "body") or the query string, like file/folder. */
export const newSharesBodySchema = newShareRequestSchema.partial().nullish();
export const newSharesQuerySchema = newShareRequestSchema.partial();

const share = `${MAIN_API_PREFIX}/v1_0/user/share` as const;

/** Share links: the owner's calls (signed in) and the visitor's (SPEC §2 /visitfile, no sign-in). */
export const sharesEndpoints = {
  createShare: defineEndpoint({
    method: 'POST',
    path: `${share}/produce-random-code`,
    body: createShareRequestSchema,
    reply: 'json',
    result: createShareResultSchema,
  }),
  myShares: defineEndpoint({
    method: 'GET',
    path: `${share}/list`,
    query: pagingSchema,
    reply: 'json',
    result: myShareListSchema,
  }),
  cancelShare: defineEndpoint({
    method: 'GET',
    path: `${share}/cancel-share`,
    query: cancelShareQuerySchema,
    reply: 'json',
    result: z.null(),
  }),
  latestShares: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/new-share`,
    body: newSharesBodySchema,
    query: newSharesQuerySchema,
    reply: 'json',
    result: newShareListSchema,
  }),
  // The visitor's calls: the link's code, then the visitor token (header `share-token` or body).
  visitShare: defineEndpoint({
    method: 'GET',
    path: `${share}/random/:code`,
    params: shareCodeParamsSchema,
    reply: 'json',
    result: shareVisitSchema,
  }),
  unlockShare: defineEndpoint({
    method: 'POST',
    path: `${share}/random/:code`,
    params: shareCodeParamsSchema,
    body: verifySharePasswordRequestSchema,
    reply: 'json',
    result: shareVisitSchema,
  }),
  shareFolder: defineEndpoint({
    method: 'POST',
    path: `${share}/folder`,
    body: shareFolderRequestSchema,
    reply: 'json',
    result: shareFolderResultSchema,
  }),
  shareDownload: defineEndpoint({
    method: 'POST',
    path: `${share}/download`,
    body: shareDownloadRequestSchema,
    reply: 'binary',
  }),
  shareDownloadTicket: defineEndpoint({
    method: 'POST',
    path: `${share}/download-ticket`,
    body: shareDownloadRequestSchema,
    reply: 'json',
    result: downloadTicketSchema,
  }),
  redeemShareDownloadTicket: defineEndpoint({
    method: 'GET',
    path: `${share}/download`,
    query: downloadTicketQuerySchema,
    reply: 'binary',
  }),
};
