import { STATUS_CODES } from 'node:http';
import { WEBHOOK_FAILURES_TO_DISABLE } from '@dam/contract';
import type { WebhookLane, WebhookOutcome } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { type AllowedNetworks, type SafePostOptions, safePost, UrlRefused } from '../../lib/safe-http';
import type { SecretBox } from '../../lib/secret-box';
import { webhookHeaders, webhookSecretContext } from './deliver';
import type { WebhooksRepository } from './repository';

type Warn = (details: Record<string, unknown>, message: string) => void;

export interface SendingDependencies {
  repo: WebhooksRepository;
  secretBox: SecretBox;
  clock: Clock;
  allowed: AllowedNetworks;
  timeoutMs: number;
  warn: Warn;
  lookup?: SafePostOptions['lookup'];
}

/**
 * Why an attempt failed, as the delivery log shows it to an API administrator: the HTTP status
 * and its standard reason phrase, or one of a fixed set of transport failures. Never text the
 * receiver chose (its body or reason phrase): an intranet error page can carry secrets. The
 * address rules' own refusals (our text, naming the address) are kept.
 */
export function failureReason(outcome: { status: number } | { error: unknown }): string {
  if ('status' in outcome) {
    const phrase = STATUS_CODES[outcome.status];
    const redirect = outcome.status >= 300 && outcome.status < 400 ? ' (redirects are not followed)' : '';
    return `HTTP ${outcome.status}${phrase ? ` ${phrase}` : ''}${redirect}`;
  }
  const { error } = outcome;
  if (error instanceof UrlRefused) return `address refused: ${error.detail}`.slice(0, 300);
  const code = String((error as { code?: unknown })?.code ?? '');
  const message = String((error as { message?: unknown })?.message ?? '');
  if (/^no answer within \d+ ms$/.test(message)) return message;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA')
    return 'DNS: the name could not be resolved';
  if (/CERT|TLS|SSL|EPROTO|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return 'TLS: the secure connection failed';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  if (code === 'ECONNRESET' || code === 'EPIPE' || message === 'the answer was cut off')
    return 'connection reset';
  if (code === 'HPE_HEADER_OVERFLOW' || code.startsWith('HPE_')) return 'answer not valid HTTP or too large';
  return 'connection failed';
}

/**
 * One attempt of a delivery, in the lane the queue gives it (jobs/webhook-lanes.ts). A delivery no
 * longer pending (delivered, failed, cancelled, gone) is left alone, so a repeated job sends
 * nothing twice. An event for a webhook switched off or a record no longer live is cancelled; a
 * ping or redelivery goes anyway (asked for by hand).
 *
 * Fairness per receiver: the quick lane sends only to a receiver whose last attempt did not fail
 * (new or answering); a failing receiver's delivery goes to the slow lane without an attempt (`later`). A receiver paused after
 * failed attempts in a row is not sent to until the pause ends (its deliveries are put back,
 * nobody else's). A failed attempt pauses the receiver and, while attempts remain, answers `later`.
 */
export async function sendDelivery(
  deps: SendingDependencies,
  deliveryId: string,
  lane: WebhookLane,
): Promise<WebhookOutcome> {
  const { repo, clock, secretBox } = deps;
  const delivery = await repo.deliveryToSend(deliveryId);
  if (delivery?.state !== 'pending') return 'ended';
  if (!delivery.record_live || (delivery.webhook_status !== 1 && delivery.change_id !== null)) {
    await repo.cancelDelivery(deliveryId);
    return 'ended';
  }
  const at = clock.now();
  if (!lane.lastChance) {
    // A receiver whose last attempt failed waits in the slow lane; a new one (never tried) gets the
    // quick lane, so a test sent right after creating a webhook arrives at once. A new receiver
    // that hangs holds one quick lane once, for one time-out: its failure sends it to the slow lane.
    if (lane.quick && delivery.attempt_failures > 0) return 'later';
    if (delivery.paused_until !== null && delivery.paused_until > at) return 'later';
  }
  const secret = secretBox.open(delivery.secret_enc, webhookSecretContext(delivery.webhook_id));
  let status: number | null = null;
  let problem: string;
  if (secret === null) {
    problem = 'the signing secret could not be decrypted (OPEN_API_SECRET_KEY changed?)';
  } else {
    const body = JSON.stringify(delivery.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const answer = await safePost(delivery.url, {
        headers: webhookHeaders(secret, deliveryId, timestamp, body),
        body,
        timeoutMs: deps.timeoutMs,
        allowed: deps.allowed,
        ...(deps.lookup ? { lookup: deps.lookup } : {}),
      });
      status = answer.status;
      problem = failureReason(answer);
    } catch (error) {
      problem = failureReason({ error });
    }
  }
  // The delivery's end and the webhook's run of failures change together (one transaction), so
  // whoever sees the delivery ended sees the count that goes with it, and a duplicate run of the
  // job, finding the delivery no longer pending, counts nothing.
  if (status !== null && status >= 200 && status < 300) {
    const delivered = status;
    await repo.transaction(async (tx) => {
      if (await tx.recordAttempt(deliveryId, { state: 'delivered', status: delivered, error: null, at })) {
        await tx.receiverAnswered(delivery.webhook_id, at);
      }
    });
    return 'ended';
  }
  const outcome = { status, error: problem, at };
  const final = lane.lastChance || delivery.attempts + 1 >= lane.attemptsMax;
  if (!final) {
    await repo.transaction(async (tx) => {
      if (await tx.recordAttempt(deliveryId, { state: 'pending', ...outcome }))
        await tx.receiverFailed(delivery.webhook_id, at, lane.pauseMs);
    });
    return 'later';
  }
  const disabled = await repo.transaction(async (tx) => {
    if (!(await tx.recordAttempt(deliveryId, { state: 'failed', ...outcome }))) return false;
    await tx.receiverFailed(delivery.webhook_id, at, lane.pauseMs);
    return tx.countFailure(
      delivery.webhook_id,
      WEBHOOK_FAILURES_TO_DISABLE,
      `switched off after ${WEBHOOK_FAILURES_TO_DISABLE} failed deliveries in a row (last: ${problem})`.slice(
        0,
        500,
      ),
      at,
    );
  });
  deps.warn(
    { webhookId: delivery.webhook_id, deliveryId, error: problem, disabled },
    disabled ? 'webhook switched off after failed deliveries' : 'webhook delivery failed',
  );
  return 'ended';
}
