import {
  BACKSTOP_POLL_SECONDS,
  declareJobs,
  NUDGED_BACKSTOP_POLL_SECONDS,
  nudgePass,
  passNow,
} from '../../jobs/runtime';
import {
  ensureWebhookQueues,
  sendWebhookJobNow,
  sendWebhookJobs,
  type TransactionHandle,
  WEBHOOK_QUEUE,
  WEBHOOK_RETRY,
  WEBHOOK_SLOW_QUEUE,
  type WebhookJob,
  type WebhookLane,
  type WebhookOutcome,
  workWebhookLanes,
} from '../../jobs/webhook-lanes';

/** Passes over the change journal making webhook deliveries: every minute, and when asked. */
export const WEBHOOK_DISPATCH_QUEUE = 'webhook-dispatch';

export interface WebhookJobs {
  /**
   * Writes one job per webhook delivery, in its receiver's lane (jobs/webhook-lanes.ts), with `db`:
   * given the transaction that writes the deliveries, the jobs commit or roll back with them.
   */
  enqueueWebhooks(deliveries: readonly WebhookJob[], db?: TransactionHandle): Promise<void>;
  /** Makes a delivery due now in the slow lane (one job waiting at most), with the caller's transaction. */
  enqueueWebhookNow(delivery: WebhookJob, db: TransactionHandle): Promise<void>;
  /** Sends webhook deliveries in this process, in the quick and slow lanes (jobs/webhook-lanes.ts). */
  workWebhooks(handler: (deliveryId: string, lane: WebhookLane) => Promise<WebhookOutcome>): Promise<void>;
  /** Asks for a webhook dispatch pass soon (at most one a second). */
  nudgeWebhookDispatch(): Promise<void>;
  /** Runs the webhook dispatch passes in this process, and one every minute. */
  workWebhookDispatch(pass: () => Promise<unknown>): Promise<void>;
  /** Runs one dispatch pass now and resolves when it has ended (tests). */
  webhookDispatchPass(): Promise<void>;
}

export const webhookJobs = declareJobs<WebhookJobs>({
  async ensure({ ensureQueue, retries }) {
    await ensureQueue(WEBHOOK_DISPATCH_QUEUE, { retryLimit: 0, expireInSeconds: 300 });
    await ensureWebhookQueues(ensureQueue, retries.webhookRetry ?? WEBHOOK_RETRY);
  },
  // Webhook jobs are written (and quick jobs completed) inside the caller's transaction too.
  warm: [WEBHOOK_QUEUE, WEBHOOK_SLOW_QUEUE],
  spied: [WEBHOOK_DISPATCH_QUEUE],
  api: (runtime) => ({
    enqueueWebhooks: (deliveries, db) => sendWebhookJobs(runtime.boss, deliveries, db),
    enqueueWebhookNow: (delivery, db) => sendWebhookJobNow(runtime.boss, delivery, db),
    async workWebhooks(handler) {
      await workWebhookLanes(
        runtime.boss,
        runtime.retries.webhookRetry ?? WEBHOOK_RETRY,
        {
          backstopPollSeconds: BACKSTOP_POLL_SECONDS,
          afterJob: runtime.fetchAgain,
          transaction: (work) => runtime.database.db.transaction().execute(work),
        },
        handler,
      );
    },
    nudgeWebhookDispatch: () => nudgePass(runtime, WEBHOOK_DISPATCH_QUEUE),
    async workWebhookDispatch(pass) {
      await runtime.boss.work(
        WEBHOOK_DISPATCH_QUEUE,
        { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: NUDGED_BACKSTOP_POLL_SECONDS },
        async () => {
          await pass();
        },
      );
      await runtime.boss.schedule(WEBHOOK_DISPATCH_QUEUE, '* * * * *', null, {
        singletonKey: 'every-minute',
      });
    },
    webhookDispatchPass: () => passNow(runtime.boss, WEBHOOK_DISPATCH_QUEUE),
  }),
});
