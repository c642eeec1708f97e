import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import {
  endpointRoutes,
  FIRST_ANSWERS_ELEMENT_ID,
  type FirstCall,
  firstCallKey,
  firstPageCalls,
  TOKEN_HEADER,
} from '@dam/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cookieToken } from './session-cookie';

/**
 * The thumbnails of a folder's first items the page has the browser fetch beside the app's code:
 * a screen 1,366 pixels wide shows 10 to 15 cards.
 */
export const PRELOADED_THUMBNAILS = 12;
/** A path ending in a file name (no page of the app has a dot in its last segment). */
const FILE_NAME = /\.[^/]*$/;
/** Where the signed-in page's answers go: after the app's (empty) root element. */
const ROOT_ELEMENT = '<div id="root"></div>';

/** Text for a double-quoted HTML attribute. */
const attribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * JSON inside a `<script>` element: `<` escaped, so that no text of the answers (an item's name,
 * say) can end the element or open a comment.
 */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

interface Envelope {
  success?: boolean;
  result?: unknown;
}

/**
 * The single-page app's HTML for a client-side route (`/allfiles/…`, `/login`).
 *
 * A browser holding a session gets the page that loads the signed-in layout's chunks beside the
 * entry script and, for a page whose first calls the contract names (firstPageCalls), the answers
 * to them inside it (issue 12 goal 4): the page's head is sent at once, so the browser fetches the
 * app's code while the server answers; then the answers as JSON, which the web app's first calls
 * take instead of asking again, and, for a folder, preloads of its first thumbnails, which arrive
 * beside the code instead of after the page has drawn. The answers are made by this app's own
 * routes (`inject`) with the cookie's session, so they are exactly what the calls would have
 * answered, permissions included; only successes are put in (a refusal the app asks for itself and
 * shows in the user's language). Which page depends on the cookie, hence `Vary`.
 */
export function appPageHandler(
  app: FastifyInstance,
  webRoot: string,
  signedInPage: boolean,
  answersWaitMs: number,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = signedInPage ? cookieToken(request) : undefined;
    reply.header('vary', 'Cookie');
    if (!token) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    const pathname = pathOf(request.url);
    // A file's address the build does not have (a browser's /favicon.ico) gets the page, as before,
    // but no calls made for it.
    const calls = request.method === 'GET' && !FILE_NAME.test(pathname) ? firstPageCalls(pathname) : [];
    const html = calls.length > 0 ? await fs.readFile(path.join(webRoot, 'signed-in.html'), 'utf8') : '';
    const root = html.indexOf(ROOT_ELEMENT);
    if (root < 0) return reply.header('cache-control', 'no-cache').sendFile('signed-in.html');

    const encoding = negotiate(request.headers['accept-encoding']);
    const page =
      encoding === 'br'
        ? zlib.createBrotliCompress(BROTLI)
        : encoding === 'gzip'
          ? zlib.createGzip()
          : new PassThrough();
    // The answers are this session's and of this moment: no cache, the browser's own included, may
    // keep them (a page restored from it would show a signed-out session's data, or stale data).
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('vary', 'Cookie, Accept-Encoding');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    void reply.send(page);
    // The head at once, flushed out of the compressor: it names the app's scripts and styles.
    page.write(html.slice(0, root + ROOT_ELEMENT.length));
    if (page instanceof zlib.BrotliCompress) page.flush(zlib.constants.BROTLI_OPERATION_FLUSH);
    else if (page instanceof zlib.Gzip) page.flush(zlib.constants.Z_SYNC_FLUSH);
    const answers = await answersOf(app, request, token, calls, answersWaitMs);
    // A browser gone meanwhile took the page with it.
    if (!page.destroyed) page.end(`${pageAdditions(answers)}${html.slice(root + ROOT_ELEMENT.length)}`);
    return reply;
  };
}

/** The path of a request's target, without its query ('' for a target no URL parser accepts). */
function pathOf(target: string): string {
  try {
    return new URL(target, 'http://page').pathname;
  } catch {
    return '';
  }
}

const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };

/** br, gzip or none, as the browser accepts (every browser of the last decade sends both). */
function negotiate(accepted: string | undefined): 'br' | 'gzip' | 'identity' {
  const names = (accepted ?? '').split(',').map((each) => each.split(';')[0]?.trim().toLowerCase());
  if (names.includes('br')) return 'br';
  if (names.includes('gzip')) return 'gzip';
  return 'identity';
}

/**
 * The first calls' successful answers, by `METHOD address`, made by the app's own routes with the
 * cookie's session; those not answered within waitMs (config FIRST_ANSWERS_WAIT_MS) are left out.
 */
async function answersOf(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
  calls: FirstCall[],
  waitMs: number,
): Promise<Map<string, Envelope>> {
  const answers = new Map<string, Envelope>();
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  const answered = Promise.all(
    calls.map(async (call) => {
      try {
        const response = await app.inject({
          method: call.method,
          url: call.url,
          remoteAddress: request.ip,
          headers: {
            [TOKEN_HEADER]: token,
            ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
          },
        });
        if (response.statusCode !== 200) return;
        const envelope = response.json<Envelope>();
        if (envelope.success === true) answers.set(firstCallKey(call), envelope);
      } catch (error) {
        request.log.warn({ err: error, url: call.url }, 'a first call of the page failed');
      }
    }),
  );
  await Promise.race([answered, waited]);
  clearTimeout(timer);
  // A copy: answers arriving after the wait must not change what was sent.
  return new Map(answers);
}

/** The answers as JSON for the web app, and preloads of a folder's first thumbnails. */
function pageAdditions(answers: Map<string, Envelope>): string {
  if (answers.size === 0) return '';
  const thumbnails: string[] = [];
  for (const [key, envelope] of answers) {
    if (!key.startsWith(`GET ${endpointRoutes.folderListing.path}?`)) continue;
    const list = (envelope.result as { list?: Array<{ compactUrl?: unknown }> } | null)?.list ?? [];
    for (const item of list) {
      if (thumbnails.length === PRELOADED_THUMBNAILS) break;
      if (typeof item.compactUrl === 'string' && item.compactUrl) thumbnails.push(item.compactUrl);
    }
  }
  const preloads = thumbnails
    .map((url) => `<link rel="preload" as="image" href="${attribute(url)}">`)
    .join('');
  const json = scriptJson(Object.fromEntries(answers));
  return `${preloads}<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">${json}</script>`;
}
