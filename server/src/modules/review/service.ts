import {
  ItemType,
  type Language,
  REVIEW_HISTORY_SHOWN,
  REVIEW_TRANSITIONS,
  type ReviewAction,
  type ReviewDetail,
  type ReviewEvent,
  type ReviewerCandidate,
  type ReviewState,
  type ReviewTodoPage,
} from '@dam/contract';
import type { Db } from '../../db/database';
import { AppError, coded, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, sessionlessAuth } from '../access/access';
import { type ItemPresenter, type Paging, viewerOf } from '../items/item-pages';
import { requireLiveItem } from '../items/policy';
import type { MailRepository } from '../mail/repository';
import type { MailService } from '../mail/service';
import { type MailLanguage, mailLanguageOf } from '../mail/templates';
import type { PersonRow, ReviewItemRow, ReviewRepository } from './repository';
import { actionsFor, mayApproveFile, mayChangeFile, mayTake, startsFrom } from './rules';

/** Approvers a reviewer picker lists at most. */
const CANDIDATES_SHOWN = 50;

/** What a review change did, for the operation log (REV01–REV06). */
export interface ReviewChange {
  action: ReviewAction;
  itemId: number;
  name: string;
  from: ReviewState;
  to: ReviewState;
  note: string;
  reviewers: string[];
}

export interface ReviewDependencies {
  repo: ReviewRepository;
  mail: MailService;
  presenter: ItemPresenter;
  clock: Clock;
  /** The address users open (PUBLIC_URL): the mails' links point there. */
  appUrl: string;
  /** REVIEW_NEW_VERSION_RETURNS: a new version sends an approved file back to review. */
  returnOnNewVersion: boolean;
  /** Asks the webhook dispatch for a pass now (absent without a job queue): shops hear of an approval at once. */
  nudgeWebhooks?: (() => Promise<void>) | undefined;
}

/**
 * Review of files (issue 43 item 2). Every change runs in one transaction with the file's row
 * locked, and names the state the caller saw: a change made meanwhile by someone else is refused
 * with SERV_01 naming them, so two reviewers deciding at once never both win. The mails (reviewers
 * asked; the requester told of the decision) are written to the outbox in that transaction.
 */
export class ReviewService {
  constructor(private readonly deps: ReviewDependencies) {}

  async detail(auth: AuthContext, itemId: number): Promise<ReviewDetail> {
    const item = visibleFile(auth, await this.deps.repo.item(itemId));
    return this.present(this.deps.repo, auth, item);
  }

  async change(
    auth: AuthContext,
    body: {
      itemId: number;
      action: ReviewAction;
      expectedState: ReviewState;
      note: string;
      reviewerIds?: number[];
    },
    language: Language,
  ): Promise<{ detail: ReviewDetail; change: ReviewChange | null }> {
    const now = this.deps.clock.now();
    const to = REVIEW_TRANSITIONS[body.action].to;
    const { detail, change, mailIds } = await this.deps.repo.transaction(async (repo, mails) => {
      const item = visibleFile(auth, await repo.item(body.itemId, true));
      if (item.review_state !== body.expectedState) {
        // The caller's own call sent twice (a double click, a retry) answers as the first did: the
        // latest change is that very action of theirs (not, say, their upload's new version).
        const last = await repo.lastEvent(item.id);
        if (item.review_state === to && last?.action === body.action && last.user_id === auth.userId)
          return { detail: await this.present(repo, auth, item), change: null, mailIds: [] };
        throw coded('SERV_01', { name: item.changed_by_name ?? '—' });
      }
      if (!mayTake(auth, item, body.action)) throw new AppError('SE_502');
      if (!startsFrom(body.action, item.review_state)) throw new AppError('SERV_02');
      const reviewers =
        body.action === 'request' ? await this.approvers(repo, item, body.reviewerIds ?? []) : [];
      if (body.action === 'request')
        await repo.replaceReviewers(
          item.id,
          reviewers.map((r) => r.id),
          auth.userId,
          now,
        );
      await repo.setState(item.id, to, auth.userId, now);
      const note = body.note;
      await repo.addEvent({
        itemId: item.id,
        action: body.action,
        from: item.review_state,
        to,
        userId: auth.userId,
        note,
        now,
      });
      const mailIds = await this.mailAbout(repo, mails, auth, item, body.action, note, reviewers, language);
      const after = { ...item, review_state: to, review_changed_at: now, review_changed_by: auth.userId };
      return {
        detail: await this.present(repo, auth, after),
        change: {
          action: body.action,
          itemId: item.id,
          name: item.name,
          from: item.review_state,
          to,
          note,
          reviewers: reviewers.map((r) => r.name),
        },
        mailIds,
      };
    });
    await this.deps.mail.enqueueAll(mailIds);
    // Otherwise the minute's pass tells them; a queue that refuses only delays it to that pass.
    if (change?.to === 'approved') await this.deps.nudgeWebhooks?.().catch(() => {});
    return { detail, change };
  }

  /**
   * A new version became the shown one of a file (issue 43): an approved file goes back to review
   * (unless REVIEW_NEW_VERSION_RETURNS is off), in the upload's transaction (`db`), and its last
   * reviewers who may still approve it are mailed. Answers the mails written, to queue after the
   * commit (`queue`).
   */
  async afterNewVersion(db: Db, itemId: number, userId: number, now: Date): Promise<number[]> {
    const { repo, mails } = this.deps.repo.on(db);
    const item = await repo.item(itemId, true);
    // In review: the reviewers are told (they would otherwise decide on what they saw before).
    // Approved: back to review, unless configured otherwise. Any other state: nothing to tell.
    const returns = item?.review_state === 'approved' && this.deps.returnOnNewVersion;
    if (!item || !(returns || item.review_state === 'inReview')) return [];
    if (returns) await repo.returnToReview(itemId, userId, now);
    await repo.addEvent({
      itemId,
      action: 'newVersion',
      from: item.review_state,
      to: 'inReview',
      userId,
      note: '',
      now,
    });
    const reviewers = await this.whoMayApprove(repo, item, await repo.reviewers(itemId));
    const by = (await repo.person(userId))?.name ?? '';
    // The uploader's language is not known here: the product's default language.
    return this.askReviewers(mails, reviewers, { by, userId, fileName: item.name, note: '', lang: 'zh' });
  }

  /** The mails asking `reviewers` to review a file (not the one asking), written to the outbox. */
  private async askReviewers(
    mails: MailRepository,
    reviewers: PersonRow[],
    ask: { by: string; userId: number; fileName: string; note: string; lang: MailLanguage },
  ): Promise<number[]> {
    const link = `${this.deps.appUrl}/review`;
    const ids: number[] = [];
    for (const reviewer of reviewers) {
      if (!reviewer.email || reviewer.id === ask.userId) continue;
      const content = {
        purpose: 'reviewRequest' as const,
        name: reviewer.name,
        by: ask.by,
        fileName: ask.fileName,
        note: ask.note,
        link,
      };
      ids.push(await this.deps.mail.write(mails, reviewer.email, content, ask.lang, ask.userId));
    }
    return ids;
  }

  /** Queues mails written by `afterNewVersion`, once its transaction has committed. */
  queue(mailIds: readonly number[]): Promise<void> {
    return this.deps.mail.enqueueAll(mailIds);
  }

  /** Approvers of the file the caller may name as its reviewers (they must be able to change it). */
  async candidates(auth: AuthContext, itemId: number, keyword?: string): Promise<ReviewerCandidate[]> {
    const item = visibleFile(auth, await this.deps.repo.item(itemId));
    if (!mayChangeFile(auth, item)) throw new AppError('SE_502');
    const rows = await this.deps.repo.approverCandidates(item.dept_path, {
      keyword,
      limit: CANDIDATES_SHOWN,
    });
    const approvers = await this.whoMayApprove(this.deps.repo, item, rows);
    return approvers.map((p) => ({ userId: p.id, name: p.name, deptName: p.dept_name }));
  }

  async todo(auth: AuthContext, paging: Paging): Promise<ReviewTodoPage> {
    const viewer = viewerOf(auth);
    const offset = (paging.pageNo - 1) * paging.pageSize;
    const [rows, total] = await Promise.all([
      this.deps.repo.todo(auth.userId, viewer, paging.pageSize, offset),
      this.deps.repo.todoCount(auth.userId, viewer),
    ]);
    const items = await this.deps.presenter.present(rows, auth);
    return {
      list: rows.map((row, i) => ({
        item: items[i] as ReviewTodoPage['list'][number]['item'],
        requestedBy:
          row.requested_by === null ? null : { userId: row.requested_by, name: row.requested_by_name ?? '' },
        requestedAt: row.requested_at.toISOString(),
      })),
      total,
      pageNo: paging.pageNo,
      pageSize: paging.pageSize,
    };
  }

  /** The reviewers named, each an approver of the file; the first who is not fails the call. */
  private async approvers(repo: ReviewRepository, item: ReviewItemRow, ids: readonly number[]) {
    const rows = await repo.approverCandidates(item.dept_path, { ids, limit: ids.length });
    const approvers = await this.whoMayApprove(repo, item, rows);
    const found = new Set(approvers.map((p) => p.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw invalidField('reviewerIds', 'notApprover', { value: missing });
    return approvers;
  }

  /** Of people holding the code within reach, those whose rights now let them approve this file. */
  private async whoMayApprove(repo: ReviewRepository, item: ReviewItemRow, people: PersonRow[]) {
    const allowed = await Promise.all(
      people.map(async (person) => {
        const roles = await repo.rolesOf(person.id, person.dept_id);
        const auth = sessionlessAuth(
          { id: person.id, deptId: person.dept_id, deptPath: person.dept_path },
          roles,
        );
        return mayApproveFile(auth, item);
      }),
    );
    return people.filter((_, i) => allowed[i]);
  }

  /** Mails of a change, written to the outbox in its transaction: their ids, to queue after it. */
  private async mailAbout(
    repo: ReviewRepository,
    mails: MailRepository,
    auth: AuthContext,
    item: ReviewItemRow,
    action: ReviewAction,
    note: string,
    reviewers: PersonRow[],
    language: Language,
  ): Promise<number[]> {
    const by = (await repo.person(auth.userId))?.name ?? '';
    const lang = mailLanguageOf(language);
    const ids: number[] = [];
    if (action === 'request') {
      ids.push(
        ...(await this.askReviewers(mails, reviewers, {
          by,
          userId: auth.userId,
          fileName: item.name,
          note,
          lang,
        })),
      );
    } else if (action === 'approve' || action === 'requestChanges') {
      const requesterId = (await repo.reviewers(item.id))[0]?.requested_by ?? null;
      const requester = requesterId === null ? undefined : await repo.person(requesterId);
      if (requester?.email && requester.id !== auth.userId) {
        const content = {
          purpose: 'reviewDecision' as const,
          name: requester.name,
          by,
          fileName: item.name,
          approved: action === 'approve',
          note,
          link: `${this.deps.appUrl}/allfiles/all`,
        };
        ids.push(await this.deps.mail.write(mails, requester.email, content, lang, auth.userId));
      }
    }
    return ids;
  }

  private async present(
    repo: ReviewRepository,
    auth: AuthContext,
    item: ReviewItemRow,
  ): Promise<ReviewDetail> {
    const [reviewers, history] = await Promise.all([
      repo.reviewers(item.id),
      repo.history(item.id, REVIEW_HISTORY_SHOWN),
    ]);
    const changedBy = item.review_changed_by;
    const changedByName =
      changedBy === null
        ? null
        : (history.find((e) => e.user_id === changedBy)?.user_name ?? item.changed_by_name);
    return {
      itemId: item.id,
      state: item.review_state,
      changedAt: item.review_changed_at?.toISOString() ?? null,
      changedBy: changedBy === null ? null : { userId: changedBy, name: changedByName ?? '' },
      reviewers: reviewers.map((r) => ({ userId: r.id, name: r.name })),
      history: history.map(
        (e): ReviewEvent => ({
          id: Number(e.id),
          action: e.action as ReviewEvent['action'],
          fromState: e.from_state,
          toState: e.to_state,
          userId: e.user_id,
          userName: e.user_name,
          note: e.note,
          at: e.created_at.toISOString(),
        }),
      ),
      actions: actionsFor(auth, item, item.review_state),
    };
  }
}

/** A live file the caller may see (else SE_404 / SEF_04); a folder has no review (SE_400). */
function visibleFile(auth: AuthContext, row: ReviewItemRow | undefined): ReviewItemRow {
  const item = requireLiveItem(auth, row);
  if (item.type === ItemType.folder) throw invalidField('itemId', 'invalidValue');
  return item;
}
