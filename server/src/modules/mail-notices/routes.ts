import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { MailNoticesService } from './service';

/** SPEC §7 user/mail-notice and the recipient picker: signed-in callers, their own batches only. */
export const mailNoticesRoutes: FastifyPluginAsync<{ mailNotices: MailNoticesService }> = async (
  app,
  { mailNotices },
) => {
  route(app, endpoints.mailNotice, async (request) =>
    mailNotices.schedule(authOf(request), request.body, request.lang),
  );
  route(app, endpoints.mailNoticeRecipients, async (request) =>
    mailNotices.notifiableUsers(authOf(request), request.query.keyword),
  );
};

/**
 * The picture behind a file link in a notice mail, for recipients with or without an account:
 * the signed token is the permission (one file of one notice, for two weeks), checked on every
 * request together with the file still being live.
 */
export const mailNoticePictureRoute: FastifyPluginAsync<{ mailNotices: MailNoticesService }> = async (
  app,
  { mailNotices },
) => {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/v1_0/media/mail-notice',
      { schema: { querystring: z.object({ token: z.string().min(10).max(2000) }) } },
      async (request, reply) => {
        const picture = await mailNotices.picture(request.query.token);
        return reply
          .header('content-type', picture.contentType)
          .header('cache-control', 'private, max-age=3600')
          .header('x-content-type-options', 'nosniff')
          .send(picture.body);
      },
    );
};
