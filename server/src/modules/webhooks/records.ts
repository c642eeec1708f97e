import type { Db } from '../../db/database';
import type { AccessRepository } from '../access/access.repository';
import type { JournalRow, OpenChangesRepository } from '../open-api/changes/repository';

/** Rows and inputs of ./repository (WebhooksRepository). */

/** An access record as the webhook calls see it: live, and where its run-as user is. */
export interface WebhookAccessRecord {
  id: number;
  user_dept_path: string | null;
}

export interface WebhookRecord {
  id: number;
  access_id: number;
  url: string;
  events: string[];
  status: number;
  secret_hint: string;
  consecutive_failures: number;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
  /** The record's run-as user's department path: the webhook's reach. */
  user_dept_path: string | null;
}

export interface WebhookListRow extends Omit<WebhookRecord, 'user_dept_path'> {
  last_delivery_at: Date | null;
  last_delivery_state: string | null;
}

export interface DeliveryRecord {
  id: string;
  webhook_id: number;
  change_id: string | null;
  event_type: string;
  item_id: number | null;
  payload: Record<string, unknown>;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

/** A delivery with what sending it needs: its webhook and whether the record still stands. */
export interface DeliveryToSend extends DeliveryRecord {
  url: string;
  secret_enc: string;
  webhook_status: number;
  /** The record is not deleted, is on, and its user is active. */
  record_live: boolean;
  /** The receiver's state (migration 028): failed attempts in a row, paused until. */
  attempt_failures: number;
  paused_until: Date | null;
}

export interface NewDelivery {
  webhookId: number;
  changeId: string | null;
  eventType: string;
  itemId: number | null;
  payload: Record<string, unknown>;
}

/** One entry of the change journal (migration 023), in commit-safe order (txid, id). */
export type JournalEntry = JournalRow;

/** A webhook that may get events now: on, its record live, on, its user active, its enterprise allowing a call. */
export interface ListeningWebhook {
  id: number;
  access_id: number;
  events: string[];
  created_at: Date;
  run_as_user_id: number;
  user_dept_id: number | null;
  user_dept_path: string | null;
}

/** What the dispatch pass needs of an item: who may see it, and what a payload tells. */
export interface ItemFacts {
  id: number;
  owner_id: number;
  visibility: 'shared' | 'private';
  dept_path: string;
  state: number;
  name: string;
  art_num: string | null;
  file_formats: string | null;
  parent_id: number | null;
  folder_path: string;
}

/** The change journal's reader and the access repository, made on a handle given: injected by the wiring. */
export interface WebhooksPeers {
  changes(db: Db): OpenChangesRepository;
  access(db: Db): AccessRepository;
}
