import type { savedWebhookSchema } from '@dam/contract';
import {
  FunctionCode,
  type saveWebhookRequestSchema,
  WEBHOOK_PENDING_PINGS_MAX,
  WEBHOOKS_PER_ACCESS_MAX,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookDeliveryState,
  type WebhookEvent,
  type WebhookPayload,
} from '@dam/contract';
import type { z } from 'zod';
import { AppError } from '../../http/app-error';
import type { WebhookLane, WebhookOutcome } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { type AllowedNetworks, checkTargetUrl, type SafePostOptions, UrlRefused } from '../../lib/safe-http';
import type { SecretBox } from '../../lib/secret-box';
import {
  type AuthContext,
  administrationReach,
  requireAnyCode,
  sessionlessAuth,
  withinReach,
} from '../access/access';
import { canSee } from '../items/policy';
import {
  changeCursorOf,
  eventOfKinds,
  newWebhookSecret,
  pingPayload,
  SECRET_HINT_CHARS,
  webhookSecretContext,
} from './deliver';
import type { DeliveryRecord, ItemFacts, ListeningWebhook, NewDelivery, WebhookListRow } from './records';
import type { DeliveryJobWriter, WebhooksRepository } from './repository';
import { sendDelivery } from './sending';

type SaveInput = z.output<typeof saveWebhookRequestSchema>;
type SavedWebhook = z.infer<typeof savedWebhookSchema>;
type Warn = (details: Record<string, unknown>, message: string) => void;
type Lookup = NonNullable<SafePostOptions['lookup']>;

/** Journal entries one dispatch transaction reads. */
const DISPATCH_BATCH = 500;
/** Batches one pass reads at most (a busy journal is continued by the next pass). */
const DISPATCH_BATCHES_PER_PASS = 20;

export interface WebhooksDependencies {
  repo: WebhooksRepository;
  secretBox: SecretBox;
  clock: Clock;
  /** WEBHOOK_ALLOWED_NETWORKS. */
  allowed: AllowedNetworks;
  /** WEBHOOK_TIMEOUT_MS: one attempt, the whole exchange. */
  timeoutMs: number;
  /**
   * Writes the delivery jobs of new deliveries, each in its receiver's lane, in the transaction that
   * writes the deliveries; without a queue they wait for one.
   */
  deliveryJobs?: DeliveryJobWriter | undefined;
  warn: Warn;
  /** Name resolution (tests inject one); the system's by default. */
  lookup?: Lookup;
}

/**
 * Webhooks of open API access records (issue 15; docs/decisions.md "Open API (issue 15)").
 *
 * Management (function code 7): a record's webhooks are administered where the record is, i.e.
 * within the caller's administration reach of the record's run-as user; outside it they answer
 * SE_404 like unknown ids. A URL must be http(s) without credentials and reach only public
 * addresses unless WEBHOOK_ALLOWED_NETWORKS allows them (SEOA_06), checked when saved and on
 * every attempt. The signing secret is answered once, at creation, and kept sealed.
 *
 * Events: a dispatch pass reads the change journal (asset_changes) in commit-safe order and makes
 * one delivery per entry and webhook that is on, wants the event, was registered before the
 * change, and whose record may see the asset now (the record's user's rights; a purged asset by
 * who could see it when it was last written, as the changes call judges).
 *
 * Delivery: one job per delivery in its receiver's lane (jobs/webhook-lanes.ts, sending.ts: one
 * delivery in flight per receiver, a failing receiver paused on its own, retries never ahead of a
 * healthy receiver's new deliveries); 2xx is delivered, anything else (3xx included: redirects
 * are not followed) is a failed attempt; the last failed attempt fails the delivery and counts
 * against the webhook, which is switched off after WEBHOOK_FAILURES_TO_DISABLE failed deliveries
 * in a row.
 */
export class WebhooksService {
  constructor(private readonly deps: WebhooksDependencies) {}

  // ── Management ───────────────────────────────────────────────────────────────────────────

  /** A record's webhooks with their last delivery. */
  async list(auth: AuthContext, accessId: number): Promise<Webhook[]> {
    requireAnyCode(auth, FunctionCode.api);
    await this.reachableAccess(auth, accessId);
    return (await this.deps.repo.listWebhooks(accessId)).map(webhookOf);
  }

  /** Registers (the secret answered once) or edits (the secret kept, `secret` null) a webhook. */
  async save(auth: AuthContext, body: SaveInput): Promise<SavedWebhook> {
    requireAnyCode(auth, FunctionCode.api);
    await this.reachableAccess(auth, body.accessId);
    if (body.id !== undefined) await this.reachableWebhook(auth, body.id, body.accessId);
    const url = await this.checkUrl(body.url);
    const now = this.deps.clock.now();
    return this.deps.repo.transaction(async (repo) => {
      await repo.lockAccess(body.accessId);
      if (body.id !== undefined) {
        await repo.updateWebhook(body.id, { url, events: body.events, status: body.status, now });
        return { id: body.id, secret: null };
      }
      if ((await repo.countWebhooks(body.accessId)) >= WEBHOOKS_PER_ACCESS_MAX)
        throw new AppError('SEOA_06', undefined, {
          detail: `an API access has at most ${WEBHOOKS_PER_ACCESS_MAX} webhooks`,
        });
      const id = await repo.nextWebhookId();
      const secret = newWebhookSecret();
      await repo.insertWebhook({
        id,
        accessId: body.accessId,
        url,
        events: body.events,
        status: body.status,
        secretEnc: this.deps.secretBox.seal(secret, webhookSecretContext(id)),
        // Base64 ends in padding: the hint is taken before it, so it tells secrets apart.
        secretHint: secret.replace(/=+$/, '').slice(-SECRET_HINT_CHARS),
        createdBy: auth.userId,
      });
      return { id, secret };
    });
  }

  /** Deletes a webhook with its deliveries; one already gone (or out of reach) changes nothing. */
  async remove(auth: AuthContext, id: number): Promise<{ accessId: number; url: string } | null> {
    requireAnyCode(auth, FunctionCode.api);
    const row = await this.deps.repo.findWebhook(id);
    if (!row || !withinReach(administrationReach(auth), row.user_dept_path)) return null;
    await this.deps.repo.deleteWebhook(id);
    return { accessId: row.access_id, url: row.url };
  }

  /**
   * Queues a `ping` to the webhook now (whether it is on or off: the administrator asked). At most
   * WEBHOOK_PENDING_PINGS_MAX pings of a webhook wait at a time: one more answers the newest waiting
   * one's id and makes it due now, the receiver's pause ended (its fix is tried at once, not after
   * the back-off); repeated clicks keep one job waiting for it, so a receiver that hangs gets
   * nothing more queued. The ping and its job are written in one transaction.
   */
  async test(auth: AuthContext, id: number): Promise<{ deliveryId: number }> {
    requireAnyCode(auth, FunctionCode.api);
    await this.reachableWebhook(auth, id);
    const deliveryId = await this.deps.repo.transaction(async (repo) => {
      await repo.lockWebhook(id);
      const [newest, ...older] = await repo.pendingDeliveries(id, 'ping');
      if (newest !== undefined && older.length + 1 >= WEBHOOK_PENDING_PINGS_MAX) {
        await repo.resumeReceiver(id);
        await repo.writeDeliveryJobNow({ deliveryId: newest, webhookId: id }, this.deps.deliveryJobs);
        return newest;
      }
      const [inserted] = await repo.insertDeliveries([
        {
          webhookId: id,
          changeId: null,
          eventType: 'ping',
          itemId: null,
          payload: pingPayload(this.deps.clock.now()),
        },
      ]);
      if (!inserted) throw new Error('webhooks: a ping was not inserted');
      await repo.writeDeliveryJobs([inserted], this.deps.deliveryJobs);
      return inserted.deliveryId;
    });
    return { deliveryId: Number(deliveryId) };
  }

  /** One page of a webhook's deliveries, newest first. */
  async deliveries(
    auth: AuthContext,
    query: { webhookId: number; pageNo: number; pageSize: number },
  ): Promise<WebhookDeliveryPage> {
    requireAnyCode(auth, FunctionCode.api);
    await this.reachableWebhook(auth, query.webhookId);
    const [rows, total] = await Promise.all([
      this.deps.repo.listDeliveries(query.webhookId, (query.pageNo - 1) * query.pageSize, query.pageSize),
      this.deps.repo.countDeliveries(query.webhookId),
    ]);
    return { list: rows.map(deliveryOf), total, pageNo: query.pageNo, pageSize: query.pageSize };
  }

  /** Sends a delivery's payload again, as a new delivery with attempts of its own. */
  async redeliver(auth: AuthContext, deliveryId: number): Promise<{ deliveryId: number }> {
    requireAnyCode(auth, FunctionCode.api);
    const delivery = await this.deps.repo.findDelivery(String(deliveryId));
    if (!delivery) throw new AppError('SE_404');
    await this.reachableWebhook(auth, delivery.webhook_id);
    return this.queue({
      webhookId: delivery.webhook_id,
      changeId: null,
      eventType: delivery.event_type,
      itemId: delivery.item_id,
      payload: delivery.payload,
    });
  }

  /** A new delivery and its job, in one transaction. */
  private queue(delivery: NewDelivery): Promise<{ deliveryId: number }> {
    return this.deps.repo.transaction(async (repo) => {
      const [made] = await repo.insertDeliveries([delivery]);
      if (made === undefined)
        throw new Error('webhooks: a delivery without a journal entry was not inserted');
      await repo.writeDeliveryJobs([made], this.deps.deliveryJobs);
      return { deliveryId: Number(made.deliveryId) };
    });
  }

  private async reachableAccess(auth: AuthContext, accessId: number): Promise<void> {
    const row = await this.deps.repo.findAccess(accessId);
    if (!row || !withinReach(administrationReach(auth), row.user_dept_path)) throw new AppError('SE_404');
  }

  private async reachableWebhook(auth: AuthContext, id: number, accessId?: number): Promise<void> {
    const row = await this.deps.repo.findWebhook(id);
    if (
      !row ||
      (accessId !== undefined && row.access_id !== accessId) ||
      !withinReach(administrationReach(auth), row.user_dept_path)
    )
      throw new AppError('SE_404');
  }

  /** The URL as it will be called, or SEOA_06 naming why it cannot be. */
  private async checkUrl(raw: string): Promise<string> {
    try {
      return (await checkTargetUrl(raw, this.deps.allowed, this.deps.lookup)).toString();
    } catch (error) {
      if (error instanceof UrlRefused) throw new AppError('SEOA_06', undefined, { detail: error.detail });
      throw error;
    }
  }

  // ── Dispatch ─────────────────────────────────────────────────────────────────────────────

  /**
   * One pass over the change journal: deliveries for what changed since the last pass, and their
   * jobs. Only one pass runs at a time (an advisory lock; a second one returns at once). Answers
   * the number of deliveries made.
   */
  async dispatch(): Promise<number> {
    let made = 0;
    for (let batch = 0; batch < DISPATCH_BATCHES_PER_PASS; batch += 1) {
      const result = await this.deps.repo.transaction((repo) => this.dispatchBatch(repo));
      made += result.made;
      if (!result.more) break;
    }
    return made;
  }

  /** One batch of the journal: its deliveries, their jobs and the cursor move in one transaction. */
  private async dispatchBatch(repo: WebhooksRepository): Promise<{ made: number; more: boolean }> {
    if (!(await repo.tryDispatchLock())) return { made: 0, more: false };
    const [txid, id] = await repo.cursor();
    const entries = await repo.journalAfter(txid, id, DISPATCH_BATCH);
    const last = entries.at(-1);
    if (!last) return { made: 0, more: false };
    const webhooks = await repo.listeningWebhooks();
    const deliveries: NewDelivery[] = [];
    if (webhooks.length > 0) {
      const itemIds = [...new Set(entries.map((e) => e.item_id))];
      const items = new Map((await repo.itemFacts(itemIds)).map((item) => [item.id, item]));
      const viewers = await this.viewersOf(repo, webhooks);
      for (const entry of entries) {
        const event = eventOfKinds(entry.kinds);
        const item = items.get(entry.item_id);
        const payload = payloadOf(event, entry, item);
        for (const webhook of webhooks) {
          if (!webhook.events.includes(event) || webhook.created_at > entry.changed_at) continue;
          const viewer = viewers.get(webhook.access_id);
          // As the changes call judges: the file as it is now; a purged one as it was last written.
          if (!viewer || !canSee(viewer, item ?? entry)) continue;
          deliveries.push({
            webhookId: webhook.id,
            changeId: entry.id,
            eventType: event,
            itemId: entry.item_id,
            payload,
          });
        }
      }
    }
    const jobs = await repo.insertDeliveries(deliveries);
    await repo.writeDeliveryJobs(jobs, this.deps.deliveryJobs);
    await repo.setCursor(last.txid, last.id);
    return { made: jobs.length, more: entries.length === DISPATCH_BATCH };
  }

  /** The rights of each record's user now (roles read once per pass), as the open calls use them. */
  private async viewersOf(
    repo: WebhooksRepository,
    webhooks: readonly ListeningWebhook[],
  ): Promise<Map<number, AuthContext>> {
    const viewers = new Map<number, AuthContext>();
    for (const webhook of webhooks) {
      if (viewers.has(webhook.access_id)) continue;
      const roles = await repo.rolesOfUser(webhook.run_as_user_id, webhook.user_dept_id);
      viewers.set(
        webhook.access_id,
        sessionlessAuth(
          { id: webhook.run_as_user_id, deptId: webhook.user_dept_id, deptPath: webhook.user_dept_path },
          roles,
        ),
      );
    }
    return viewers;
  }

  // ── Delivery (the webhook job) ───────────────────────────────────────────────────────────

  /** One attempt of a delivery in the lane the queue gives it (sending.ts). */
  deliver(deliveryId: string, lane: WebhookLane): Promise<WebhookOutcome> {
    return sendDelivery(this.deps, deliveryId, lane);
  }
}

function payloadOf(
  event: WebhookEvent,
  entry: { id: string; txid: string; kinds: string[]; changed_at: Date; item_id: number },
  item: ItemFacts | undefined,
): WebhookPayload {
  return {
    type: event,
    timestamp: entry.changed_at.toISOString(),
    data: {
      assetId: entry.item_id,
      name: item?.name ?? null,
      artNum: item?.art_num ?? null,
      formats: item?.file_formats ? item.file_formats.split(',') : [],
      folderId: item?.parent_id ?? null,
      folderPath: item?.folder_path ?? null,
      kinds: entry.kinds,
      changeCursor: changeCursorOf(entry.txid, entry.id),
    },
  };
}

function webhookOf(row: WebhookListRow): Webhook {
  return {
    id: row.id,
    accessId: row.access_id,
    url: row.url,
    events: row.events as Webhook['events'],
    status: row.status === 1 ? 1 : 0,
    disabledReason: row.disabled_reason,
    consecutiveFailures: row.consecutive_failures,
    secretHint: row.secret_hint,
    lastDeliveryAt: row.last_delivery_at ? new Date(row.last_delivery_at).toISOString() : null,
    lastDeliveryState: row.last_delivery_state as WebhookDeliveryState | null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function deliveryOf(row: DeliveryRecord): WebhookDelivery {
  return {
    id: Number(row.id),
    eventType: row.event_type,
    assetId: row.item_id,
    state: row.state as WebhookDeliveryState,
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    deliveredAt: row.delivered_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}
