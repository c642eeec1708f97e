// Plain values, no zod: the web's first load imports these (zod's schemas: ./review-schemas).

/**
 * Review states of a file (issue 43 item 2): draft → in review → approved or changes requested,
 * and archived. Folders have no review; they stay `draft`. See docs/decisions.md, "Review".
 */
export const REVIEW_STATES = ['draft', 'inReview', 'approved', 'changesRequested', 'archived'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/**
 * What a review call does, and the states it may start from:
 * - `request` (who may change the file): draft, changes requested or approved → in review, naming reviewers;
 * - `withdraw` (who may change the file): in review → draft;
 * - `approve`, `requestChanges` (an approver): in review → approved / changes requested;
 * - `archive` (an approver): any state but archived → archived;
 * - `reopen` (an approver): archived → draft.
 */
export const REVIEW_ACTIONS = [
  'request',
  'withdraw',
  'approve',
  'requestChanges',
  'archive',
  'reopen',
] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

export const REVIEW_TRANSITIONS: Record<ReviewAction, { from: readonly ReviewState[]; to: ReviewState }> = {
  request: { from: ['draft', 'changesRequested', 'approved'], to: 'inReview' },
  withdraw: { from: ['inReview'], to: 'draft' },
  approve: { from: ['inReview'], to: 'approved' },
  requestChanges: { from: ['inReview'], to: 'changesRequested' },
  archive: { from: ['draft', 'inReview', 'approved', 'changesRequested'], to: 'archived' },
  reopen: { from: ['archived'], to: 'draft' },
};

/** Actions that need the approval right (function code 11) besides the right to change the file. */
export const APPROVER_ACTIONS: readonly ReviewAction[] = ['approve', 'requestChanges', 'archive', 'reopen'];

/** Reviewers one request may name. */
export const REVIEWERS_MAX = 20;
/** A note given with a review action. */
export const REVIEW_NOTE_MAX = 1_000;
/** Entries of a file's review history answered (newest first). */
export const REVIEW_HISTORY_SHOWN = 50;
