import {
  changePasswordRequestSchema,
  envelopeSchema,
  loginRequestSchema,
  loginResultSchema,
  OperationCode,
  rolesResultSchema,
  userInfoSchema,
} from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope';
import { authOf, requireSignIn } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { SecurityService } from './service';

export interface SecurityRoutesOptions {
  security: SecurityService;
  oplog: OperationRecorder;
}

const nothing = envelopeSchema(z.null());

/** The security API of SPEC §7, mounted under /security-api. */
export const securityRoutes: FastifyPluginAsync<SecurityRoutesOptions> = async (app, { security, oplog }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/login',
    {
      schema: { body: loginRequestSchema, response: { 200: envelopeSchema(loginResultSchema) } },
      // Throttled by the service: per identifier looked up and per client address, in the database.
    },
    async (request) => {
      const result = await security.login(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
      });
      await oplog.signedIn(request, OperationCode.signIn, result.token);
      return ok(result);
    },
  );

  // Everything below needs a signed-in caller.
  app.register(async (protectedApp) => {
    protectedApp.addHook(
      'onRequest',
      requireSignIn((token) => security.authenticate(token)),
    );
    const guarded = protectedApp.withTypeProvider<ZodTypeProvider>();

    guarded.post(
      '/user-info',
      {
        schema: { response: { 200: envelopeSchema(userInfoSchema) } },
        config: { allowExpiredPassword: true },
      },
      async (request) => ok(await security.userInfo(authOf(request))),
    );

    guarded.post(
      '/sign-out',
      { schema: { response: { 200: nothing } }, config: { allowExpiredPassword: true } },
      async (request) => {
        await security.signOut(authOf(request));
        await oplog.record(request, OperationCode.signOut);
        return ok(null);
      },
    );

    guarded.post(
      '/self-reset-pwd',
      {
        schema: { body: changePasswordRequestSchema, response: { 200: nothing } },
        config: { allowExpiredPassword: true },
      },
      async (request) => {
        await security.changePassword(authOf(request), request.body);
        await oplog.record(request, OperationCode.changePassword, { user: authOf(request).userId });
        return ok(null);
      },
    );

    guarded.post(
      '/roles',
      { schema: { response: { 200: envelopeSchema(rolesResultSchema) } } },
      async (request) => ok({ roleList: await security.listRoles(authOf(request)) }),
    );
  });
};
