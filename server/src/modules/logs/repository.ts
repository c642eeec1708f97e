import { ItemState } from '@dam/contract';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { likeLiteral } from '../../db/sql-helpers';

/** A row to append to the log. */
export interface NewLogEntry {
  createdAt: Date;
  operatorId: number | null;
  operatorName: string | null;
  code: string;
  itemIds: number[];
  itemNames: string[];
  itemCount: number;
  newValue: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
  reported: boolean;
  /** The open API access record the operation came through (migration 022). */
  apiAccessId?: number | null;
}

export interface LogRow {
  id: number;
  created_at: Date;
  operator_id: number | null;
  operator_name: string | null;
  operator_code: string;
  item_ids: number[];
  item_names: string[];
  item_count: number;
  new_value: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
  reported: boolean;
}

export interface LogQuery {
  startTime?: Date | undefined;
  endTime?: Date | undefined;
  operatorId?: number | undefined;
  operatorName?: string | undefined;
  codes?: readonly string[] | undefined;
  fileName?: string | undefined;
  /** Only entries up to this id (an export reads the log as it was when it began). */
  maxId?: number | undefined;
}

/** The item facts an entry copies, and the visibility rule of add-log looks at. */
export interface LoggedItem {
  id: number;
  type: number;
  name: string;
  state: number;
  folder_path: string;
  owner_id: number;
  visibility: 'shared' | 'private';
  dept_path: string;
  art_num: string | null;
  expire_start_date: string | null;
  expire_end_date: string | null;
}

/** `%` and `_` searched as themselves in LIKE. */

/** The SQL of the operation log, and the reads that copy names into it. */
export class LogsRepository {
  constructor(private readonly db: Db) {}

  async insert(entry: NewLogEntry): Promise<number> {
    const row = await this.db
      .insertInto('operation_logs')
      .values({
        created_at: entry.createdAt,
        operator_id: entry.operatorId,
        operator_name: entry.operatorName,
        operator_code: entry.code,
        item_ids: entry.itemIds,
        item_names: entry.itemNames,
        item_count: entry.itemCount,
        item_names_search: entry.itemNames.map((n) => n.toLowerCase()).join('/'),
        new_value: entry.newValue,
        details: JSON.stringify(entry.details),
        ip: entry.ip,
        user_agent: entry.userAgent,
        reported: entry.reported,
        api_access_id: entry.apiAccessId ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  private filtered(eb: ExpressionBuilder<Database, 'operation_logs'>, query: LogQuery) {
    const conditions = [];
    if (query.startTime) conditions.push(eb('created_at', '>=', query.startTime));
    if (query.endTime) conditions.push(eb('created_at', '<=', query.endTime));
    if (query.operatorId !== undefined) conditions.push(eb('operator_id', '=', query.operatorId));
    if (query.operatorName)
      conditions.push(
        eb(eb.fn('lower', ['operator_name']), 'like', `%${likeLiteral(query.operatorName.toLowerCase())}%`),
      );
    if (query.codes && query.codes.length > 0) conditions.push(eb('operator_code', 'in', query.codes));
    if (query.fileName)
      conditions.push(eb('item_names_search', 'like', `%${likeLiteral(query.fileName.toLowerCase())}%`));
    if (query.maxId !== undefined) conditions.push(eb('id', '<=', query.maxId));
    return eb.and(conditions);
  }

  /** One page, newest first. */
  list(query: LogQuery, limit: number, offset: number): Promise<LogRow[]> {
    return this.db
      .selectFrom('operation_logs')
      .selectAll()
      .where((eb) => this.filtered(eb, query))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute() as Promise<LogRow[]>;
  }

  /** The rows after `after` (keyset, newest first): the export reads the log in batches. */
  listAfter(query: LogQuery, after: { time: Date; id: number } | null, limit: number): Promise<LogRow[]> {
    return this.db
      .selectFrom('operation_logs')
      .selectAll()
      .where((eb) => this.filtered(eb, query))
      .$if(after !== null, (qb) =>
        qb.where((eb) =>
          eb.or([
            eb('created_at', '<', (after as { time: Date }).time),
            eb.and([
              eb('created_at', '=', (after as { time: Date }).time),
              eb('id', '<', (after as { id: number }).id),
            ]),
          ]),
        ),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute() as Promise<LogRow[]>;
  }

  /** The newest entry's id (0 when the log is empty). */
  async maxId(): Promise<number> {
    const row = await this.db
      .selectFrom('operation_logs')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  async count(query: LogQuery): Promise<number> {
    const row = await this.db
      .selectFrom('operation_logs')
      .where((eb) => this.filtered(eb, query))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  // ── Reads that copy names and facts into an entry ───────────────────────────────────────────

  async userName(userId: number): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst();
    return row?.name ?? null;
  }

  /** The user of a session token's hash (the sign-in just made). */
  async userOfSession(tokenHash: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('sessions')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  items(ids: readonly number[]): Promise<LoggedItem[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('items')
      .select([
        'id',
        'type',
        'name',
        'state',
        'folder_path',
        'owner_id',
        'visibility',
        'dept_path',
        'art_num',
        'expire_start_date',
        'expire_end_date',
      ])
      .where('id', 'in', [...ids])
      .execute();
  }

  uploads(ids: readonly number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('uploads')
      .leftJoin('items', 'items.id', 'uploads.item_id')
      .select([
        'uploads.id',
        'uploads.file_name',
        'uploads.format',
        'uploads.file_size',
        'uploads.item_id',
        'items.folder_path',
      ])
      .where('uploads.id', 'in', [...ids])
      .execute();
  }

  /** What a user has in the recycle bin (each deleted item once), before it is emptied. */
  recycledRoots(userId: number) {
    return this.db
      .selectFrom('items')
      .select(['id', 'name'])
      .where('state', '=', ItemState.removed)
      .where('removed_by', '=', userId)
      .whereRef('id', '=', 'removed_root_id')
      .orderBy('id')
      .execute();
  }

  async user(id: number) {
    const user = await this.db
      .selectFrom('users')
      .leftJoin('departments', 'departments.id', 'users.dept_id')
      .select([
        'users.id',
        'users.name',
        'users.username',
        'users.email',
        'users.mobile',
        'users.status',
        'users.dept_id',
        'departments.name as dept_name',
      ])
      .where('users.id', '=', id)
      .executeTakeFirst();
    if (!user) return undefined;
    const roles = await this.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select('roles.name')
      .where('user_roles.user_id', '=', id)
      .orderBy('roles.name')
      .execute();
    return { ...user, roles: roles.map((r) => r.name) };
  }

  async department(id: number) {
    const dept = await this.db
      .selectFrom('departments as d')
      .leftJoin('departments as parent', 'parent.id', 'd.parent_id')
      .leftJoin('users as head', 'head.id', 'd.head_user_id')
      .select([
        'd.id',
        'd.name',
        'd.status',
        'd.parent_id',
        'parent.name as parent_name',
        'd.head_user_id',
        'head.name as head_name',
      ])
      .where('d.id', '=', id)
      .executeTakeFirst();
    if (!dept) return undefined;
    const roles = await this.db
      .selectFrom('department_roles')
      .innerJoin('roles', 'roles.id', 'department_roles.role_id')
      .select('roles.name')
      .where('department_roles.dept_id', '=', id)
      .orderBy('roles.name')
      .execute();
    return { ...dept, roles: roles.map((r) => r.name) };
  }

  role(id: number) {
    return this.db
      .selectFrom('roles')
      .select(['id', 'name', 'view_scope', 'upload_scope', 'download_scope', 'share_scope', 'function_codes'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async share(ref: { id: number } | { code: string }) {
    const share = await this.db
      .selectFrom('shares')
      .innerJoin('users', 'users.id', 'shares.owner_id')
      .select([
        'shares.id',
        'shares.owner_id',
        'users.name as owner_name',
        'shares.password',
        'shares.validity',
        'shares.expires_at',
        'shares.status',
      ])
      .$if('id' in ref, (qb) => qb.where('shares.id', '=', (ref as { id: number }).id))
      .$if('code' in ref, (qb) => qb.where('shares.code', '=', (ref as { code: string }).code))
      .executeTakeFirst();
    if (!share) return undefined;
    const items = await this.db
      .selectFrom('share_items')
      .innerJoin('items', 'items.id', 'share_items.item_id')
      .select(['items.id', 'items.name'])
      .where('share_items.share_id', '=', share.id)
      .orderBy('share_items.position')
      .execute();
    return { ...share, items };
  }
}
