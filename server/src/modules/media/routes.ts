import fs from 'node:fs/promises';
import path from 'node:path';
import send from '@fastify/send';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { verifyToken } from '../../lib/signing';
import { type LocalStorage, READ_CHUNK_BYTES } from '../../storage/local';
import { MEDIA_RIGHTS_CACHE_MS, type MediaRights } from './rights';
import { bearerOfClaims, type MediaClaims } from './urls';

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
};

/**
 * The local driver's object endpoint: what a presigned GET is on S3. The signed token names one
 * object and whom it was made for; images, video and PDF open inline, the rest download. Ranges
 * (video seeking) and revalidation (ETag/Last-Modified) work. A token whose session has ended (signed out, expired, user deleted or
 * disabled), whose share link is no longer live, or whose open API access record is deleted or
 * turned off (or its user deleted) is refused (SE_502) within MEDIA_BEARER_CACHE_MS, as is one
 * naming none of them at once. A token
 * whose bearer may no longer see the file (moved to another department, a role narrowed, the
 * file moved or made private, gone from a share link or past its validity there) answers SE_404,
 * as the API does, within MEDIA_RIGHTS_CACHE_MS (issue 38 item 6).
 */
export const localMediaRoute: FastifyPluginAsync<{
  storage: LocalStorage;
  secret: string;
  clock: Clock;
  /** Whether the session, share link or access record a token was made for may have the object now. */
  rights: Pick<MediaRights, 'check'>;
}> = async (app, { storage, secret, clock, rights }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/v1_0/media',
    { schema: { querystring: z.object({ token: z.string().min(10).max(4000) }) } },
    async (request, reply) => {
      const check = verifyToken<MediaClaims & Record<string, unknown>>(
        request.query.token,
        secret,
        clock.now(),
      );
      if (!check.ok) throw new AppError('SE_502');
      const bearer = bearerOfClaims(check.payload);
      if (!bearer) throw new AppError('SE_502');
      const { k: key, f: fileName } = check.payload;
      const verdict = await rights.check(bearer, key, fileName !== undefined);
      if (verdict === 'bearer-gone') throw new AppError('SE_502');
      if (verdict === 'not-visible') throw new AppError('SE_404');
      // @fastify/send answers conditional requests (ETag, Last-Modified → 304) and byte ranges
      // (206, 416) from the file itself; the type and caching are ours, not guessed by extension.
      let file: string;
      try {
        file = storage.pathOf(key);
      } catch {
        throw new AppError('SE_404');
      }
      if (await rangeToIgnore(request.raw.headers.range, file)) delete request.raw.headers.range;
      const sent = await send(request.raw, encodeURIComponent(path.basename(file)), {
        root: path.dirname(file),
        dotfiles: 'allow',
        index: false,
        contentType: false,
        cacheControl: false,
        highWaterMark: READ_CHUNK_BYTES,
      });
      // Our type, caching and disposition go on every answer, 416 and 412 included.
      const type = CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
      // A browser may reuse an answer no longer than the server reuses its right check: a revoked
      // right stops within twice MEDIA_RIGHTS_CACHE_MS, a dead bearer within MEDIA_RIGHTS_CACHE_MS
      // + MEDIA_BEARER_CACHE_MS; a revalidation (304) of a page of thumbnails reads the bearer once.
      reply.header('cache-control', MEDIA_CACHE_CONTROL);
      reply.header('accept-ranges', 'bytes');
      reply.header('x-content-type-options', 'nosniff');
      // An SVG original opened as a page of its own runs nothing and loads nothing (an <img> never
      // runs an SVG's scripts anyway): it is a document from our origin that any user may upload.
      if (type === 'image/svg+xml') reply.header('content-security-policy', SVG_CONTENT_SECURITY_POLICY);
      if (fileName || type === 'application/octet-stream') {
        const name = fileName ?? path.basename(key);
        reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
      }
      if (sent.type === 'error') {
        const { status } = sent.metadata.error as Error & { status?: number };
        if (status === 416 || status === 412) return reply.code(status).headers(sent.headers).send();
        if (status === 404) throw new AppError('SE_404');
        throw sent.metadata.error;
      }
      if (sent.type !== 'file') throw new AppError('SE_404');
      reply.header('content-type', type);
      return reply.code(sent.statusCode).headers(sent.headers).send(sent.stream);
    },
  );
};

/** An SVG answer's policy: a sandbox (no scripts, an opaque origin), nothing loaded from elsewhere. */
export const SVG_CONTENT_SECURITY_POLICY =
  "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'";

/** The caching of every media answer: private, and for no longer than a right check is reused. */
export const MEDIA_CACHE_CONTROL = `private, max-age=${MEDIA_RIGHTS_CACHE_MS / 1000}`;

/** `bytes=` and one or more `first-[last]` or `-suffix` specs (RFC 9110 §14.1.2). */
const RANGE_SYNTAX = /^bytes=\s*(\d+-\d*|-\d+)(\s*,\s*(\d+-\d*|-\d+))*\s*$/;

/**
 * Whether a Range header is to be ignored, so the whole object goes out with 200 (RFC 9110
 * §14.2: a server may ignore a Range it cannot use): one that does not parse (`bytes=abc`), which
 * @fastify/send would answer 416, and any range of an empty object, where a player asking
 * `bytes=0-` wants the (empty) body, not an error.
 */
async function rangeToIgnore(range: string | undefined, file: string): Promise<boolean> {
  if (range === undefined) return false;
  if (!RANGE_SYNTAX.test(range)) return true;
  try {
    return (await fs.stat(file)).size === 0;
  } catch {
    return false; // a missing object is send's 404
  }
}
