import {
  type SaveWebhookRequest,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX_CHARS,
  WEBHOOKS_PER_ACCESS_MAX,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryState,
  type WebhookEvent,
} from '@dam/contract';

/**
 * An access record's webhooks without React (issue 15; docs/plans/issue-15-open-api.md §6): what
 * the webhook dialog refuses before anything is sent (the server checks again, and alone decides
 * which addresses it may reach: SEOA_06), what a save or a status switch sends, and how a webhook's
 * health and its deliveries are shown.
 */

/** The webhook dialog's fields as the form holds them. */
export interface WebhookForm {
  url: string;
  events: WebhookEvent[];
  on: boolean;
}

/** The problems the dialog names under the URL (texts `openApi.webhooks.form.<problem>`). */
export type WebhookUrlProblem = 'required' | 'tooLong' | 'invalid' | 'scheme' | 'credentials';

/**
 * The URL must be an absolute http(s) address with a host and without a user name or password.
 * Whether its host may be reached (loopback, private and link-local ranges are refused unless the
 * server is configured to allow them) only the server can say.
 */
export function webhookUrlProblem(value: string | undefined): WebhookUrlProblem | null {
  const text = (value ?? '').trim();
  if (!text) return 'required';
  if (text.length > WEBHOOK_URL_MAX_CHARS) return 'tooLong';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme';
  if (!url.hostname) return 'invalid';
  if (url.username || url.password) return 'credentials';
  return null;
}

/** At least one event must be ticked. */
export function webhookEventsProblem(events: readonly string[] | undefined): 'required' | null {
  return orderedEvents(events ?? []).length === 0 ? 'required' : null;
}

/** The known events in the contract's order, each once (a list from the server may hold others). */
export function orderedEvents(events: readonly string[]): WebhookEvent[] {
  return WEBHOOK_EVENTS.filter((event) => events.includes(event));
}

/** The dialog's values for an existing webhook (edit), or a new one's: every event, switched on. */
export function webhookFormOf(webhook: Webhook | null): WebhookForm {
  if (!webhook) return { url: '', events: [...WEBHOOK_EVENTS], on: true };
  return { url: webhook.url, events: orderedEvents(webhook.events), on: webhook.status === 1 };
}

/** What saveWebhook is sent for the dialog's values: `id` for an edit, none for a new webhook. */
export function webhookRequest(values: WebhookForm, accessId: number, id: number | null): SaveWebhookRequest {
  return {
    ...(id === null ? {} : { id }),
    accessId,
    url: values.url.trim(),
    events: orderedEvents(values.events),
    status: values.on ? 1 : 0,
  };
}

/** The status switch: saveWebhook with the webhook's own URL and events and the status flipped. */
export function webhookToggleRequest(webhook: Webhook, on: boolean): SaveWebhookRequest {
  return webhookRequest({ ...webhookFormOf(webhook), on }, webhook.accessId, webhook.id);
}

/** Whether another webhook may be added to a record that has `count`. */
export function canAddWebhook(count: number): boolean {
  return count < WEBHOOKS_PER_ACCESS_MAX;
}

/**
 * A webhook's state as its card says it: on; on but its last deliveries failed; switched off by
 * hand; or switched off by the server after too many failures in a row (its reason shown).
 */
export type WebhookHealth = 'on' | 'failing' | 'off' | 'disabled';

export function webhookHealth(webhook: Webhook): WebhookHealth {
  if (webhook.status === 1) return webhook.consecutiveFailures > 0 ? 'failing' : 'on';
  return webhook.disabledReason ? 'disabled' : 'off';
}

/** Ant Design tag colours of the delivery states. */
const STATE_COLOURS: Record<WebhookDeliveryState, string> = {
  pending: 'processing',
  delivered: 'success',
  failed: 'error',
  cancelled: 'default',
};

export function deliveryStateColour(state: WebhookDeliveryState): string {
  return STATE_COLOURS[state];
}

/** A delivery may be sent again once it has ended (delivered or failed), not while pending. */
export function canRedeliver(delivery: Pick<WebhookDelivery, 'state'>): boolean {
  return delivery.state === 'failed' || delivery.state === 'delivered';
}

/** While a delivery is still pending the log is read again this often; otherwise not at all. */
export const DELIVERY_POLL_MS = 2000;

export function deliveriesPollInterval(
  deliveries: ReadonlyArray<Pick<WebhookDelivery, 'state'>> | undefined,
): number | false {
  return deliveries?.some((delivery) => delivery.state === 'pending') ? DELIVERY_POLL_MS : false;
}

/** The webhook list is read again while any webhook's last delivery is pending. */
export function webhooksPollInterval(
  webhooks: ReadonlyArray<Pick<Webhook, 'lastDeliveryState'>> | undefined,
): number | false {
  return webhooks?.some((webhook) => webhook.lastDeliveryState === 'pending') ? DELIVERY_POLL_MS : false;
}

/**
 * The translation key of a delivery's event type (`ping` is what "send test" sends), or null for
 * a type this screen does not know (shown as the server wrote it).
 */
export function eventLabelKey(eventType: string): string | null {
  if (eventType === 'ping') return 'openApi.webhooks.eventName.ping';
  return (WEBHOOK_EVENTS as readonly string[]).includes(eventType)
    ? `openApi.webhooks.eventName.${eventType.replace('.', '_')}`
    : null;
}
