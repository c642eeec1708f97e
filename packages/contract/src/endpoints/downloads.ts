import { z } from 'zod';
import { MAIN_API_PREFIX } from '../constants';
import { batchDownloadRequestSchema } from '../files';
import {
  artNumDownloadRequestSchema,
  deletePresetRequestSchema,
  downloadPresetSchema,
  savePresetRequestSchema,
} from '../presets';
import { defineEndpoint } from './define';

/** A download link the browser saves to disk: authorised by the ticket, not the token header. */
export const downloadTicketQuerySchema = z.object({ ticket: z.string().min(20).max(100) });
/** The short link a ticket call answers with. */
export const downloadTicketSchema = z.object({ url: z.string() });

/** SPEC §7 file/batch-download and download tickets; download presets (issue 5). */
export const downloadsEndpoints = {
  /** One file as itself, several as a zip streamed while it is built. */
  downloadItems: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/batch-download`,
    body: batchDownloadRequestSchema,
    reply: 'binary',
  }),
  downloadTicket: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/download-ticket`,
    body: batchDownloadRequestSchema,
    reply: 'json',
    result: downloadTicketSchema,
  }),
  downloadByArtNums: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/download-by-art-num`,
    body: artNumDownloadRequestSchema,
    reply: 'binary',
  }),
  downloadByArtNumsTicket: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/download-by-art-num-ticket`,
    body: artNumDownloadRequestSchema,
    reply: 'json',
    result: downloadTicketSchema,
  }),
  /** The link of a downloadTicket (no sign-in header: the ticket names the session). */
  redeemDownloadTicket: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file/download`,
    query: downloadTicketQuerySchema,
    reply: 'binary',
  }),
  redeemArtNumDownloadTicket: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/file/download-by-art-num`,
    query: downloadTicketQuerySchema,
    reply: 'binary',
  }),
  downloadPresets: defineEndpoint({
    method: 'GET',
    path: `${MAIN_API_PREFIX}/v1_0/download-preset/list`,
    reply: 'json',
    result: z.array(downloadPresetSchema),
  }),
  saveDownloadPreset: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/download-preset/save`,
    body: savePresetRequestSchema,
    reply: 'json',
    result: downloadPresetSchema,
  }),
  deleteDownloadPreset: defineEndpoint({
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/download-preset/delete`,
    body: deletePresetRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
};
