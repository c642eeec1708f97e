import { UserStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../../db/database';
import type { Database } from '../../../db/schema';
import { likeLiteral } from '../../../db/sql-helpers';
import type { RolesRepository } from '../../accounts/roles.repository';
import type {
  ApiAccessFilter,
  ApiAccessRecord,
  EnterpriseRecord,
  MailUserRecord,
  NewApiAccess,
  UsageDayRecord,
  UsageTotals,
} from './records';

export type {
  ApiAccessFilter,
  ApiAccessRecord,
  EnterpriseRecord,
  MailUserRecord,
  NewApiAccess,
  UsageDayRecord,
  UsageTotals,
} from './records';

/** SQL of open API enterprises, their allowed calls, access records and their daily counts. */
export class OpenAdminRepository {
  /** The roles of a record's user, read on this repository's connection (inside its transaction). */
  readonly roles: RolesRepository;
  constructor(
    private readonly db: Db | Kysely<Database>,
    private readonly rolesOn: (db: Db | Kysely<Database>) => RolesRepository,
  ) {
    this.roles = rolesOn(db);
  }

  /** One transaction: a save, rotation or deletion as a whole. */
  transaction<T>(work: (repo: OpenAdminRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new OpenAdminRepository(trx, this.rolesOn)));
  }

  // ── Access records ───────────────────────────────────────────────────────────────────────

  private selectAccesses() {
    return this.db
      .selectFrom('api_accesses as a')
      .innerJoin('api_enterprises as e', 'e.enterprise_id', 'a.enterprise_id')
      .innerJoin('users as u', 'u.id', 'a.run_as_user_id')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select([
        'a.id',
        'a.key_id',
        'a.name',
        'a.description',
        'a.enterprise_id',
        'e.name as enterprise_name',
        'a.user_mail',
        'a.run_as_user_id',
        'u.name as user_name',
        'd.path as user_dept_path',
        'u.dept_id as user_dept_id',
        'a.status',
        'a.secret_hint',
        'a.previous_valid_until',
        'a.last_used_at',
        'a.last_used_ip',
        'a.created_at',
        'a.updated_at',
      ])
      .where('a.deleted_at', 'is', null);
  }

  private filtered(filter: ApiAccessFilter) {
    let query = this.selectAccesses();
    const { reach } = filter;
    if (reach.kind === 'none') query = query.where(sql<boolean>`false`);
    // Paths hold only digits and slashes, so the prefix needs no LIKE escaping.
    if (reach.kind === 'subtree') query = query.where('d.path', 'like', `${reach.pathPrefix}%`);
    if (filter.enterpriseId) query = query.where('a.enterprise_id', '=', filter.enterpriseId);
    if (filter.keyword) {
      const pattern = `%${likeLiteral(filter.keyword)}%`;
      query = query.where((eb) =>
        eb.or([
          eb('a.name', 'ilike', pattern),
          eb('a.description', 'ilike', pattern),
          eb('a.user_mail', 'ilike', pattern),
        ]),
      );
    }
    return query;
  }

  /** The query of one page of the live records within the filter, newest first (the plan test reads it). */
  listAccessesQuery(filter: ApiAccessFilter, offset: number, limit: number) {
    return this.filtered(filter)
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .offset(offset)
      .limit(limit);
  }

  /** One page of the live records within the filter, newest first (index api_accesses_listing). */
  listAccesses(filter: ApiAccessFilter, offset: number, limit: number): Promise<ApiAccessRecord[]> {
    return this.listAccessesQuery(filter, offset, limit).execute();
  }

  async countAccesses(filter: ApiAccessFilter): Promise<number> {
    const row = await this.filtered(filter)
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A live record, or undefined; `lock` holds its row until the transaction ends. */
  findAccess(id: number, lock = false): Promise<ApiAccessRecord | undefined> {
    let query = this.selectAccesses().where('a.id', '=', id);
    if (lock) query = query.forUpdate('a');
    return query.executeTakeFirst();
  }

  /** The sealed current secret of a live record (for a rotation with a grace period). */
  async sealedSecret(id: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('api_accesses')
      .select('secret_enc')
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.secret_enc;
  }

  /**
   * Counts of the records `ids` in one grouped query: calls on `today`, and calls and failures
   * from `from` to `today` (both UTC dates, inclusive).
   */
  async usageTotals(ids: readonly number[], from: string, today: string): Promise<Map<number, UsageTotals>> {
    const totals = new Map<number, UsageTotals>();
    if (ids.length === 0) return totals;
    const rows = await this.db
      .selectFrom('api_usage_daily')
      .select([
        'access_id',
        sql<string>`coalesce(sum(calls) FILTER (WHERE day = ${today}::date), 0)`.as('calls_today'),
        sql<string>`coalesce(sum(calls), 0)`.as('calls'),
        sql<string>`coalesce(sum(failures), 0)`.as('failures'),
      ])
      .where('access_id', 'in', ids)
      .where(sql<boolean>`day BETWEEN ${from}::date AND ${today}::date`)
      .groupBy('access_id')
      .execute();
    for (const row of rows)
      totals.set(row.access_id, {
        callsToday: Number(row.calls_today),
        calls: Number(row.calls),
        failures: Number(row.failures),
      });
    return totals;
  }

  /** The record's counts per day and call from `from` on, newest day first. */
  async usageDays(id: number, from: string): Promise<UsageDayRecord[]> {
    const rows = await this.db
      .selectFrom('api_usage_daily')
      .select(['day', 'call_code', 'calls', 'failures'])
      .where('access_id', '=', id)
      .where(sql<boolean>`day >= ${from}::date`)
      .orderBy('day', 'desc')
      .orderBy('call_code')
      .execute();
    return rows.map((row) => ({ ...row, day: String(row.day) }));
  }

  /**
   * The user a mail names: the live account holding it (the mail is unique among them), else a
   * deleted account that held it, else undefined.
   */
  async userByMail(mail: string): Promise<MailUserRecord | undefined> {
    return this.db
      .selectFrom('users as u')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id', 'u.name', 'u.status', 'u.dept_id', 'd.path as dept_path'])
      .where(sql`lower(u.email)`, '=', mail.toLowerCase())
      .orderBy(sql`u.status = ${sql.lit(UserStatus.normal)}`, 'desc')
      .orderBy('u.id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Inserts a record; undefined when its key id is taken (drawn again by the caller). */
  async insertAccess(values: NewApiAccess): Promise<number | undefined> {
    const row = await this.db
      .insertInto('api_accesses')
      .values({
        key_id: values.keyId,
        name: values.name,
        description: values.description,
        enterprise_id: values.enterpriseId,
        user_mail: values.userMail,
        run_as_user_id: values.runAsUserId,
        status: values.status,
        secret_enc: values.secretEnc,
        secret_hint: values.secretHint,
        created_by: values.createdBy,
        created_at: values.now,
        updated_at: values.now,
      })
      .onConflict((oc) => oc.column('key_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async updateAccess(
    id: number,
    values: {
      name: string;
      description: string;
      enterpriseId: string;
      userMail: string;
      runAsUserId: number;
      status: number;
      now: Date;
    },
  ): Promise<void> {
    await this.db
      .updateTable('api_accesses')
      .set({
        name: values.name,
        description: values.description,
        enterprise_id: values.enterpriseId,
        user_mail: values.userMail,
        run_as_user_id: values.runAsUserId,
        status: values.status,
        updated_at: values.now,
      })
      .where('id', '=', id)
      .execute();
  }

  /** A new secret; the old one kept until `previousValidUntil` (null: dropped). */
  async rotateSecret(
    id: number,
    values: {
      secretEnc: string;
      secretHint: string;
      previousSecretEnc: string | null;
      previousValidUntil: Date | null;
      now: Date;
    },
  ): Promise<void> {
    await this.db
      .updateTable('api_accesses')
      .set({
        secret_enc: values.secretEnc,
        secret_hint: values.secretHint,
        previous_secret_enc: values.previousSecretEnc,
        previous_valid_until: values.previousValidUntil,
        rotated_at: values.now,
        updated_at: values.now,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Marks a record deleted (its key stops at once); false when it already was. */
  async softDeleteAccess(id: number, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('api_accesses')
      .set({ deleted_at: now, updated_at: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  // ── Enterprises ──────────────────────────────────────────────────────────────────────────

  private selectEnterprises() {
    return this.db.selectFrom('api_enterprises as e').select([
      'e.enterprise_id',
      'e.name',
      'e.rate_per_minute',
      'e.updated_at',
      sql<string>`(SELECT count(*) FROM api_accesses a
          WHERE a.enterprise_id = e.enterprise_id AND a.deleted_at IS NULL)`.as('access_count'),
    ]);
  }

  private static toEnterprise(row: Record<string, unknown>): EnterpriseRecord {
    const record = row as unknown as EnterpriseRecord;
    return { ...record, access_count: Number(record.access_count) };
  }

  /** Every enterprise, by ID. */
  async enterprises(): Promise<EnterpriseRecord[]> {
    const rows = await this.selectEnterprises().orderBy('e.enterprise_id').execute();
    return rows.map(OpenAdminRepository.toEnterprise);
  }

  /**
   * One enterprise, or undefined. `update` holds its row until the transaction ends (a save or
   * deletion of it); `share` keeps it from being deleted meanwhile (a record saved into it).
   */
  async findEnterprise(
    enterpriseId: string,
    lock: 'update' | 'share' | null = null,
  ): Promise<EnterpriseRecord | undefined> {
    let query = this.selectEnterprises().where('e.enterprise_id', '=', enterpriseId);
    if (lock === 'update') query = query.forUpdate('e');
    if (lock === 'share') query = query.forShare('e');
    const row = await query.executeTakeFirst();
    return row ? OpenAdminRepository.toEnterprise(row) : undefined;
  }

  /** The allowed calls of each of `enterpriseIds`, by code. */
  async callsOf(enterpriseIds: readonly string[]): Promise<Map<string, string[]>> {
    const calls = new Map<string, string[]>(enterpriseIds.map((id) => [id, []]));
    if (enterpriseIds.length === 0) return calls;
    const rows = await this.db
      .selectFrom('api_enterprise_calls')
      .select(['enterprise_id', 'call_code'])
      .where('enterprise_id', 'in', enterpriseIds)
      .orderBy('enterprise_id')
      .orderBy('call_code')
      .execute();
    for (const row of rows) calls.get(row.enterprise_id)?.push(row.call_code);
    return calls;
  }

  /**
   * Creates the enterprise or, when it exists (made meanwhile too), renames it and sets its rate
   * (kept when `ratePerMinute` is undefined).
   */
  async upsertEnterprise(values: {
    enterpriseId: string;
    name: string;
    ratePerMinute: number | undefined;
    createdBy: number;
    now: Date;
  }): Promise<void> {
    await this.db
      .insertInto('api_enterprises')
      .values({
        enterprise_id: values.enterpriseId,
        name: values.name,
        ...(values.ratePerMinute === undefined ? {} : { rate_per_minute: values.ratePerMinute }),
        created_by: values.createdBy,
        created_at: values.now,
        updated_at: values.now,
      })
      .onConflict((oc) =>
        oc.column('enterprise_id').doUpdateSet({
          name: values.name,
          rate_per_minute:
            values.ratePerMinute === undefined
              ? sql<number>`api_enterprises.rate_per_minute`
              : values.ratePerMinute,
          updated_at: values.now,
        }),
      )
      .execute();
  }

  /** The enterprise's allowed calls become exactly `codes`. */
  async setEnterpriseCalls(enterpriseId: string, codes: readonly string[], now: Date): Promise<void> {
    let removal = this.db.deleteFrom('api_enterprise_calls').where('enterprise_id', '=', enterpriseId);
    if (codes.length > 0) removal = removal.where('call_code', 'not in', codes);
    await removal.execute();
    if (codes.length > 0)
      await this.db
        .insertInto('api_enterprise_calls')
        .values(codes.map((call_code) => ({ enterprise_id: enterpriseId, call_code })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    await this.db
      .updateTable('api_enterprises')
      .set({ updated_at: now })
      .where('enterprise_id', '=', enterpriseId)
      .execute();
  }

  /**
   * Deletes an enterprise with its allowed calls and the records of it already deleted (their
   * counts go with them; the operation log keeps what they did). False when it was already gone.
   */
  async deleteEnterprise(enterpriseId: string): Promise<boolean> {
    await this.db
      .deleteFrom('api_accesses')
      .where('enterprise_id', '=', enterpriseId)
      .where('deleted_at', 'is not', null)
      .execute();
    const result = await this.db
      .deleteFrom('api_enterprises')
      .where('enterprise_id', '=', enterpriseId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
