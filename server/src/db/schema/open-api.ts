import type { Visibility } from '@dam/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Timestamp } from './columns';

/** Open API enterprises, access records, nonces, usage, asset changes and webhooks. */

/** An enterprise of the open API (migration 022). */
export interface ApiEnterpriseTable {
  enterprise_id: string;
  name: string;
  rate_per_minute: Generated<number>;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ApiEnterpriseCallTable {
  enterprise_id: string;
  call_code: string;
}

/** An open API access record (SPEC §3 API access) and its key. */
export interface ApiAccessTable {
  id: Generated<number>;
  /** The key's public part (`dak_…`), sent as `x-dam-key`. */
  key_id: string;
  name: string;
  description: string;
  enterprise_id: string;
  user_mail: string;
  run_as_user_id: number;
  status: Generated<number>;
  /** The secret, encrypted with the server's key (lib/secret-box). */
  secret_enc: string;
  secret_hint: string;
  previous_secret_enc: string | null;
  previous_valid_until: Date | null;
  rotated_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: Date | null;
}

/** A nonce a signed request used, kept until its timestamp can no longer be accepted. */
export interface ApiNonceTable {
  access_id: number;
  nonce: string;
  expires_at: Date;
}

/** Calls of an access record per UTC day and call. */
export interface ApiUsageDailyTable {
  access_id: number;
  day: ColumnType<string, string, string>;
  call_code: string;
  calls: Generated<number>;
  failures: Generated<number>;
}

/** One asset's changes in one transaction (migration 023), written by triggers. */
export interface AssetChangeTable {
  id: Generated<string>;
  /** The writing transaction's id (xid8, read as text). */
  txid: ColumnType<string, never, never>;
  item_id: number;
  kinds: string[];
  changed_at: CreatedAt;
  /** Who could see the file as last written in that transaction (a purged file's entry is judged by it). */
  owner_id: number;
  visibility: Visibility;
  dept_path: string;
}

/** A webhook of an access record (migration 023). */
export interface ApiWebhookTable {
  id: Generated<number>;
  access_id: number;
  url: string;
  events: string[];
  status: Generated<number>;
  secret_enc: string;
  secret_hint: string;
  consecutive_failures: Generated<number>;
  disabled_reason: string | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** Since when its receiver answers (migration 028); null while new or failing. */
  healthy_since: Date | null;
  /** Failed attempts in a row (migration 028): how long the receiver is paused. */
  attempt_failures: Generated<number>;
  /** Its deliveries wait until then (migration 028). */
  paused_until: Date | null;
}

/** One event sent (or to send) to a webhook, with its attempts. */
export interface ApiWebhookDeliveryTable {
  id: Generated<string>;
  webhook_id: number;
  change_id: string | null;
  event_type: string;
  item_id: number | null;
  payload: ColumnType<Record<string, unknown>, string, string>;
  state: Generated<string>;
  attempts: Generated<number>;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: CreatedAt;
}
