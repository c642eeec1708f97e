import { ApiAccessStatus, UserStatus } from '@dam/contract';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import type { TransactionHandle, WebhookJob } from '../../jobs/queue';
import {
  dispatchCursor,
  itemFacts,
  listeningWebhooks,
  setDispatchCursor,
  tryDispatchLock,
} from './dispatch.repository';
import { countFailure, receiverAnswered, receiverFailed, resumeReceiver } from './receiver-health.repository';
import type {
  DeliveryRecord,
  DeliveryToSend,
  ItemFacts,
  JournalEntry,
  ListeningWebhook,
  NewDelivery,
  WebhookAccessRecord,
  WebhookListRow,
  WebhookRecord,
  WebhooksPeers,
} from './records';

/** What every webhook read answers of the webhook itself. */
const WEBHOOK_COLUMNS = [
  'w.id',
  'w.access_id',
  'w.url',
  'w.events',
  'w.status',
  'w.secret_hint',
  'w.consecutive_failures',
  'w.disabled_reason',
  'w.created_at',
  'w.updated_at',
] as const;

/**
 * Writes delivery jobs with the handle given: inside the transaction that writes the deliveries,
 * so both commit or neither (the job queue's own SQL, jobs/webhook-lanes.ts).
 */
export interface DeliveryJobWriter {
  /** First attempts, in the quick lane. */
  quick(jobs: readonly WebhookJob[], db: TransactionHandle): Promise<void>;
  /** One delivery due now in the slow lane (one job waiting at most). */
  now(job: WebhookJob, db: TransactionHandle): Promise<void>;
}

/** SQL of webhooks, their deliveries and the dispatch pass over the change journal. */
export class WebhooksRepository {
  constructor(
    private readonly db: Db | Kysely<Database>,
    private readonly peers: WebhooksPeers,
  ) {}

  transaction<T>(work: (repo: WebhooksRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new WebhooksRepository(trx, this.peers)));
  }

  /** Writes the jobs of deliveries in this repository's transaction (no queue: none). */
  async writeDeliveryJobs(jobs: readonly WebhookJob[], writer: DeliveryJobWriter | undefined): Promise<void> {
    if (jobs.length > 0) await writer?.quick(jobs, this.db);
  }

  /** Writes a delivery's "due now" slow-lane job in this repository's transaction (no queue: none). */
  async writeDeliveryJobNow(job: WebhookJob, writer: DeliveryJobWriter | undefined): Promise<void> {
    await writer?.now(job, this.db);
  }

  // ── Records and webhooks ─────────────────────────────────────────────────────────────────

  /** A live (not deleted) access record and its user's department path. */
  findAccess(accessId: number): Promise<WebhookAccessRecord | undefined> {
    return this.db
      .selectFrom('api_accesses as a')
      .innerJoin('users as u', 'u.id', 'a.run_as_user_id')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['a.id', 'd.path as user_dept_path'])
      .where('a.id', '=', accessId)
      .where('a.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Locks a live record against concurrent webhook saves (the per-record limit). */
  async lockAccess(accessId: number): Promise<void> {
    await this.db
      .selectFrom('api_accesses')
      .select('id')
      .where('id', '=', accessId)
      .forUpdate()
      .executeTakeFirst();
  }

  private selectWebhooks() {
    return this.db
      .selectFrom('api_webhooks as w')
      .innerJoin('api_accesses as a', 'a.id', 'w.access_id')
      .innerJoin('users as u', 'u.id', 'a.run_as_user_id')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select([...WEBHOOK_COLUMNS, 'd.path as user_dept_path'])
      .where('a.deleted_at', 'is', null);
  }

  /** A webhook of a live record, or undefined. */
  findWebhook(id: number): Promise<WebhookRecord | undefined> {
    return this.selectWebhooks().where('w.id', '=', id).executeTakeFirst();
  }

  /** A record's webhooks, oldest first, each with its newest delivery's time and state. */
  listWebhooks(accessId: number): Promise<WebhookListRow[]> {
    return this.db
      .selectFrom('api_webhooks as w')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('api_webhook_deliveries as l')
            .select(['l.state', 'l.created_at', 'l.last_attempt_at'])
            .whereRef('l.webhook_id', '=', 'w.id')
            .orderBy('l.created_at', 'desc')
            .orderBy('l.id', 'desc')
            .limit(1)
            .as('last'),
        (join) => join.onTrue(),
      )
      .select([
        ...WEBHOOK_COLUMNS,
        'last.state as last_delivery_state',
        sql<Date | null>`coalesce(last.last_attempt_at, last.created_at)`.as('last_delivery_at'),
      ])
      .where('w.access_id', '=', accessId)
      .orderBy('w.id')
      .execute();
  }

  async countWebhooks(accessId: number): Promise<number> {
    const row = await this.db
      .selectFrom('api_webhooks')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('access_id', '=', accessId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The id the next webhook will have (its secret is sealed bound to it before the row exists). */
  async nextWebhookId(): Promise<number> {
    const { rows } = await sql<{
      id: string;
    }>`SELECT nextval(pg_get_serial_sequence('api_webhooks', 'id')) AS id`.execute(this.db);
    return Number(rows[0]?.id);
  }

  async insertWebhook(values: {
    id: number;
    accessId: number;
    url: string;
    events: string[];
    status: number;
    secretEnc: string;
    secretHint: string;
    createdBy: number;
  }): Promise<void> {
    await this.db
      .insertInto('api_webhooks')
      .values({
        id: values.id,
        access_id: values.accessId,
        url: values.url,
        events: values.events,
        status: values.status,
        secret_enc: values.secretEnc,
        secret_hint: values.secretHint,
        created_by: values.createdBy,
        // The database's clock, as the change journal's: a webhook hears of changes made after it.
        created_at: sql<Date>`now()`,
        updated_at: sql<Date>`now()`,
      })
      .execute();
  }

  /** Edits a webhook; switching it on clears the count of failures and the reason it was switched off. */
  async updateWebhook(
    id: number,
    values: { url: string; events: string[]; status: number; now: Date },
  ): Promise<void> {
    await this.db
      .updateTable('api_webhooks')
      .set({
        url: values.url,
        events: values.events,
        status: values.status,
        updated_at: values.now,
        ...(values.status === 1 ? { consecutive_failures: 0, disabled_reason: null } : {}),
      })
      .where('id', '=', id)
      .execute();
  }

  async deleteWebhook(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('api_webhooks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // ── Deliveries ───────────────────────────────────────────────────────────────────────────

  /** New deliveries; those of a journal entry already delivered to the webhook are skipped. Answers the new ones. */
  async insertDeliveries(
    deliveries: readonly NewDelivery[],
  ): Promise<{ deliveryId: string; webhookId: number }[]> {
    if (deliveries.length === 0) return [];
    const rows = await this.db
      .insertInto('api_webhook_deliveries')
      .values(
        deliveries.map((d) => ({
          webhook_id: d.webhookId,
          change_id: d.changeId,
          event_type: d.eventType,
          item_id: d.itemId,
          payload: JSON.stringify(d.payload),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['webhook_id', 'change_id']).where('change_id', 'is not', null).doNothing(),
      )
      .returning(['id', 'webhook_id'])
      .execute();
    return rows.map((row) => ({ deliveryId: String(row.id), webhookId: row.webhook_id }));
  }

  /** Locks a webhook's row for this transaction (the bound on its pending test pings). */
  async lockWebhook(id: number): Promise<void> {
    await this.db.selectFrom('api_webhooks').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
  }

  /** The ids of a webhook's pending deliveries of one event type, newest first (index api_webhook_deliveries_pending). */
  async pendingDeliveries(webhookId: number, eventType: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('api_webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhookId)
      .where('event_type', '=', eventType)
      .where('state', '=', 'pending')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => String(row.id));
  }

  /** A delivery and the webhook it belongs to (of a live record), or undefined. */
  findDelivery(id: string): Promise<(DeliveryRecord & { access_id: number }) | undefined> {
    return this.db
      .selectFrom('api_webhook_deliveries as l')
      .innerJoin('api_webhooks as w', 'w.id', 'l.webhook_id')
      .selectAll('l')
      .select('w.access_id')
      .where('l.id', '=', id)
      .executeTakeFirst() as Promise<(DeliveryRecord & { access_id: number }) | undefined>;
  }

  /** One page of a webhook's deliveries, newest first (index api_webhook_deliveries_listing). */
  listDeliveries(webhookId: number, offset: number, limit: number): Promise<DeliveryRecord[]> {
    return this.db
      .selectFrom('api_webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute() as Promise<DeliveryRecord[]>;
  }

  async countDeliveries(webhookId: number): Promise<number> {
    const row = await this.db
      .selectFrom('api_webhook_deliveries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('webhook_id', '=', webhookId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** What the delivery job needs. */
  deliveryToSend(id: string): Promise<DeliveryToSend | undefined> {
    return this.db
      .selectFrom('api_webhook_deliveries as l')
      .innerJoin('api_webhooks as w', 'w.id', 'l.webhook_id')
      .innerJoin('api_accesses as a', 'a.id', 'w.access_id')
      .innerJoin('users as u', 'u.id', 'a.run_as_user_id')
      .selectAll('l')
      .select([
        'w.url',
        'w.secret_enc',
        'w.status as webhook_status',
        'w.attempt_failures',
        'w.paused_until',
        sql<boolean>`(a.deleted_at IS NULL AND a.status = ${ApiAccessStatus.on} AND u.status = ${UserStatus.normal})`.as(
          'record_live',
        ),
      ])
      .where('l.id', '=', id)
      .executeTakeFirst() as Promise<DeliveryToSend | undefined>;
  }

  /**
   * Notes an attempt of a pending delivery and its outcome (`state` stays pending while retries
   * remain). Answers false when the delivery was no longer pending (another run of the job ended it).
   */
  async recordAttempt(
    id: string,
    outcome: {
      state: 'pending' | 'delivered' | 'failed';
      status: number | null;
      error: string | null;
      at: Date;
    },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('api_webhook_deliveries')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        state: outcome.state,
        last_status: outcome.status,
        last_error: outcome.error,
        last_attempt_at: outcome.at,
        ...(outcome.state === 'delivered' ? { delivered_at: outcome.at } : {}),
      }))
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async cancelDelivery(id: string): Promise<void> {
    await this.db
      .updateTable('api_webhook_deliveries')
      .set({ state: 'cancelled' })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .execute();
  }

  /** A delivery reached its receiver: the webhook's runs of failures end, its receiver is healthy. */
  receiverAnswered(webhookId: number, at: Date): Promise<void> {
    return receiverAnswered(this.db, webhookId, at);
  }

  /** "Send a test" asked by hand: the receiver's pause ends now (its failures in a row stay counted). */
  resumeReceiver(webhookId: number): Promise<void> {
    return resumeReceiver(this.db, webhookId);
  }

  /** An attempt failed: one more in a row, not healthy, paused for `pauseMs(failures in a row)`. */
  receiverFailed(webhookId: number, at: Date, pauseMs: (failures: number) => number): Promise<void> {
    return receiverFailed(this.db, webhookId, at, pauseMs);
  }

  /** A delivery failed for good: one more failure in a row; off with `reason` at `limit` (answered). */
  countFailure(webhookId: number, limit: number, reason: string, now: Date): Promise<boolean> {
    return countFailure(this.db, webhookId, limit, reason, now);
  }

  // ── The dispatch pass ────────────────────────────────────────────────────────────────────

  /** Takes the dispatch lock for this transaction; false when another pass holds it. */
  tryDispatchLock(): Promise<boolean> {
    return tryDispatchLock(this.db);
  }

  /** Where the last pass stopped: `[txid, id]` (`['0', '0']` before the first). */
  cursor(): Promise<[string, string]> {
    return dispatchCursor(this.db);
  }

  setCursor(txid: string, id: string): Promise<void> {
    return setDispatchCursor(this.db, txid, id);
  }

  /**
   * Journal entries after the cursor, in (txid, id) order, only of transactions older than every
   * one still running (the changes call's reader, modules/open-api/changes): nothing can later appear
   * behind the cursor.
   */
  async journalAfter(txid: string, id: string, limit: number): Promise<JournalEntry[]> {
    return (await this.peers.changes(this.db as Db).changesAfter({ txid, id }, limit)).rows;
  }

  /** A user's roles (own and their department's), read within this repository's transaction. */
  rolesOfUser(userId: number, deptId: number | null) {
    return this.peers.access(this.db as Db).rolesOfUser(userId, deptId);
  }

  listeningWebhooks(): Promise<ListeningWebhook[]> {
    return listeningWebhooks(this.db);
  }

  itemFacts(ids: readonly number[]): Promise<ItemFacts[]> {
    return itemFacts(this.db, ids);
  }
}
