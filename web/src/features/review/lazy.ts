/**
 * The review feature's pieces other features load on demand (issue 43 item 2): the viewer's
 * "Review" section comes with its own chunk.
 */
export const loadReviewSection = () => import('./ReviewSection');
