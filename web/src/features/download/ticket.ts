import { api } from '../../api/client';

/**
 * Asks the server for a short-lived download link, then navigates to it: a plain navigation lets
 * the browser stream the file or zip to disk, whatever its size (a fetch would hold it in memory).
 */
export async function downloadThroughTicket(ticketPath: string, request: unknown): Promise<void> {
  const { url } = await api.post<{ url: string }>(ticketPath, request, { silent: true });
  window.location.assign(url);
}
