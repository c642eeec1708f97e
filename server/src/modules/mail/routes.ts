import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { MailService } from './service';

/** The caller's own mails: how one it caused went (main API, signed in). */
export const mailRoutes: FastifyPluginAsync<{ mail: MailService }> = async (app, { mail }) => {
  route(app, endpoints.mailStatus, async (request) => mail.statusFor(authOf(request), request.query.id));
};
