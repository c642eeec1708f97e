import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf, requireSignIn } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { AccountRecoveryService } from './recovery';
import type { SecurityService } from './service';

export interface SecurityRoutesOptions {
  security: SecurityService;
  recovery: AccountRecoveryService;
  oplog: OperationRecorder;
  /** Where sign-out sends the browser next: the single sign-on provider's end-session page, or null. */
  logoutUrlOf: (sessionId: number) => Promise<string | null>;
}

/** Reachable while the caller's password must be changed. */
const passwordMayBeExpired = { config: { allowExpiredPassword: true } };

/** The security API of SPEC §7 (/security-api). */
export const securityRoutes: FastifyPluginAsync<SecurityRoutesOptions> = async (
  app,
  { security, recovery, oplog, logoutUrlOf },
) => {
  // Throttled by the service: per identifier looked up and per client address, in the database.
  route(app, endpoints.login, async (request) => {
    const result = await security.login(request.body, {
      ip: request.ip,
      userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
    });
    const code = request.body.password === undefined ? OperationCode.signInSms : OperationCode.signIn;
    await oplog.signedIn(request, code, result.token);
    return result;
  });

  // Signed out: codes and resets answer alike whether or not an account exists (limits in the service).
  route(app, endpoints.sendSignInCode, async (request) => recovery.sendSignInCode(request.body, request.ip));

  route(app, endpoints.emailResetPassword, async (request) => {
    await recovery.requestEmailReset(request.body.email, request.lang, request.ip);
    return null;
  });

  // The mailed link proves the account: no session needed to confirm a new address.
  route(app, endpoints.confirmEmail, async (request) => {
    const userId = await recovery.confirmEmail(request.body.token);
    await oplog.byAccount(request, OperationCode.changeEmail, userId, { user: userId });
    return null;
  });

  route(app, endpoints.loginResetPassword, async (request) => {
    const userId = await recovery.resetPassword(request.body);
    await oplog.byAccount(request, OperationCode.recoverPassword, userId, { user: userId });
    return null;
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
      // Read before the session (and what goes with it) is deleted.
      const logoutUrl = await logoutUrlOf(authOf(request).sessionId);
      await security.signOut(authOf(request));
      await oplog.record(request, OperationCode.signOut);
      return { logoutUrl };
    });

    route(guarded, endpoints.changeOwnPassword, passwordMayBeExpired, async (request) => {
      await security.changePassword(authOf(request), request.body);
      await oplog.record(request, OperationCode.changePassword, { user: authOf(request).userId });
      return null;
    });

    route(guarded, endpoints.sendMobileChangeCode, async (request) =>
      recovery.sendMobileChangeCode(authOf(request), request.body.mobile, request.ip),
    );

    route(guarded, endpoints.changeOwnEmail, async (request) =>
      recovery.requestEmailChange(authOf(request), request.body.email, request.lang),
    );

    route(guarded, endpoints.changeOwnMobile, async (request) => {
      await recovery.changeMobile(authOf(request), request.body);
      await oplog.record(request, OperationCode.changeMobile, { user: authOf(request).userId });
      return null;
    });

    route(guarded, endpoints.roleList, async (request) => ({
      roleList: await security.listRoles(authOf(request)),
    }));
  });
};
