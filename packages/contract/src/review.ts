import { z } from 'zod';
import { itemSchema } from './items';
import { reviewActionSchema, reviewStateSchema } from './review-schemas';
import { REVIEW_NOTE_MAX, REVIEWERS_MAX } from './review-values';

export * from './review-schemas';
export * from './review-schemas';
export * from './review-values';

/**
 * Review of a file (issue 43 item 2): its state, who was asked to review it, and what happened.
 * Whoever may change a file asks for review, naming reviewers (mailed); an approver — function
 * code 11, on a file they may change within their department — approves or asks for changes.
 * Decisions: docs/decisions.md, "Review (issue 43 item 2)".
 */

const idSchema = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 53 - 1);

export const reviewPersonSchema = z.object({ userId: z.number().int(), name: z.string() });
export type ReviewPerson = z.infer<typeof reviewPersonSchema>;

export const reviewEventSchema = z.object({
  id: z.number().int(),
  action: z.enum([...reviewActionSchema.options, 'newVersion']),
  fromState: reviewStateSchema,
  toState: reviewStateSchema,
  /** Who did it; null for a departed account. */
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  note: z.string(),
  at: z.string(),
});
export type ReviewEvent = z.infer<typeof reviewEventSchema>;

/** GET review/state: a file's review as the caller sees it, with what they may do now. */
export const reviewDetailSchema = z.object({
  itemId: z.number().int(),
  state: reviewStateSchema,
  /** When and by whom the state last changed; null while it never has. */
  changedAt: z.string().nullable(),
  changedBy: reviewPersonSchema.nullable(),
  /** Who was asked in the current (or last) request. */
  reviewers: z.array(reviewPersonSchema),
  history: z.array(reviewEventSchema),
  /** Actions the caller may take from the current state. */
  actions: z.array(reviewActionSchema),
});
export type ReviewDetail = z.infer<typeof reviewDetailSchema>;

export const reviewItemQuerySchema = z.object({ itemId: idSchema });

/**
 * POST review/change. `expectedState` is the state the caller saw: when the file's state is no
 * longer that, nothing changes and SERV_01 names who changed it.
 */
export const reviewChangeRequestSchema = z
  .object({
    itemId: idSchema,
    action: reviewActionSchema,
    expectedState: reviewStateSchema,
    note: z.string().trim().max(REVIEW_NOTE_MAX, { error: 'tooLong' }).default(''),
    /** `request` only: who is to review (1 to REVIEWERS_MAX approvers of the file). */
    reviewerIds: z
      .array(idSchema)
      .max(REVIEWERS_MAX, { error: 'tooMany' })
      .transform((ids) => [...new Set(ids)])
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.action === 'request' && !body.reviewerIds?.length)
      ctx.addIssue({ code: 'custom', path: ['reviewerIds'], message: 'required' });
  });
export type ReviewChangeRequest = z.input<typeof reviewChangeRequestSchema>;

/** GET review/reviewers: the approvers of a file the caller may name, by name or account. */
export const reviewerCandidatesQuerySchema = z.object({
  itemId: idSchema,
  keyword: z.string().trim().max(50, { error: 'tooLong' }).optional(),
});
export const reviewerCandidateSchema = reviewPersonSchema.extend({ deptName: z.string().nullable() });
export type ReviewerCandidate = z.infer<typeof reviewerCandidateSchema>;

/** GET review/todo: files in review that the caller was asked to review, oldest request first. */
export const reviewTodoQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(40),
});
export const reviewTodoEntrySchema = z.object({
  item: itemSchema,
  requestedBy: reviewPersonSchema.nullable(),
  requestedAt: z.string(),
});
export const reviewTodoPageSchema = z.object({
  list: z.array(reviewTodoEntrySchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});
export type ReviewTodoPage = z.infer<typeof reviewTodoPageSchema>;
