import { endpoints, WEBHOOK_PENDING_PINGS_MAX } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/call';
import {
  EVERY_SCOPE,
  givenFile,
  givenSignedInUser,
  givenUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { startWebhookReceiver, type TestWebhookReceiver } from '../../../test/peers/webhook-receiver';

/** More receivers that hang than a process has lanes of either kind (4 quick, 2 slow). */
const HANGING_RECEIVERS = 6;

/**
 * Issue 38 item 4: one slow receiver cannot hold up everyone's webhooks. Receivers that hang (a
 * real HTTP server that reads the request and never answers, for longer than the test runs) with
 * test pings queued by the dozen, and a healthy receiver: its event is delivered while every other
 * receiver's request is still open. Judged by what arrived and by the queue's state, not by time.
 */
describe('webhooks: fair delivery per receiver', () => {
  let t: TestApp;
  let admin: string;
  let receiver: TestWebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    // Production's retries (30 s back-off, pauses on the manual clock that never moves here) and
    // a time-out longer than the test: a hanging attempt never ends on its own.
    t = await createTestApp(
      { LOGIN_RATE_LIMIT: '1000', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32', WEBHOOK_TIMEOUT_MS: '60000' },
      { jobs: true },
    );
    admin = await signInAdmin(t);
  });
  afterAll(async () => {
    // The receiver first: its hanging requests end, so the queue's workers can stop.
    await receiver.close();
    await t.close();
  });

  const givenWebhook = async (): Promise<{ id: number; path: string }> => {
    const enterpriseId = uniqueName('ent').replace(/[^A-Za-z0-9_-]/g, '');
    await call(t.app, endpoints.saveApiEnterprise, {
      token: admin,
      body: { enterpriseId, name: enterpriseId },
    });
    await call(t.app, endpoints.saveEnterpriseCalls, {
      token: admin,
      body: { enterpriseId, apiCodes: ['assets.get'] },
    });
    const runAs = await givenUser(t.database, { scopes: { view: 'all' } });
    const access = await call(t.app, endpoints.saveApiAccess, {
      token: admin,
      body: {
        name: uniqueName('Shop').slice(0, 30),
        description: 'hooks',
        enterpriseId,
        userMail: runAs.email,
      },
    });
    const path = `/${uniqueName('hook')}`;
    const saved = await call(t.app, endpoints.saveWebhook, {
      token: admin,
      body: { accessId: access.id, url: `${receiver.url}${path}`, events: ['asset.created'] },
    });
    return { id: saved.id, path };
  };
  const ping = async (webhookId: number) =>
    (await call(t.app, endpoints.testWebhook, { token: admin, body: { id: webhookId } })).deliveryId;
  const deliveriesOf = (webhookIds: number[]) =>
    t.database.db
      .selectFrom('api_webhook_deliveries')
      .select(['id', 'webhook_id', 'event_type', 'state', 'attempts'])
      .where('webhook_id', 'in', webhookIds)
      .orderBy('id')
      .execute();
  /** Short polling until `ready` answers a value (no fixed sleeps); `what` names it on failure. */
  const until = async <T>(
    what: string,
    ready: () => Promise<T | undefined>,
    timeoutMs = 20_000,
  ): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await ready();
      if (value !== undefined) return value;
      if (Date.now() > deadline)
        throw new Error(`still waiting for ${what}: ${JSON.stringify(await jobsByGroup())}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** The webhook jobs by queue, receiver (group) and state. */
  const jobsByGroup = async () =>
    (
      await sql<{ name: string; group_id: string | null; state: string; n: number }>`
        SELECT name, group_id, state::text AS state, count(*)::int AS n FROM pgboss.job
        WHERE name IN ('webhook', 'webhook-slow') AND state IN ('created', 'retry', 'active')
        GROUP BY name, group_id, state`.execute(t.database.db)
    ).rows;

  it("delivers a healthy receiver's event while others hang with pings queued, one request each at most", async () => {
    // A receiver that has answered before.
    const healthy = await givenWebhook();
    const first = await ping(healthy.id);
    await until('the healthy receiver’s first ping', async () =>
      (await deliveriesOf([healthy.id])).find((d) => Number(d.id) === first && d.state === 'delivered'),
    );

    const hanging: { id: number; path: string }[] = [];
    for (let i = 0; i < HANGING_RECEIVERS; i += 1) {
      const hook = await givenWebhook();
      receiver.script(hook.path, { kind: 'hang' });
      hanging.push(hook);
    }
    // "Send a test" clicked five times on each: three wait, the fourth and fifth answer the third.
    for (const hook of hanging) {
      const ids = [];
      for (let click = 0; click < 5; click += 1) ids.push(await ping(hook.id));
      expect(new Set(ids).size).toBe(WEBHOOK_PENDING_PINGS_MAX);
      expect(ids.slice(WEBHOOK_PENDING_PINGS_MAX)).toEqual([ids[2], ids[2]]);
    }
    const hangingIds = hanging.map((h) => h.id);
    expect(await deliveriesOf(hangingIds)).toHaveLength(HANGING_RECEIVERS * WEBHOOK_PENDING_PINGS_MAX);
    // Hanging receivers hold lanes now.
    await until('a hanging request', async () =>
      receiver.requests.some((r) => hanging.some((h) => r.url === h.path)) ? true : undefined,
    );

    // A file every record may see: an event for each receiver, the healthy one's among them.
    const uploader = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    const file = await givenFile(t, uploader.token);
    const event = await until('the event’s deliveries', async () => {
      await t.jobs?.webhookDispatchPass();
      const made = (await deliveriesOf([healthy.id, ...hangingIds])).filter(
        (d) => d.event_type === 'asset.created',
      );
      return made.length === HANGING_RECEIVERS + 1
        ? made.find((d) => d.webhook_id === healthy.id)
        : undefined;
    });
    await until('the healthy receiver’s event', async () =>
      (await deliveriesOf([healthy.id])).find(
        (d) => Number(d.id) === Number(event.id) && d.state === 'delivered',
      ),
    );

    // It arrived while every hanging receiver's request was still open: none of their deliveries
    // has ended an attempt, and none got a second request.
    const arrived = receiver
      .to(healthy.path)
      .map((r) => JSON.parse(r.body) as { type: string; data: { assetId: number } });
    expect(arrived.at(-1)).toMatchObject({ type: 'asset.created', data: { assetId: file.id } });
    const hangingDeliveries = await deliveriesOf(hangingIds);
    expect(hangingDeliveries).toHaveLength(HANGING_RECEIVERS * (WEBHOOK_PENDING_PINGS_MAX + 1));
    expect(hangingDeliveries.every((d) => d.state === 'pending' && d.attempts === 0)).toBe(true);
    for (const hook of hanging) expect(receiver.to(hook.path).length).toBeLessThanOrEqual(1);

    // The queue: at most one delivery of a receiver in flight per lane, the rest waiting in their groups.
    const jobs = await jobsByGroup();
    for (const row of jobs.filter((j) => j.state === 'active')) expect(row.n).toBe(1);
    const waiting = jobs
      .filter((j) => j.state !== 'active' && hangingIds.map(String).includes(j.group_id ?? ''))
      .reduce((sum, j) => sum + j.n, 0);
    const inFlight = jobs
      .filter((j) => j.state === 'active' && hangingIds.map(String).includes(j.group_id ?? ''))
      .reduce((sum, j) => sum + j.n, 0);
    expect(inFlight).toBeGreaterThanOrEqual(1);
    expect(waiting + inFlight).toBe(HANGING_RECEIVERS * (WEBHOOK_PENDING_PINGS_MAX + 1));
    expect(jobs.some((j) => j.group_id === String(healthy.id))).toBe(false);
  }, 120_000);
});
