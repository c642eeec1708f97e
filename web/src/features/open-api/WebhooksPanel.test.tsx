// @vitest-environment jsdom
import { WEBHOOK_EVENTS, type Webhook, type WebhookDelivery } from '@dam/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { WebhooksPanel } from './WebhooksPanel';

const answer = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));
const refusal = (status: number, errorCode: string, errorDesc: string) =>
  new Response(JSON.stringify({ success: false, result: null, errorCode, errorDesc }), { status });

const SECRET = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==';
const TIME = '2026-11-26T06:30:00.000Z';

const webhook = (over: Partial<Webhook>): Webhook => ({
  id: 1,
  accessId: 7,
  url: 'https://erp.example.com/hook',
  events: ['asset.created', 'asset.updated'],
  status: 1,
  disabledReason: null,
  consecutiveFailures: 0,
  secretHint: 'Zq9x',
  lastDeliveryAt: TIME,
  lastDeliveryState: 'delivered',
  createdAt: TIME,
  updatedAt: TIME,
  ...over,
});

const delivery = (over: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: 50,
  eventType: 'ping',
  assetId: null,
  state: 'pending',
  attempts: 0,
  lastStatus: null,
  lastError: null,
  lastAttemptAt: null,
  deliveredAt: null,
  createdAt: TIME,
  ...over,
});

/** A fake server: the record's webhooks and one webhook's deliveries, as the test sets them. */
function fakeServer() {
  const state = {
    webhooks: [
      webhook({}),
      webhook({
        id: 2,
        url: 'https://old.example.com/hook',
        status: 0,
        consecutiveFailures: 20,
        disabledReason: '连续 20 次投递失败',
        lastDeliveryState: 'failed',
      }),
    ],
    deliveries: [
      delivery({
        id: 40,
        eventType: 'asset.created',
        assetId: 12,
        state: 'failed',
        attempts: 9,
        lastStatus: 500,
        lastError: 'HTTP 500',
      }),
    ],
    sent: [] as Array<{ path: string; body: unknown }>,
    refuseNextSave: true,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://dam.test').pathname;
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      if (path.endsWith('/open/webhooks')) return answer(state.webhooks);
      if (path.endsWith('/open/webhookDeliveries'))
        return answer({ list: state.deliveries, total: state.deliveries.length, pageNo: 1, pageSize: 20 });
      state.sent.push({ path: path.slice(path.lastIndexOf('/') + 1), body });
      if (path.endsWith('/open/saveWebhook')) {
        if (state.refuseNextSave) {
          state.refuseNextSave = false;
          return refusal(400, 'SEOA_06', 'Webhook 地址不可用：地址指向内网（10.0.0.1）');
        }
        state.webhooks = [
          ...state.webhooks,
          webhook({ id: 3, url: body.url, lastDeliveryState: null, lastDeliveryAt: null }),
        ];
        return answer({ id: 3, secret: SECRET });
      }
      if (path.endsWith('/open/redeliverWebhook')) {
        state.deliveries = [
          delivery({ id: 52, eventType: 'asset.created', assetId: 12 }),
          ...state.deliveries,
        ];
        return answer({ deliveryId: 52 });
      }
      if (path.endsWith('/open/testWebhook')) {
        state.deliveries = [delivery({ id: 51 }), ...state.deliveries];
        return answer({ deliveryId: 51 });
      }
      throw new Error(`unexpected call ${url}`);
    }),
  );
  return state;
}

function renderPanel() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <WebhooksPanel accessId={7} />
      </App>
    </QueryClientProvider>,
  );
}

describe("an access record's webhooks", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists each webhook with its events, its last delivery and, when the server switched it off, why', async () => {
    fakeServer();
    renderPanel();
    const cards = await screen.findAllByTestId('webhook-card');
    expect(cards).toHaveLength(2);
    const [on, disabled] = cards as [HTMLElement, HTMLElement];

    expect(within(on).getByTestId('webhook-card-url').textContent).toContain('https://erp.example.com/hook');
    expect(within(on).getByTestId('webhook-card-events').textContent).toBe('文件新建信息或标签修改');
    expect(within(on).getByTestId('webhook-card-last-state').textContent).toBe('已送达');
    expect(within(on).getByTestId('webhook-card-status').getAttribute('aria-checked')).toBe('true');
    expect(within(on).queryByTestId('webhook-card-disabled')).toBeNull();
    expect(within(on).queryByTestId('webhook-card-failures')).toBeNull();

    expect(disabled.dataset.health).toBe('disabled');
    expect(within(disabled).getByTestId('webhook-card-status').getAttribute('aria-checked')).toBe('false');
    expect(within(disabled).getByTestId('webhook-card-failures').textContent).toBe('连续失败 20 次');
    expect(within(disabled).getByTestId('webhook-card-disabled').textContent).toContain('连续 20 次投递失败');
    expect(within(disabled).getByTestId('webhook-card-last-state').textContent).toBe('失败');
  });

  it('checks the URL and events before sending, shows the server refusal under the URL, then the secret once', async () => {
    const server = fakeServer();
    const user = userEvent.setup();
    renderPanel();
    await user.click(await screen.findByTestId('webhook-new'));

    // Every event is ticked for a new webhook; with none, and without a URL, nothing is sent.
    const events = within(screen.getByTestId('webhook-events')).getAllByRole('checkbox');
    expect(events).toHaveLength(WEBHOOK_EVENTS.length);
    expect(events.every((box) => (box as HTMLInputElement).checked)).toBe(true);
    for (const box of events) await user.click(box);
    await user.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText('必填')).toBeTruthy();
    expect(await screen.findByText('请至少选择一个事件')).toBeTruthy();

    await user.click(screen.getByTestId('webhook-url'));
    await user.paste('ftp://erp.example.com/hook');
    await user.click(events[0] as HTMLElement);
    await user.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText('只支持 http 和 https 地址')).toBeTruthy();
    expect(server.sent).toEqual([]);

    // The server may not reach the address: its reason stands under the URL and the dialog stays.
    await user.clear(screen.getByTestId('webhook-url'));
    await user.paste('http://10.0.0.1/hook');
    await user.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText('Webhook 地址不可用：地址指向内网（10.0.0.1）')).toBeTruthy();
    expect(server.sent).toEqual([
      {
        path: 'saveWebhook',
        body: { accessId: 7, url: 'http://10.0.0.1/hook', events: ['asset.created'], status: 1 },
      },
    ]);

    // Saved: the signing secret is shown once, and forgotten when its dialog is closed.
    await user.clear(screen.getByTestId('webhook-url'));
    await user.paste('https://erp.example.com/new');
    await user.click(screen.getByTestId('webhook-save'));
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe(SECRET);
    expect(screen.getByTestId('webhook-secret-dialog').textContent).toContain('https://erp.example.com/new');
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('webhook-secret')).toBeTruthy();
    await user.click(screen.getByTestId('webhook-secret-close'));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
    expect(document.body.innerHTML).not.toContain(SECRET);
    await waitFor(() => expect(screen.getAllByTestId('webhook-card')).toHaveLength(3));
  });

  it('sends a test and shows it in the delivery log, read again until it is delivered', async () => {
    const server = fakeServer();
    const user = userEvent.setup();
    renderPanel();
    const [first] = await screen.findAllByTestId('webhook-card');
    await user.click(within(first as HTMLElement).getByTestId('webhook-test'));
    expect(server.sent).toEqual([{ path: 'testWebhook', body: { id: 1 } }]);

    const log = await screen.findByTestId('webhook-deliveries');
    await waitFor(() => expect(log.querySelectorAll('tr[data-delivery]')).toHaveLength(2));
    const row = (id: number) => log.querySelector(`tr[data-delivery="${id}"]`) as HTMLElement;
    expect(within(row(51)).getByTestId('webhook-delivery-state').textContent).toBe('发送中');
    expect(row(51).textContent).toContain('测试');
    // Only a delivery that has ended may be sent again.
    expect(within(row(51)).queryByTestId('webhook-redeliver')).toBeNull();
    expect(within(row(40)).getByTestId('webhook-redeliver')).toBeTruthy();
    expect(row(40).textContent).toContain('文件新建');
    expect(row(40).textContent).toContain('HTTP 500');

    // The receiver answered: the pending row turns delivered without anyone reloading.
    server.deliveries = server.deliveries.map((each) =>
      each.id === 51
        ? { ...each, state: 'delivered', attempts: 1, lastStatus: 204, deliveredAt: TIME }
        : each,
    );
    await waitFor(
      () => expect(within(row(51)).getByTestId('webhook-delivery-state').textContent).toBe('已送达'),
      { timeout: 5000 },
    );
    expect(within(row(51)).getByTestId('webhook-redeliver')).toBeTruthy();

    // The failed one sent again: a new delivery of the same event heads the log.
    await user.click(within(row(40)).getByTestId('webhook-redeliver'));
    expect(server.sent.at(-1)).toEqual({ path: 'redeliverWebhook', body: { deliveryId: 40 } });
    await waitFor(() => expect(log.querySelectorAll('tr[data-delivery]')).toHaveLength(3));
    expect(log.querySelector('tr[data-delivery]')?.getAttribute('data-delivery')).toBe('52');
  });
});
