import {
  saveWebhookRequestSchema,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX_CHARS,
  WEBHOOKS_PER_ACCESS_MAX,
  type Webhook,
} from '@dam/contract';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en';
import zh from '../../i18n/zh';
import {
  canAddWebhook,
  canRedeliver,
  DELIVERY_POLL_MS,
  deliveriesPollInterval,
  deliveryStateColour,
  eventLabelKey,
  orderedEvents,
  webhookEventsProblem,
  webhookFormOf,
  webhookHealth,
  webhookRequest,
  webhooksPollInterval,
  webhookToggleRequest,
  webhookUrlProblem,
} from './webhooks';

const WEBHOOK: Webhook = {
  id: 3,
  accessId: 7,
  url: 'https://erp.example.com/dam/hook',
  events: ['asset.deleted', 'asset.created'],
  status: 1,
  disabledReason: null,
  consecutiveFailures: 0,
  secretHint: 'Zq9x',
  lastDeliveryAt: null,
  lastDeliveryState: null,
  createdAt: '2026-11-26T00:00:00.000Z',
  updatedAt: '2026-11-26T00:00:00.000Z',
};

/** The string at a dotted key of a language's strings, or undefined. */
function text(strings: object, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], strings);
}

describe('the webhook URL rule', () => {
  it('takes absolute http(s) URLs, trimmed, with ports, paths and queries', () => {
    expect(webhookUrlProblem('https://erp.example.com/dam/hook')).toBeNull();
    expect(webhookUrlProblem('  http://127.0.0.1:18664/hook?x=1  ')).toBeNull();
    // Which hosts may be reached is the server's call (SEOA_06), not the form's.
    expect(webhookUrlProblem('http://10.0.0.1/hook')).toBeNull();
  });

  it('names what is wrong: missing, too long, not a URL, another scheme, credentials', () => {
    expect(webhookUrlProblem(undefined)).toBe('required');
    expect(webhookUrlProblem('   ')).toBe('required');
    expect(webhookUrlProblem(`https://a.example/${'x'.repeat(WEBHOOK_URL_MAX_CHARS)}`)).toBe('tooLong');
    expect(webhookUrlProblem('erp.example.com/hook')).toBe('invalid');
    expect(webhookUrlProblem('https://')).toBe('invalid');
    expect(webhookUrlProblem('ftp://erp.example.com/hook')).toBe('scheme');
    expect(webhookUrlProblem('javascript:alert(1)')).toBe('scheme');
    expect(webhookUrlProblem('http://user:pw@erp.example.com/hook')).toBe('credentials');
    expect(webhookUrlProblem('http://user@erp.example.com/hook')).toBe('credentials');
  });

  it('wants at least one known event', () => {
    expect(webhookEventsProblem(undefined)).toBe('required');
    expect(webhookEventsProblem([])).toBe('required');
    expect(webhookEventsProblem(['ping'])).toBe('required');
    expect(webhookEventsProblem(['asset.updated'])).toBeNull();
  });
});

describe('what the webhook dialog sends', () => {
  it('starts a new webhook with every event, switched on', () => {
    expect(webhookFormOf(null)).toEqual({ url: '', events: [...WEBHOOK_EVENTS], on: true });
  });

  it('fills an edit from the webhook, its events in the contract order', () => {
    expect(webhookFormOf({ ...WEBHOOK, status: 0 })).toEqual({
      url: WEBHOOK.url,
      events: ['asset.created', 'asset.deleted'],
      on: false,
    });
  });

  it('sends a new webhook without an id and an edit with it, as the contract accepts', () => {
    const created = webhookRequest(
      { url: ' https://erp.example.com/hook ', events: ['asset.deleted', 'asset.created'], on: true },
      7,
      null,
    );
    expect(created).toEqual({
      accessId: 7,
      url: 'https://erp.example.com/hook',
      events: ['asset.created', 'asset.deleted'],
      status: 1,
    });
    expect(saveWebhookRequestSchema.safeParse(created).success).toBe(true);
    const edited = webhookRequest({ url: WEBHOOK.url, events: ['asset.updated'], on: false }, 7, 3);
    expect(edited).toEqual({ id: 3, accessId: 7, url: WEBHOOK.url, events: ['asset.updated'], status: 0 });
    expect(saveWebhookRequestSchema.safeParse(edited).success).toBe(true);
  });

  it('switches a webhook with its own URL and events unchanged', () => {
    expect(webhookToggleRequest(WEBHOOK, false)).toEqual({
      id: 3,
      accessId: 7,
      url: WEBHOOK.url,
      events: ['asset.created', 'asset.deleted'],
      status: 0,
    });
  });

  it(`allows up to ${WEBHOOKS_PER_ACCESS_MAX} webhooks a record`, () => {
    expect(canAddWebhook(0)).toBe(true);
    expect(canAddWebhook(WEBHOOKS_PER_ACCESS_MAX - 1)).toBe(true);
    expect(canAddWebhook(WEBHOOKS_PER_ACCESS_MAX)).toBe(false);
  });

  it('keeps only known events, once, in order', () => {
    expect(orderedEvents(['asset.deleted', 'nope', 'asset.created', 'asset.deleted'])).toEqual([
      'asset.created',
      'asset.deleted',
    ]);
  });
});

describe('how a webhook and its deliveries are shown', () => {
  it("tells a webhook's health: on, failing, off by hand, switched off by the server", () => {
    expect(webhookHealth(WEBHOOK)).toBe('on');
    expect(webhookHealth({ ...WEBHOOK, consecutiveFailures: 2 })).toBe('failing');
    expect(webhookHealth({ ...WEBHOOK, status: 0 })).toBe('off');
    expect(
      webhookHealth({
        ...WEBHOOK,
        status: 0,
        consecutiveFailures: 20,
        disabledReason: '20 failures in a row',
      }),
    ).toBe('disabled');
  });

  it('colours each delivery state and offers "deliver again" only once a delivery has ended', () => {
    expect(WEBHOOK_DELIVERY_STATES.map(deliveryStateColour)).toEqual([
      'processing',
      'success',
      'error',
      'default',
    ]);
    expect(WEBHOOK_DELIVERY_STATES.filter((state) => canRedeliver({ state }))).toEqual([
      'delivered',
      'failed',
    ]);
  });

  it('reads the log again while a delivery is pending, and stops when none is', () => {
    expect(deliveriesPollInterval(undefined)).toBe(false);
    expect(deliveriesPollInterval([{ state: 'delivered' }, { state: 'failed' }])).toBe(false);
    expect(deliveriesPollInterval([{ state: 'delivered' }, { state: 'pending' }])).toBe(DELIVERY_POLL_MS);
    expect(webhooksPollInterval([{ lastDeliveryState: null }, { lastDeliveryState: 'delivered' }])).toBe(
      false,
    );
    expect(webhooksPollInterval([{ lastDeliveryState: 'pending' }])).toBe(DELIVERY_POLL_MS);
    expect(DELIVERY_POLL_MS).toBeLessThanOrEqual(5000);
  });

  it('names every event, the test ping and every state in Chinese and English', () => {
    const keys = [
      ...[...WEBHOOK_EVENTS, 'ping'].map((event) => eventLabelKey(event) as string),
      ...WEBHOOK_DELIVERY_STATES.map((state) => `openApi.webhooks.deliveryState.${state}`),
      ...['required', 'tooLong', 'invalid', 'scheme', 'credentials'].map((p) => `openApi.webhooks.form.${p}`),
    ];
    for (const key of keys) {
      expect(typeof text(zh, key), `zh ${key}`).toBe('string');
      expect(typeof text(en, key), `en ${key}`).toBe('string');
    }
    expect(eventLabelKey('asset.formatAdded')).toBe('openApi.webhooks.eventName.asset_formatAdded');
    expect(eventLabelKey('asset.somethingNew')).toBeNull();
  });
});
