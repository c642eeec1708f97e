import { endpoints, OperationCode as Op, type OperationCode, type ReviewAction } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { ReviewService } from './service';

/** The log code of each review action (REV01–REV06). */
const CODE_OF: Record<ReviewAction, OperationCode> = {
  request: Op.requestReview,
  withdraw: Op.withdrawReview,
  approve: Op.approveFile,
  requestChanges: Op.requestChanges,
  archive: Op.archiveFile,
  reopen: Op.reopenFile,
};

/** Review of files (issue 43 item 2): any signed-in user; the service decides who may do what. */
export const reviewRoutes: FastifyPluginAsync<{ review: ReviewService; oplog: OperationRecorder }> = async (
  app,
  { review, oplog },
) => {
  route(app, endpoints.reviewState, async (request) => review.detail(authOf(request), request.query.itemId));
  route(app, endpoints.changeReview, async (request) => {
    const { detail, change } = await review.change(authOf(request), request.body, request.lang);
    // A call repeated after it took effect changed nothing, and is not logged again.
    if (change)
      await oplog.record(request, CODE_OF[change.action], {
        items: [change.itemId],
        newValue: change.to,
        details: {
          fromState: change.from,
          ...(change.note ? { note: change.note } : {}),
          ...(change.reviewers.length > 0 ? { reviewers: change.reviewers.join(', ') } : {}),
        },
      });
    return detail;
  });
  route(app, endpoints.reviewerCandidates, async (request) =>
    review.candidates(authOf(request), request.query.itemId, request.query.keyword),
  );
  route(app, endpoints.reviewTodo, async (request) =>
    review.todo(authOf(request), { pageNo: request.query.pageNo, pageSize: request.query.pageSize }),
  );
};
