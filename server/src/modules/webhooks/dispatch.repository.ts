import { ApiAccessStatus, UserStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import type { ItemFacts, ListeningWebhook } from './records';

/**
 * The dispatch pass's SQL (WebhooksRepository in ./repository calls it): its lock and cursor, the
 * webhooks listening and the facts of the items changed.
 */

/** Key of the transaction-scoped advisory lock one dispatch pass holds (one pass at a time). */
const DISPATCH_LOCK = 727015;
/** Where the dispatch pass has read the change journal up to: `<txid>:<id>`. */
const CURSOR_SETTING = 'webhook-cursor';

/** Takes the dispatch lock for this transaction; false when another pass holds it. */
export async function tryDispatchLock(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`SELECT pg_try_advisory_xact_lock(${DISPATCH_LOCK}) AS locked`.execute(db);
  return rows[0]?.locked === true;
}

/** Where the last pass stopped: `[txid, id]` (`['0', '0']` before the first). */
export async function dispatchCursor(db: Kysely<Database>): Promise<[string, string]> {
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', CURSOR_SETTING)
    .executeTakeFirst();
  const [txid, id] = (row?.value ?? '0:0').split(':');
  return [txid ?? '0', id ?? '0'];
}

export async function setDispatchCursor(db: Kysely<Database>, txid: string, id: string): Promise<void> {
  const value = `${txid}:${id}`;
  await db
    .insertInto('app_settings')
    .values({ key: CURSOR_SETTING, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

export function listeningWebhooks(db: Kysely<Database>): Promise<ListeningWebhook[]> {
  return db
    .selectFrom('api_webhooks as w')
    .innerJoin('api_accesses as a', 'a.id', 'w.access_id')
    .innerJoin('users as u', 'u.id', 'a.run_as_user_id')
    .leftJoin('departments as d', 'd.id', 'u.dept_id')
    .select([
      'w.id',
      'w.access_id',
      'w.events',
      'w.created_at',
      'a.run_as_user_id',
      'u.dept_id as user_dept_id',
      'd.path as user_dept_path',
    ])
    .where('w.status', '=', 1)
    .where('a.deleted_at', 'is', null)
    .where('a.status', '=', ApiAccessStatus.on)
    .where('u.status', '=', UserStatus.normal)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('api_enterprise_calls as c')
          .select(sql`1`.as('one'))
          .whereRef('c.enterprise_id', '=', 'a.enterprise_id'),
      ),
    )
    .orderBy('w.id')
    .execute();
}

export function itemFacts(db: Kysely<Database>, ids: readonly number[]): Promise<ItemFacts[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('items')
    .select([
      'id',
      'owner_id',
      'visibility',
      'dept_path',
      'state',
      'name',
      'art_num',
      'file_formats',
      'parent_id',
      'folder_path',
    ])
    .where('id', 'in', [...ids])
    .execute() as Promise<ItemFacts[]>;
}
