import type { ReviewState } from '@dam/contract';
import type { Generated } from 'kysely';
import type { Timestamp } from './columns';

/** Who was asked to review a file in its current (or last) request (migration 040; issue 43). */
export interface ItemReviewerTable {
  item_id: number;
  user_id: number;
  requested_by: number | null;
  requested_at: Timestamp;
}

/** One change of a file's review state: its history. */
export interface ReviewEventTable {
  id: Generated<string>;
  item_id: number;
  /** A review action, or `newVersion` (an approved file sent back to review by a new version). */
  action: string;
  from_state: ReviewState;
  to_state: ReviewState;
  user_id: number | null;
  note: Generated<string>;
  created_at: Timestamp;
}
