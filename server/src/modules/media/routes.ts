import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { verifyToken } from '../../lib/signing';
import type { LocalStorage } from '../../storage/local';
import { bearerOfClaims, type MediaBearer, type MediaClaims } from './urls';

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
 * work (video seeking). A token whose session has ended (signed out, expired, user deleted or
 * disabled) or whose share link is no longer live is refused (SE_502), as is one naming neither.
 */
export const localMediaRoute: FastifyPluginAsync<{
  storage: LocalStorage;
  secret: string;
  clock: Clock;
  /** Whether the session or share link a token was made for is still alive. */
  bearerAlive: (bearer: MediaBearer) => Promise<boolean>;
}> = async (app, { storage, secret, clock, bearerAlive }) => {
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
      if (!bearer || !(await bearerAlive(bearer))) throw new AppError('SE_502');
      const { k: key, f: fileName } = check.payload;
      const info = await storage.stat(key);
      if (!info) throw new AppError('SE_404');
      const type = CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
      reply.header('content-type', type);
      reply.header('cache-control', 'private, max-age=21600');
      reply.header('accept-ranges', 'bytes');
      reply.header('x-content-type-options', 'nosniff');
      if (fileName || type === 'application/octet-stream') {
        const name = fileName ?? path.basename(key);
        reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
      }
      const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
      if (range && info.size > 0) {
        const start = range[1] ? Number(range[1]) : Math.max(0, info.size - Number(range[2]));
        const end = range[1] && range[2] ? Math.min(Number(range[2]), info.size - 1) : info.size - 1;
        if (start > end || start >= info.size) {
          return reply.code(416).header('content-range', `bytes */${info.size}`).send();
        }
        reply.code(206).header('content-range', `bytes ${start}-${end}/${info.size}`);
        reply.header('content-length', end - start + 1);
        return reply.send(await storage.read(key, { start, end }));
      }
      reply.header('content-length', info.size);
      return reply.send(await storage.read(key));
    },
  );
};
