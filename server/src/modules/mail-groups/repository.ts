import { UserStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { likeLiteral } from '../../db/sql-helpers';

/** A group with its department, maker and member count (live users and external addresses). */
export interface MailGroupRecord {
  id: number;
  name: string;
  dept_id: number | null;
  dept_name: string | null;
  /** The group's department path (null: its maker had no department). */
  dept_path: string | null;
  created_by_name: string | null;
  created_at: Date;
  updated_at: Date;
  member_count: number;
}

/** Which groups a query reaches: every one, those of departments under a path, or none. */
export type GroupReach = { kind: 'all' } | { kind: 'subtree'; pathPrefix: string } | { kind: 'none' };

export interface MemberRecord {
  user_id: number;
  name: string;
  email: string | null;
  dept_name: string | null;
}

/** A live user being added to a group, with what the reach check needs. */
export interface CandidateRecord {
  id: number;
  dept_path: string | null;
}

/** SQL of mail groups, their users and external addresses. */
export class MailGroupsRepository {
  constructor(private readonly db: Db | Kysely<Database>) {}

  /** One transaction: a save or a deletion as a whole. */
  transaction<T>(work: (repo: MailGroupsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new MailGroupsRepository(trx)));
  }

  private selectGroups() {
    return this.db
      .selectFrom('mail_groups as g')
      .leftJoin('departments as d', 'd.id', 'g.dept_id')
      .leftJoin('users as maker', 'maker.id', 'g.created_by')
      .select([
        'g.id',
        'g.name',
        'g.dept_id',
        'd.name as dept_name',
        'd.path as dept_path',
        'maker.name as created_by_name',
        'g.created_at',
        'g.updated_at',
        sql<string>`(SELECT count(*) FROM mail_group_users gu JOIN users u ON u.id = gu.user_id
          WHERE gu.group_id = g.id AND u.status = ${sql.lit(UserStatus.normal)})
          + (SELECT count(*) FROM mail_group_addresses ga WHERE ga.group_id = g.id)`.as('member_count'),
      ]);
  }

  private static toRecord(row: Record<string, unknown>): MailGroupRecord {
    const record = row as unknown as MailGroupRecord;
    return { ...record, member_count: Number(record.member_count) };
  }

  private reached(reach: GroupReach, keyword: string | undefined) {
    let query = this.selectGroups();
    if (reach.kind === 'none') query = query.where(sql<boolean>`false`);
    // Paths hold only digits and slashes, so the prefix needs no LIKE escaping.
    if (reach.kind === 'subtree') query = query.where('d.path', 'like', `${reach.pathPrefix}%`);
    if (keyword) query = query.where(sql`lower(g.name)`, 'like', `%${likeLiteral(keyword.toLowerCase())}%`);
    return query;
  }

  /** The query of one page of the groups within `reach`, by name (the plan test reads it). */
  listGroupsQuery(reach: GroupReach, keyword: string | undefined, offset: number, limit: number) {
    return this.reached(reach, keyword).orderBy(sql`lower(g.name)`).offset(offset).limit(limit);
  }

  /** One page of the groups within `reach`, by name. */
  async listGroups(
    reach: GroupReach,
    keyword: string | undefined,
    offset: number,
    limit: number,
  ): Promise<MailGroupRecord[]> {
    const rows = await this.listGroupsQuery(reach, keyword, offset, limit).execute();
    return rows.map(MailGroupsRepository.toRecord);
  }

  async countGroups(reach: GroupReach, keyword: string | undefined): Promise<number> {
    const row = await this.reached(reach, keyword)
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Groups someone of department `deptPath` may send to: those of their department, of the
   * departments above it and of those below it; with `everything`, every group.
   */
  async usableGroups(
    line: { everything: true } | { everything: false; deptPath: string },
    keyword: string | undefined,
    limit: number,
  ): Promise<MailGroupRecord[]> {
    let query = this.reached({ kind: 'all' }, keyword);
    if (!line.everything) {
      const path = line.deptPath;
      query = query.where((eb) =>
        eb.or([eb('d.path', 'like', `${path}%`), eb(sql<boolean>`starts_with(${path}, d.path)`, '=', true)]),
      );
    }
    const rows = await query.orderBy(sql`lower(g.name)`).limit(limit).execute();
    return rows.map(MailGroupsRepository.toRecord);
  }

  /** A group, or undefined; `lock` holds it until the transaction ends (a save or deletion). */
  async findGroup(id: number, lock = false): Promise<MailGroupRecord | undefined> {
    let query = this.selectGroups().where('g.id', '=', id);
    if (lock) query = query.forUpdate('g');
    const row = await query.executeTakeFirst();
    return row ? MailGroupsRepository.toRecord(row) : undefined;
  }

  /** Whether another group (not `exceptId`) has this name, whatever its case. */
  async nameTaken(name: string, exceptId: number | null): Promise<boolean> {
    let query = this.db
      .selectFrom('mail_groups')
      .select('id')
      .where(sql`lower(name)`, '=', name.toLowerCase());
    if (exceptId !== null) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** The first `perGroup` names of each group: live users by name, then external addresses. */
  async previewNames(groupIds: readonly number[], perGroup: number): Promise<Map<number, string[]>> {
    const names = new Map<number, string[]>(groupIds.map((id) => [id, []]));
    if (groupIds.length === 0) return names;
    const ids = sql.join(groupIds.map((id) => sql`${id}`));
    const rows = await sql<{ group_id: number; name: string }>`
      SELECT group_id, name FROM (
        SELECT m.group_id, m.name, row_number() OVER (PARTITION BY m.group_id ORDER BY m.kind, m.sort, m.name) AS n
        FROM (
          SELECT gu.group_id, u.name, 0 AS kind, lower(u.name) AS sort
          FROM mail_group_users gu JOIN users u ON u.id = gu.user_id
          WHERE gu.group_id IN (${ids}) AND u.status = ${sql.lit(UserStatus.normal)}
          UNION ALL
          SELECT ga.group_id, ga.email, 1, ga.email FROM mail_group_addresses ga WHERE ga.group_id IN (${ids})
        ) m
      ) ranked
      WHERE n <= ${perGroup}
      ORDER BY group_id, n`.execute(this.db);
    for (const row of rows.rows) names.get(row.group_id)?.push(row.name);
    return names;
  }

  /** The live users of a group, by name. */
  members(groupId: number): Promise<MemberRecord[]> {
    return this.db
      .selectFrom('mail_group_users as gu')
      .innerJoin('users as u', 'u.id', 'gu.user_id')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id as user_id', 'u.name', 'u.email', 'd.name as dept_name'])
      .where('gu.group_id', '=', groupId)
      .where('u.status', '=', UserStatus.normal)
      .orderBy(sql`lower(u.name)`)
      .orderBy('u.id')
      .execute();
  }

  /** Every user id of a group, deleted users included. */
  async userIds(groupId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('mail_group_users')
      .select('user_id')
      .where('group_id', '=', groupId)
      .execute();
    return rows.map((row) => row.user_id);
  }

  async addresses(groupId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('mail_group_addresses')
      .select('email')
      .where('group_id', '=', groupId)
      .orderBy('email')
      .execute();
    return rows.map((row) => row.email);
  }

  /** The live users among `ids`, with their department's path. */
  liveUsers(ids: readonly number[]): Promise<CandidateRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('users as u')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id', 'd.path as dept_path'])
      .where('u.id', 'in', ids)
      .where('u.status', '=', UserStatus.normal)
      .execute();
  }

  async insertGroup(values: {
    name: string;
    deptId: number | null;
    userId: number;
    now: Date;
  }): Promise<number> {
    const { id } = await this.db
      .insertInto('mail_groups')
      .values({
        name: values.name,
        dept_id: values.deptId,
        created_by: values.userId,
        updated_by: values.userId,
        created_at: values.now,
        updated_at: values.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async renameGroup(id: number, name: string, userId: number, now: Date): Promise<void> {
    await this.db
      .updateTable('mail_groups')
      .set({ name, updated_by: userId, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** The group's users become exactly `userIds`. */
  async setUsers(groupId: number, userIds: readonly number[]): Promise<void> {
    let removal = this.db.deleteFrom('mail_group_users').where('group_id', '=', groupId);
    if (userIds.length > 0) removal = removal.where('user_id', 'not in', userIds);
    await removal.execute();
    if (userIds.length === 0) return;
    await this.db
      .insertInto('mail_group_users')
      .values(userIds.map((user_id) => ({ group_id: groupId, user_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** The group's external addresses become exactly `emails` (lower case). */
  async setAddresses(groupId: number, emails: readonly string[]): Promise<void> {
    let removal = this.db.deleteFrom('mail_group_addresses').where('group_id', '=', groupId);
    if (emails.length > 0) removal = removal.where('email', 'not in', emails);
    await removal.execute();
    if (emails.length === 0) return;
    await this.db
      .insertInto('mail_group_addresses')
      .values(emails.map((email) => ({ group_id: groupId, email })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** Deletes a group with its members; false when it was already gone. */
  async deleteGroup(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('mail_groups').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
