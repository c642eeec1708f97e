import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns';

/** The operation log, the object deletion outbox and rate-limit counters. */

/** One entry of the operation log (append-only: rows are inserted, never changed). */
export interface OperationLogTable {
  id: Generated<number>;
  created_at: ColumnType<Date, Date, never>;
  /** null: a share-link visitor. */
  operator_id: number | null;
  /** The operator's name at the time. */
  operator_name: string | null;
  operator_code: string;
  item_ids: ColumnType<number[], number[] | undefined, never>;
  item_names: ColumnType<string[], string[] | undefined, never>;
  item_count: ColumnType<number, number | undefined, never>;
  /** Lower-cased names joined by '/', for "file name contains". */
  item_names_search: ColumnType<string, string | undefined, never>;
  new_value: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
  ip: string | null;
  user_agent: string | null;
  reported: ColumnType<boolean, boolean | undefined, never>;
  /** The open API access record the operation was made through (migration 022), or null. */
  api_access_id: ColumnType<number | null, number | null | undefined, never>;
}

/** An object to delete from storage, kept until storage confirmed it (migration 012). */
export interface ObjectDeletionTable {
  key: string;
  multipart_id: string | null;
  enqueued_at: Timestamp;
  attempts: Generated<number>;
  last_attempt_at: Date | null;
  last_error: string | null;
}

/** Attempts counted for a limit in one fixed window (migration 011). */
export interface RateLimitCounterTable {
  key: string;
  window_start: Date;
  count: number;
}
