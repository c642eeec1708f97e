import { z } from 'zod';
import {
  reviewChangeRequestSchema,
  reviewDetailSchema,
  reviewerCandidateSchema,
  reviewerCandidatesQuerySchema,
  reviewItemQuerySchema,
  reviewTodoPageSchema,
  reviewTodoQuerySchema,
} from '../review';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Review of files (issue 43 item 2; paths of our own, SPEC names none). Any signed-in user. */
export const reviewEndpoints = {
  /** A file's review state, reviewers, history and the caller's possible actions. */
  reviewState: defineEndpoint({
    ...routes.reviewState,
    query: reviewItemQuerySchema,
    reply: 'json',
    result: reviewDetailSchema,
  }),
  /** One action on a file's review; answers the review as it is after it. */
  changeReview: defineEndpoint({
    ...routes.changeReview,
    body: reviewChangeRequestSchema,
    reply: 'json',
    result: reviewDetailSchema,
  }),
  /** Colleagues who may approve the file, to be named as its reviewers. */
  reviewerCandidates: defineEndpoint({
    ...routes.reviewerCandidates,
    query: reviewerCandidatesQuerySchema,
    reply: 'json',
    result: z.array(reviewerCandidateSchema),
  }),
  /** The caller's "to review" list. */
  reviewTodo: defineEndpoint({
    ...routes.reviewTodo,
    query: reviewTodoQuerySchema,
    reply: 'json',
    result: reviewTodoPageSchema,
  }),
};
