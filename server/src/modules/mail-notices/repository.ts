import { ItemState, UploadStatus, UserStatus } from '@dam/contract';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { MailNoticeTable } from '../../db/schema';
import { likeLiteral } from '../../db/sql-helpers';
import type { MailRepository } from '../mail/repository';

/** A notice as stored. */
export type NoticeRow = Selectable<MailNoticeTable>;

export interface NoticeInput {
  batchNum: string;
  userId: number;
  groupIds: number[];
  userIds: number[];
  subject: string;
  content: string;
  remark: string;
  delayHours: number;
  language: string;
  now: Date;
}

/** Where a batch stands: uploads still open, files made, and when its last upload ended. */
export interface BatchState {
  open: number;
  done: number;
  previewsPending: number;
  endedAt: Date | null;
}

/** One recipient, by address (lower case); `name` for a user of the company, null for an address. */
export interface NoticeRecipient {
  email: string;
  name: string | null;
}

/** A file of a batch as a notice shows it. */
export interface NoticeFile {
  itemId: number;
  name: string;
  thumbKey: string | null;
  folderId: number | null;
}

/** SQL of upload mail notices (migration 018). */
export class MailNoticesRepository {
  /** `mails`: the mail outbox's repository on a handle (a transaction) given, injected by the wiring. */
  constructor(
    private readonly db: Db,
    private readonly mails: (db: Db) => MailRepository,
  ) {}

  /** One transaction; `mails` writes to the outbox inside it. */
  transaction<T>(work: (repo: MailNoticesRepository, mails: MailRepository) => Promise<T>): Promise<T> {
    return this.db
      .transaction()
      .execute((trx) => work(new MailNoticesRepository(trx, this.mails), this.mails(trx)));
  }

  /** Who made a batch (any of its records), or undefined when there is no such batch. */
  async batchOwner(batchNum: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('uploads')
      .select('user_id')
      .where('batch_num', '=', batchNum)
      .limit(1)
      .executeTakeFirst();
    return row?.user_id;
  }

  /**
   * The batch's notice, written or replaced while it is still scheduled; a notice already
   * dispatched is left as it is (answered with `replaced: false`).
   */
  async upsert(input: NoticeInput): Promise<{ id: number; replaced: boolean }> {
    const row = await this.db
      .insertInto('mail_notices')
      .values({
        batch_num: input.batchNum,
        user_id: input.userId,
        mail_group_ids: input.groupIds,
        user_ids: input.userIds,
        subject: input.subject,
        content: input.content,
        remark: input.remark,
        delay_hours: input.delayHours,
        language: input.language,
        created_at: input.now,
        updated_at: input.now,
      })
      .onConflict((oc) =>
        oc
          .column('batch_num')
          .doUpdateSet((eb) => ({
            mail_group_ids: eb.ref('excluded.mail_group_ids'),
            user_ids: eb.ref('excluded.user_ids'),
            subject: eb.ref('excluded.subject'),
            content: eb.ref('excluded.content'),
            remark: eb.ref('excluded.remark'),
            delay_hours: eb.ref('excluded.delay_hours'),
            language: eb.ref('excluded.language'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where('mail_notices.state', '=', 'scheduled'),
      )
      .returning('id')
      .executeTakeFirst();
    if (row) return { id: row.id, replaced: true };
    const existing = await this.db
      .selectFrom('mail_notices')
      .select('id')
      .where('batch_num', '=', input.batchNum)
      .executeTakeFirstOrThrow();
    return { id: existing.id, replaced: false };
  }

  find(id: number) {
    return this.db.selectFrom('mail_notices').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByBatches(batchNums: readonly string[]) {
    if (batchNums.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('mail_notices').selectAll().where('batch_num', 'in', batchNums).execute();
  }

  /** Notices still waiting, oldest first (a handful at any time: they go once their batch ends). */
  scheduled(limit: number) {
    return this.db
      .selectFrom('mail_notices')
      .selectAll()
      .where('state', '=', 'scheduled')
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** Whether a batch has a notice waiting (a media job of the batch then asks for a pass). */
  async waitingForBatch(batchNum: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('mail_notices')
      .select('id')
      .where('batch_num', '=', batchNum)
      .where('state', '=', 'scheduled')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Where each of these batches stands, in one grouped query (by the uploads' batch index). */
  async batchStates(batchNums: readonly string[]): Promise<Map<string, BatchState>> {
    if (batchNums.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('uploads')
      .select((eb) => [
        'batch_num',
        eb.fn
          .countAll<string>()
          .filterWhere('status', 'in', [UploadStatus.waiting, UploadStatus.uploading])
          .as('open'),
        eb.fn.countAll<string>().filterWhere('status', '=', UploadStatus.done).as('done'),
        eb.fn
          .countAll<string>()
          .filterWhere((w) => w.and([w('status', '=', UploadStatus.done), w('preview_status', '=', 0)]))
          .as('pending'),
        eb.fn.max(sql<Date>`coalesce(completed_at, updated_at)`).as('ended_at'),
      ])
      .where('batch_num', 'in', batchNums)
      .groupBy('batch_num')
      .execute();
    return new Map(
      rows.map((row) => [
        row.batch_num,
        {
          open: Number(row.open),
          done: Number(row.done),
          previewsPending: Number(row.pending),
          endedAt: row.ended_at ? new Date(row.ended_at) : null,
        },
      ]),
    );
  }

  /** The batch's files still live, in upload order: the first `limit`, and how many there are. */
  async batchFiles(batchNum: string, limit: number): Promise<{ files: NoticeFile[]; total: number }> {
    const live = this.db
      .selectFrom('uploads as u')
      .innerJoin('items as i', 'i.id', 'u.item_id')
      .where('u.batch_num', '=', batchNum)
      .where('u.status', '=', UploadStatus.done)
      .where('i.state', '=', ItemState.normal);
    const [rows, count] = await Promise.all([
      live
        .select(['i.id as item_id', 'u.file_name', 'u.thumb_key', 'i.parent_id'])
        .orderBy('u.id')
        .limit(limit)
        .execute(),
      live.select((eb) => eb.fn.count<string>('i.id').distinct().as('n')).executeTakeFirstOrThrow(),
    ]);
    const seen = new Set<number>();
    const files: NoticeFile[] = [];
    for (const row of rows) {
      // Two uploads of one batch can join one file (a new version): it is listed once.
      if (seen.has(row.item_id)) continue;
      seen.add(row.item_id);
      files.push({
        itemId: row.item_id,
        name: row.file_name,
        thumbKey: row.thumb_key,
        folderId: row.parent_id,
      });
    }
    return { files, total: Number(count.n) };
  }

  /** The picture a notice's link shows: the file's preview, else its thumbnail, if still live. */
  async linkedPicture(batchNum: string, itemId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('uploads as u')
      .innerJoin('items as i', 'i.id', 'u.item_id')
      .select(['u.preview_key', 'u.thumb_key'])
      .where('u.batch_num', '=', batchNum)
      .where('u.item_id', '=', itemId)
      .where('u.status', '=', UploadStatus.done)
      .where('i.state', '=', ItemState.normal)
      .orderBy('u.id', 'desc')
      .executeTakeFirst();
    return row?.preview_key ?? row?.thumb_key ?? null;
  }

  /**
   * Everyone a notice goes to, once each by address: the chosen users and the live members of
   * the chosen groups (both with an address), and the groups' external addresses.
   */
  async recipients(groupIds: readonly number[], userIds: readonly number[]): Promise<NoticeRecipient[]> {
    const people =
      groupIds.length === 0 && userIds.length === 0
        ? []
        : await this.db
            .selectFrom('users')
            .select(['email', 'name'])
            .where('status', '=', UserStatus.normal)
            .where('email', 'is not', null)
            .where((eb) =>
              eb.or([
                ...(userIds.length > 0 ? [eb('id', 'in', userIds)] : []),
                ...(groupIds.length > 0
                  ? [
                      eb(
                        'id',
                        'in',
                        eb.selectFrom('mail_group_users').select('user_id').where('group_id', 'in', groupIds),
                      ),
                    ]
                  : []),
              ]),
            )
            .orderBy('id')
            .execute();
    const addresses =
      groupIds.length === 0
        ? []
        : await this.db
            .selectFrom('mail_group_addresses')
            .select('email')
            .where('group_id', 'in', groupIds)
            .orderBy('email')
            .execute();
    const byAddress = new Map<string, NoticeRecipient>();
    for (const person of people) {
      const email = (person.email as string).toLowerCase();
      if (!byAddress.has(email)) byAddress.set(email, { email, name: person.name });
    }
    for (const { email } of addresses) {
      if (!byAddress.has(email)) byAddress.set(email, { email, name: null });
    }
    return [...byAddress.values()];
  }

  /** Live users with an address in the departments of `line` (null: everyone), by name. */
  async notifiableUsers(
    line: { deptPath: string } | null,
    keyword: string | undefined,
    limit: number,
    onlyIds?: readonly number[],
  ) {
    let query = this.db
      .selectFrom('users as u')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id', 'u.name', 'u.email', 'd.name as dept_name'])
      .where('u.status', '=', UserStatus.normal)
      .where('u.email', 'is not', null);
    if (line) {
      const path = line.deptPath;
      // Their own department, those above it and those below it: as for the groups they may use.
      query = query.where((eb) =>
        eb.or([eb('d.path', 'like', `${path}%`), eb(sql<boolean>`starts_with(${path}, d.path)`, '=', true)]),
      );
    }
    if (onlyIds) query = query.where('u.id', 'in', onlyIds.length > 0 ? onlyIds : [0]);
    if (keyword) {
      const pattern = `%${likeLiteral(keyword)}%`;
      query = query.where((eb) => eb.or([eb('u.name', 'ilike', pattern), eb('u.email', 'ilike', pattern)]));
    }
    return query.orderBy('u.name').orderBy('u.id').limit(limit).execute();
  }

  /** Marks a scheduled notice dispatched; false when another tick got there first. */
  async claim(id: number, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('mail_notices')
      .set({ state: 'dispatched', dispatched_at: now, updated_at: now })
      .where('id', '=', id)
      .where('state', '=', 'scheduled')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recordMails(id: number, mailIds: number[], recipients: number): Promise<void> {
    await this.db
      .updateTable('mail_notices')
      .set({ mail_ids: mailIds, recipients })
      .where('id', '=', id)
      .execute();
  }

  /** How the mails of notices went, per notice. */
  async mailStates(mailIds: readonly number[]) {
    if (mailIds.length === 0) return [];
    return this.db
      .selectFrom('mails')
      .select(['id', 'state', 'last_error', 'sent_at'])
      .where('id', 'in', mailIds)
      .execute();
  }

  folder(id: number) {
    return this.db
      .selectFrom('items')
      .select(['folder_path', 'name'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async userName(id: number): Promise<string> {
    const row = await this.db.selectFrom('users').select('name').where('id', '=', id).executeTakeFirst();
    return row?.name ?? '';
  }
}
