import type { EndpointBody, Endpoints } from '@dam/contract';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';

/**
 * Asks the server for a short-lived download link, then navigates to it: a plain navigation lets
 * the browser stream the file or zip to disk, whatever its size (a fetch would hold it in memory).
 */
async function downloadThroughTicket(ticket: Promise<{ url: string }>): Promise<void> {
  const { url } = await ticket;
  window.location.assign(url);
}

export const downloadItems = (body: EndpointBody<Endpoints['downloadTicket']>) =>
  downloadThroughTicket(call(endpoints.downloadTicket, { body, silent: true }));

export const downloadByArtNums = (body: EndpointBody<Endpoints['downloadByArtNumsTicket']>) =>
  downloadThroughTicket(call(endpoints.downloadByArtNumsTicket, { body, silent: true }));

export const downloadCollection = (body: EndpointBody<Endpoints['collectionDownloadTicket']>) =>
  downloadThroughTicket(call(endpoints.collectionDownloadTicket, { body, silent: true }));
