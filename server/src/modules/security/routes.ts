import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf, requireSignIn } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { SecurityService } from './service';

export interface SecurityRoutesOptions {
  security: SecurityService;
  oplog: OperationRecorder;
}

/** Reachable while the caller's password must be changed. */
const passwordMayBeExpired = { config: { allowExpiredPassword: true } };

/** The security API of SPEC §7 (/security-api). */
export const securityRoutes: FastifyPluginAsync<SecurityRoutesOptions> = async (app, { security, oplog }) => {
  // Throttled by the service: per identifier looked up and per client address, in the database.
  route(app, endpoints.login, async (request) => {
    const result = await security.login(request.body, {
      ip: request.ip,
      userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
    });
    await oplog.signedIn(request, OperationCode.signIn, result.token);
    return result;
  });

  // Everything below needs a signed-in caller.
  app.register(async (guarded) => {
    guarded.addHook(
      'onRequest',
      requireSignIn((token) => security.authenticate(token)),
    );

    route(guarded, endpoints.userInfo, passwordMayBeExpired, async (request) =>
      security.userInfo(authOf(request)),
    );

    route(guarded, endpoints.signOut, passwordMayBeExpired, async (request) => {
      await security.signOut(authOf(request));
      await oplog.record(request, OperationCode.signOut);
      return null;
    });

    route(guarded, endpoints.changeOwnPassword, passwordMayBeExpired, async (request) => {
      await security.changePassword(authOf(request), request.body);
      await oplog.record(request, OperationCode.changePassword, { user: authOf(request).userId });
      return null;
    });

    route(guarded, endpoints.roleList, async (request) => ({
      roleList: await security.listRoles(authOf(request)),
    }));
  });
};
