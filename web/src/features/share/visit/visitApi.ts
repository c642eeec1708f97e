import {
  type EndpointBody,
  type Endpoints,
  SHARE_TOKEN_HEADER,
  type SharedFile,
  type ShareFolderResult,
  type ShareVisit,
} from '@dam/contract';
import { ApiError, call } from '../../../api/client';
import { endpoints } from '../../../api/endpoints';

/**
 * The share visitor's calls (no sign-in: the link's code, then its visitor token). Plain
 * functions over the API client: the visitor page loads neither the query cache nor Ant Design
 * (issue 39, the visitor page's weight). Every call is silent: the page shows its errors itself.
 */

/** A share's folder is browsed like the grid: 60 a page. */
export const VISIT_PAGE_SIZE = 60;

const tokenKey = (code: string) => `share-token:${code}`;
export const storedVisitorToken = (code: string): string | null => sessionStorage.getItem(tokenKey(code));
export const storeVisitorToken = (code: string, token: string | null): void => {
  if (token) sessionStorage.setItem(tokenKey(code), token);
  else sessionStorage.removeItem(tokenKey(code));
};

const withToken = (code: string): Record<string, string> => {
  const token = storedVisitorToken(code);
  return token ? { [SHARE_TOKEN_HEADER]: token } : {};
};

/** GET random/{code}: a token that ran out is forgotten and the link asked again (its password, if any). */
export async function openShare(code: string): Promise<ShareVisit> {
  const open = () => call(endpoints.visitShare, { params: { code }, headers: withToken(code), silent: true });
  let answer: ShareVisit;
  try {
    answer = await open();
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'SESH_05' && storedVisitorToken(code))) throw error;
    storeVisitorToken(code, null);
    answer = await open();
  }
  if (answer.shareToken) storeVisitorToken(code, answer.shareToken);
  return answer;
}

export async function unlockShare(code: string, password: string): Promise<ShareVisit> {
  const answer = await call(endpoints.unlockShare, { params: { code }, body: { password }, silent: true });
  storeVisitorToken(code, answer.shareToken);
  return answer;
}

/** One page of a folder inside the link (null: the link's own items). */
export const sharedFolder = (
  code: string,
  folder: number | null,
  pageNo: number,
): Promise<ShareFolderResult> =>
  call(endpoints.shareFolder, {
    body: { ...(folder === null ? {} : { folderId: folder }), pageNo, pageSize: VISIT_PAGE_SIZE },
    headers: withToken(code),
    silent: true,
  });

/** A file inside the link as the viewer shows it: preview, video source, PDF pages. */
export const sharedFile = (code: string, id: number): Promise<SharedFile> =>
  call(endpoints.shareFile, { body: { folderDataId: id }, headers: withToken(code), silent: true });

export const downloadTicket = (code: string, body: EndpointBody<Endpoints['shareDownloadTicket']>) =>
  call(endpoints.shareDownloadTicket, { body, headers: withToken(code), silent: true });

/** What a failed call says to the visitor: the server's words, else the fallback. */
export const failureText = (error: unknown, fallback: string): string =>
  error instanceof ApiError ? error.desc : fallback;
