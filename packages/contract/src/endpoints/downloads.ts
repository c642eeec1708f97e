import { z } from 'zod';
import { batchDownloadRequestSchema } from '../files';
import {
  artNumDownloadRequestSchema,
  deletePresetRequestSchema,
  downloadPresetSchema,
  savePresetRequestSchema,
} from '../presets';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** A download link the browser saves to disk: authorised by the ticket, not the token header. */
export const downloadTicketQuerySchema = z.object({ ticket: z.string().min(20).max(100) });
/** The short link a ticket call answers with. */
export const downloadTicketSchema = z.object({ url: z.string() });

/** SPEC §7 file/batch-download and download tickets; download presets (issue 5). */
export const downloadsEndpoints = {
  /** One file as itself, several as a zip streamed while it is built. */
  downloadItems: defineEndpoint({
    ...routes.downloadItems,
    body: batchDownloadRequestSchema,
    reply: 'binary',
  }),
  downloadTicket: defineEndpoint({
    ...routes.downloadTicket,
    body: batchDownloadRequestSchema,
    reply: 'json',
    result: downloadTicketSchema,
  }),
  downloadByArtNums: defineEndpoint({
    ...routes.downloadByArtNums,
    body: artNumDownloadRequestSchema,
    reply: 'binary',
  }),
  downloadByArtNumsTicket: defineEndpoint({
    ...routes.downloadByArtNumsTicket,
    body: artNumDownloadRequestSchema,
    reply: 'json',
    result: downloadTicketSchema,
  }),
  /** The link of a downloadTicket (no sign-in header: the ticket names the session). */
  redeemDownloadTicket: defineEndpoint({
    ...routes.redeemDownloadTicket,
    query: downloadTicketQuerySchema,
    reply: 'binary',
  }),
  redeemArtNumDownloadTicket: defineEndpoint({
    ...routes.redeemArtNumDownloadTicket,
    query: downloadTicketQuerySchema,
    reply: 'binary',
  }),
  downloadPresets: defineEndpoint({
    ...routes.downloadPresets,
    reply: 'json',
    result: z.array(downloadPresetSchema),
  }),
  saveDownloadPreset: defineEndpoint({
    ...routes.saveDownloadPreset,
    body: savePresetRequestSchema,
    reply: 'json',
    result: downloadPresetSchema,
  }),
  deleteDownloadPreset: defineEndpoint({
    ...routes.deleteDownloadPreset,
    body: deletePresetRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
};
