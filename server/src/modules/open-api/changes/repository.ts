import type { Visibility } from '@dam/contract';
import { sql } from 'kysely';
import type { Db } from '../../../db/database';
import type { JournalPosition } from './cursor';

/** One journal entry: what changed of one file in one transaction. */
export interface JournalRow {
  /** bigint as text. */
  id: string;
  /** The writing transaction's id (xid8 as text). */
  txid: string;
  item_id: number;
  /** In the contract's order (ASSET_CHANGE_KINDS); the triggers of migration 023 write them. */
  kinds: string[];
  changed_at: Date;
  /** Who could see the file as it was last written in that transaction. */
  owner_id: number;
  visibility: Visibility;
  dept_path: string;
}

export interface JournalPage {
  rows: JournalRow[];
  /**
   * Every transaction below it has ended (`pg_snapshot_xmin` of the reading snapshot): entries
   * with txid < horizon are all there and nothing can join them; later ones are not read yet.
   */
  horizon: string;
}

/** app_settings key: the last (txid:id) the retention sweep deleted; a cursor before it is stale. */
const SWEPT_KEY = 'asset-changes-swept';

/**
 * The change journal of migration 023 (written by triggers, never here). Reads follow (txid, id)
 * on `asset_changes_order` and stop at the reading snapshot's xmin, so an entry can never appear
 * behind a position already handed out: a transaction that wrote earlier but commits later has a
 * txid at or above that xmin until it ends, and is read then.
 */
export class OpenChangesRepository {
  constructor(private readonly db: Db) {}

  /**
   * The query of `changesAfter` (also for the plan test): entries after `after`, at most `limit`,
   * committed-safe; `since` (first page of a "changed since" read) keeps entries written from then.
   */
  changesQuery(after: JournalPosition, limit: number, since: Date | null = null) {
    return sql<JournalRow & { horizon: string }>`
      WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon)
      SELECT h.horizon::text AS horizon, c.*
      FROM h LEFT JOIN LATERAL (
        SELECT asset_changes.id::text AS id, asset_changes.txid::text AS txid, asset_changes.item_id,
          asset_changes.kinds, asset_changes.changed_at, asset_changes.owner_id, asset_changes.visibility,
          asset_changes.dept_path
        FROM asset_changes
        WHERE (asset_changes.txid, asset_changes.id) > (${after.txid}::xid8, ${after.id}::bigint)
          AND asset_changes.txid < h.horizon
          ${since ? sql`AND asset_changes.changed_at >= ${since}` : sql``}
        ORDER BY asset_changes.txid, asset_changes.id
        LIMIT ${limit}
      ) c ON true`;
  }

  /**
   * Journal entries after a position, oldest first, only from transactions that have ended (see
   * the class), at most `limit`; with the horizon read in the same snapshot. The webhook fan-out
   * keeps the last row's position (or, after an empty read, nothing: it asks again later).
   */
  async changesAfter(after: JournalPosition, limit: number, since: Date | null = null): Promise<JournalPage> {
    const { rows } = await this.changesQuery(after, limit, since).execute(this.db);
    const horizon = rows[0]?.horizon ?? '0';
    return {
      horizon,
      rows: rows
        .filter((row) => row.id !== null)
        .map(({ horizon: _, ...row }) => ({
          ...row,
          item_id: Number(row.item_id),
          owner_id: Number(row.owner_id),
        })),
    };
  }

  /** The last position the retention sweep deleted, if it ever deleted anything. */
  async sweptUpTo(): Promise<JournalPosition | null> {
    const row = await this.db
      .selectFrom('app_settings')
      .select('value')
      .where('key', '=', SWEPT_KEY)
      .executeTakeFirst();
    if (!row) return null;
    const [txid = '0', id = '0'] = row.value.split(':');
    return { txid, id };
  }

  /**
   * Deletes entries written before `cutoff` and remembers the last position deleted (it only
   * grows), so a cursor before it is known to have missed entries. Answers how many went.
   */
  async sweep(cutoff: Date): Promise<number> {
    const { rows } = await sql<{ deleted: string }>`
      WITH gone AS (
        DELETE FROM asset_changes WHERE changed_at < ${cutoff} RETURNING txid, id
      ), last AS (
        SELECT txid::text || ':' || id::text AS value FROM gone ORDER BY txid DESC, id DESC LIMIT 1
      ), mark AS (
        INSERT INTO app_settings (key, value) SELECT ${SWEPT_KEY}, value FROM last
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
        WHERE (split_part(EXCLUDED.value, ':', 1)::xid8, split_part(EXCLUDED.value, ':', 2)::bigint)
            > (split_part(app_settings.value, ':', 1)::xid8, split_part(app_settings.value, ':', 2)::bigint)
      )
      SELECT count(*)::text AS deleted FROM gone`.execute(this.db);
    return Number(rows[0]?.deleted ?? 0);
  }
}
