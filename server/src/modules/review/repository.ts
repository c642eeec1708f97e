import { FunctionCode, ItemState, type ReviewState, UserStatus } from '@dam/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { RoleRow } from '../../db/schema';
import { likeLiteral } from '../../db/sql-helpers';
import { type Viewer, visibleTo } from '../access/visibility.repository';
import { type ItemWithOwner, selectItems } from '../items/queries.repository';
import type { MailRepository } from '../mail/repository';

/** A file as the review rules look at it. */
export interface ReviewItemRow {
  id: number;
  type: number;
  state: number;
  name: string;
  owner_id: number;
  visibility: 'shared' | 'private';
  dept_path: string;
  review_state: ReviewState;
  review_changed_at: Date | null;
  review_changed_by: number | null;
  changed_by_name: string | null;
}

export interface PersonRow {
  id: number;
  name: string;
  email: string | null;
  dept_id: number | null;
  dept_path: string | null;
  dept_name: string | null;
}

export interface ReviewEventRow {
  id: string;
  action: string;
  from_state: ReviewState;
  to_state: ReviewState;
  user_id: number | null;
  user_name: string | null;
  note: string;
  created_at: Date;
}

export interface NewReviewEvent {
  itemId: number;
  action: string;
  from: ReviewState;
  to: ReviewState;
  userId: number;
  note: string;
  now: Date;
}

/** A "to review" entry: the file, and who asked when. */
export type TodoRow = ItemWithOwner & {
  requested_at: Date;
  requested_by: number | null;
  requested_by_name: string | null;
};

/** SQL of file review (issue 43 item 2, migration 040). */
export class ReviewRepository {
  constructor(
    private readonly db: Db,
    /** The mail outbox on a handle given (a transaction), injected by the wiring. */
    private readonly mails: (db: Db) => MailRepository,
    /** The roles that apply to a user (their own and their department's). */
    private readonly roles: (db: Db, userId: number, deptId: number | null) => Promise<RoleRow[]>,
  ) {}

  /** This repository on another handle (a transaction of another module), with the outbox on it. */
  on(handle: Db): { repo: ReviewRepository; mails: MailRepository } {
    return { repo: new ReviewRepository(handle, this.mails, this.roles), mails: this.mails(handle) };
  }

  /** The file back in review (a new version of an approved file). */
  async returnToReview(id: number, userId: number, now: Date): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ review_state: 'inReview', review_changed_at: now, review_changed_by: userId })
      .where('id', '=', id)
      .execute();
  }

  /** The latest change of the file's review: what, by whom. */
  lastEvent(itemId: number): Promise<{ action: string; user_id: number | null } | undefined> {
    return this.db
      .selectFrom('review_events')
      .select(['action', 'user_id'])
      .where('item_id', '=', itemId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** One transaction; `mails` writes to the outbox inside it. */
  transaction<T>(work: (repo: ReviewRepository, mails: MailRepository) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx) => work(new ReviewRepository(trx, this.mails, this.roles), this.mails(trx)));
  }

  /** The file with its review columns; `lock` holds its row until the transaction ends. */
  async item(id: number, lock = false): Promise<ReviewItemRow | undefined> {
    // NO KEY: rows pointing at the file (tags, records, favourites) may still be written meanwhile.
    if (lock) await this.db.selectFrom('items').select('id').where('id', '=', id).forNoKeyUpdate().execute();
    return this.db
      .selectFrom('items')
      .leftJoin('users as c', 'c.id', 'items.review_changed_by')
      .select([
        'items.id',
        'items.type',
        'items.state',
        'items.name',
        'items.owner_id',
        'items.visibility',
        'items.dept_path',
        'items.review_state',
        'items.review_changed_at',
        'items.review_changed_by',
        'c.name as changed_by_name',
      ])
      .where('items.id', '=', id)
      .executeTakeFirst() as Promise<ReviewItemRow | undefined>;
  }

  async setState(id: number, state: ReviewState, userId: number, now: Date): Promise<void> {
    await this.db
      .updateTable('items')
      .set({ review_state: state, review_changed_at: now, review_changed_by: userId })
      .where('id', '=', id)
      .execute();
  }

  async addEvent(event: NewReviewEvent): Promise<void> {
    await this.db
      .insertInto('review_events')
      .values({
        item_id: event.itemId,
        action: event.action,
        from_state: event.from,
        to_state: event.to,
        user_id: event.userId,
        note: event.note,
        created_at: event.now,
      })
      .execute();
  }

  /** The reviewers of the new request replace those of the last. */
  async replaceReviewers(itemId: number, userIds: readonly number[], by: number, now: Date): Promise<void> {
    await this.db.deleteFrom('item_reviewers').where('item_id', '=', itemId).execute();
    if (userIds.length === 0) return;
    await this.db
      .insertInto('item_reviewers')
      .values(
        userIds.map((userId) => ({ item_id: itemId, user_id: userId, requested_by: by, requested_at: now })),
      )
      .execute();
  }

  /** Who was asked in the current (or last) request, by name. */
  reviewers(itemId: number): Promise<Array<PersonRow & { requested_by: number | null }>> {
    return this.people()
      .innerJoin('item_reviewers as r', 'r.user_id', 'u.id')
      .select('r.requested_by')
      .where('r.item_id', '=', itemId)
      .where('u.status', '=', UserStatus.normal)
      .orderBy('u.name')
      .execute();
  }

  history(itemId: number, limit: number): Promise<ReviewEventRow[]> {
    return this.db
      .selectFrom('review_events as e')
      .leftJoin('users as u', 'u.id', 'e.user_id')
      .select([
        sql<string>`e.id::text`.as('id'),
        'e.action',
        'e.from_state',
        'e.to_state',
        'e.user_id',
        'u.name as user_name',
        'e.note',
        'e.created_at',
      ])
      .where('e.item_id', '=', itemId)
      .orderBy('e.id', 'desc')
      .limit(limit)
      .execute() as Promise<ReviewEventRow[]>;
  }

  private people() {
    return this.db
      .selectFrom('users as u')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id', 'u.name', 'u.email', 'u.dept_id', 'd.path as dept_path', 'd.name as dept_name']);
  }

  person(id: number): Promise<PersonRow | undefined> {
    return this.people().where('u.id', '=', id).where('u.status', '=', UserStatus.normal).executeTakeFirst();
  }

  /**
   * Accounts in use holding the approval code (by a role of their own or of their department)
   * whose department contains `itemDeptPath`: those who may approve a file there, before the file
   * rights (checked per person by the service). `ids` narrows to those asked for.
   */
  approverCandidates(
    itemDeptPath: string,
    options: { keyword?: string; ids?: readonly number[]; limit: number },
  ): Promise<PersonRow[]> {
    const code = sql.lit(FunctionCode.review);
    let query = this.people()
      .where('u.status', '=', UserStatus.normal)
      .where('d.path', 'is not', null)
      .where(sql<boolean>`${itemDeptPath} LIKE (d.path || '%')`)
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom('user_roles as ur')
              .innerJoin('roles as r', 'r.id', 'ur.role_id')
              .select(sql`1`.as('one'))
              .whereRef('ur.user_id', '=', 'u.id')
              .where(sql<boolean>`${code} = ANY (r.function_codes)`),
          ),
          eb.exists(
            eb
              .selectFrom('department_roles as dr')
              .innerJoin('roles as r', 'r.id', 'dr.role_id')
              .select(sql`1`.as('one'))
              .whereRef('dr.dept_id', '=', 'u.dept_id')
              .where(sql<boolean>`${code} = ANY (r.function_codes)`),
          ),
        ]),
      );
    if (options.ids) query = query.where('u.id', 'in', options.ids.length ? [...options.ids] : [0]);
    if (options.keyword) {
      const pattern = `%${likeLiteral(options.keyword.toLowerCase())}%`;
      query = query.where((eb) =>
        eb.or([
          eb(sql`lower(u.name)`, 'like', pattern),
          eb(sql`lower(coalesce(u.username, ''))`, 'like', pattern),
        ]),
      );
    }
    return query.orderBy('u.name').orderBy('u.id').limit(options.limit).execute();
  }

  rolesOf(userId: number, deptId: number | null): Promise<RoleRow[]> {
    return this.roles(this.db, userId, deptId);
  }

  /** The caller's "to review" page: live files in review they were asked to review and may see. */
  todo(userId: number, viewer: Viewer, limit: number, offset: number): Promise<TodoRow[]> {
    return this.todoQuery(userId, viewer)
      .innerJoin('item_reviewers as r', 'r.item_id', 'items.id')
      .leftJoin('users as q', 'q.id', 'r.requested_by')
      .select(['r.requested_at', 'r.requested_by', 'q.name as requested_by_name'])
      .where('r.user_id', '=', userId)
      .orderBy('r.requested_at')
      .orderBy('items.id')
      .limit(limit)
      .offset(offset)
      .execute() as unknown as Promise<TodoRow[]>;
  }

  async todoCount(userId: number, viewer: Viewer): Promise<number> {
    const row = await this.db
      .selectFrom('items')
      .innerJoin('item_reviewers as r', 'r.item_id', 'items.id')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('r.user_id', '=', userId)
      .where('items.review_state', '=', sql.lit('inReview'))
      .where('items.state', '=', sql.lit(ItemState.normal))
      .where((eb) => visibleTo(eb, viewer))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private todoQuery(userId: number, viewer: Viewer) {
    return selectItems(this.db, userId)
      .where('items.review_state', '=', sql.lit('inReview'))
      .where('items.state', '=', sql.lit(ItemState.normal))
      .where((eb) => visibleTo(eb, viewer));
  }
}
