import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../http/endpoint';
import { authOf } from '../../../http/request-context';
import type { OperationRecorder } from '../../logs/recorder';
import { apiAccessLogSubject, apiEnterpriseLogSubject, apiRotationLogSubject } from './log-subject';
import type { OpenAdminService } from './service';

/**
 * Open API access management (SPEC §2 /manage/api, §7 /open/*) in the main API, signed-in callers
 * only; the service checks function code 7 and the caller's reach. Every change is logged
 * (API01–API06), never with a secret: the secret is only in the answer of a creation or rotation.
 */
export const openAdminRoutes: FastifyPluginAsync<{
  openAdmin: OpenAdminService;
  oplog: OperationRecorder;
}> = async (app, { openAdmin, oplog }) => {
  route(app, endpoints.openCalls, async (request) => openAdmin.openCalls(authOf(request)));
  route(app, endpoints.apiAccessList, async (request) =>
    openAdmin.listAccesses(authOf(request), request.query),
  );
  route(app, endpoints.apiAccessDetail, async (request) =>
    openAdmin.accessDetail(authOf(request), request.body.id),
  );
  route(app, endpoints.saveApiAccess, async (request) => {
    const { result, change } = await openAdmin.saveAccess(authOf(request), request.body);
    const code = change.before ? OperationCode.editApiAccess : OperationCode.createApiAccess;
    await oplog.record(request, code, apiAccessLogSubject(change));
    return result;
  });
  route(app, endpoints.deleteApiAccess, async (request) => {
    const change = await openAdmin.deleteAccess(authOf(request), request.body.id);
    // A record already gone was deleted by someone else, whose entry says so.
    if (change) await oplog.record(request, OperationCode.deleteApiAccess, apiAccessLogSubject(change));
    return null;
  });
  route(app, endpoints.rotateApiSecret, async (request) => {
    const { result, change } = await openAdmin.rotateSecret(authOf(request), request.body);
    await oplog.record(request, OperationCode.rotateApiSecret, apiRotationLogSubject(change));
    return result;
  });
  route(app, endpoints.apiEnterprises, async (request) =>
    openAdmin.enterprises(authOf(request), request.body.enterpriseId),
  );
  route(app, endpoints.saveApiEnterprise, async (request) => {
    const { result, change } = await openAdmin.saveEnterprise(authOf(request), request.body);
    await oplog.record(request, OperationCode.saveApiEnterprise, apiEnterpriseLogSubject(change));
    return result;
  });
  route(app, endpoints.deleteApiEnterprise, async (request) => {
    const change = await openAdmin.deleteEnterprise(authOf(request), request.body.enterpriseId);
    if (change)
      await oplog.record(request, OperationCode.deleteApiEnterprise, apiEnterpriseLogSubject(change));
    return null;
  });
  route(app, endpoints.saveEnterpriseCalls, async (request) => {
    const { result, change } = await openAdmin.saveEnterpriseCalls(authOf(request), request.body);
    await oplog.record(request, OperationCode.saveApiEnterprise, apiEnterpriseLogSubject(change));
    return result;
  });
};
