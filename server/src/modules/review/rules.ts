import {
  APPROVER_ACTIONS,
  FunctionCode,
  ItemType,
  REVIEW_ACTIONS,
  REVIEW_TRANSITIONS,
  type ReviewAction,
  type ReviewState,
} from '@dam/contract';
import type { AuthContext } from '../access/access';
import { canEdit, canSee, type ItemAccessFacts } from '../items/policy';

/**
 * Who may do what in a file's review (issue 43 item 2). Asking for review and withdrawing it: who
 * may change the file. Approving, asking for changes, archiving and reopening: an approver —
 * function code 11, a file they may change, owned within their own department or below it.
 */

export function mayChangeFile(auth: AuthContext, item: ItemAccessFacts): boolean {
  return canSee(auth, item) && canEdit(auth, item);
}

export function mayApproveFile(auth: AuthContext, item: ItemAccessFacts): boolean {
  if (!auth.functionCodes.has(FunctionCode.review) || auth.deptPath === null) return false;
  return mayChangeFile(auth, item) && item.dept_path.startsWith(auth.deptPath);
}

/** Whether `action` starts from `state`, whoever asks. */
export function startsFrom(action: ReviewAction, state: ReviewState): boolean {
  return REVIEW_TRANSITIONS[action].from.includes(state);
}

/** Whether the caller holds the right `action` needs on the file (its state aside). */
export function mayTake(auth: AuthContext, item: ItemAccessFacts, action: ReviewAction): boolean {
  return APPROVER_ACTIONS.includes(action) ? mayApproveFile(auth, item) : mayChangeFile(auth, item);
}

/** The actions the caller may take on a file in `state`. */
export function actionsFor(
  auth: AuthContext,
  item: ItemAccessFacts & { type: number },
  state: ReviewState,
): ReviewAction[] {
  if (item.type === ItemType.folder) return [];
  return REVIEW_ACTIONS.filter((action) => startsFrom(action, state) && mayTake(auth, item, action));
}
