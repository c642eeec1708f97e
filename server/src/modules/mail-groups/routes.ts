import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import { mailGroupLogSubject } from './log-subject';
import type { MailGroupsService } from './service';

/**
 * Mail groups (SPEC §2 /mail, §7 user/mail-group-list) in the main API, signed-in callers only;
 * the service checks function code 1 and the caller's reach. Every change is logged (MAIL01–03).
 */
export const mailGroupsRoutes: FastifyPluginAsync<{
  mailGroups: MailGroupsService;
  oplog: OperationRecorder;
}> = async (app, { mailGroups, oplog }) => {
  route(app, endpoints.mailGroupList, async (request) =>
    mailGroups.usableGroups(authOf(request), request.query.keyword),
  );
  route(app, endpoints.manageMailGroups, async (request) =>
    mailGroups.listGroups(authOf(request), request.query),
  );
  route(app, endpoints.mailGroupDetail, async (request) =>
    mailGroups.groupDetail(authOf(request), request.query.id),
  );
  route(app, endpoints.mailGroupDepartments, async (request) => mailGroups.departments(authOf(request)));
  route(app, endpoints.mailGroupCandidates, async (request) =>
    mailGroups.candidates(authOf(request), request.body),
  );
  route(app, endpoints.createMailGroup, async (request) => {
    const change = await mailGroups.createGroup(authOf(request), request.body);
    await oplog.record(request, OperationCode.createMailGroup, mailGroupLogSubject(change));
    return { id: change.id };
  });
  route(app, endpoints.editMailGroup, async (request) => {
    const change = await mailGroups.editGroup(authOf(request), request.body);
    await oplog.record(request, OperationCode.editMailGroup, mailGroupLogSubject(change));
    return null;
  });
  route(app, endpoints.deleteMailGroup, async (request) => {
    const change = await mailGroups.deleteGroup(authOf(request), request.body.id);
    // A group already gone was deleted by someone else, whose entry says so.
    if (change) await oplog.record(request, OperationCode.deleteMailGroup, mailGroupLogSubject(change));
    return null;
  });
};
