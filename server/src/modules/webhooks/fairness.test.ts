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
import { SLOW_LANES } from '../../jobs/webhook-lanes';

/** More receivers that hang than a process has lanes of either kind (4 quick, 2 slow). */
const HANGING_RECEIVERS = 6;

/**
 * Issue 38 item 4: one slow receiver cannot hold up everyone's webhooks. Receivers that failed
 * once and then hang (a real HTTP server that reads the request and never answers, for longer than
 * the test runs) with test pings queued by the dozen hold the slow lanes; a healthy receiver's
 * event and a new receiver's first ping are delivered meanwhile, in the quick lane. A click at
 * the cap tries a fixed receiver at once. Judged by what arrived and the queue's state, not by time.
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

  /** pg-boss's jobs of one delivery's "due now" key (jobs/webhook-lanes.ts webhookNowKey) per receiver. */
  const nowJobsOf = async (webhookIds: number[]) =>
    (
      await sql<{ group_id: string; n: number }>`
        SELECT group_id, count(*)::int AS n FROM pgboss.job
         WHERE name = 'webhook-slow' AND singleton_key LIKE 'now-%' AND state IN ('created', 'retry', 'active')
           AND group_id IN (${sql.join(webhookIds.map(String))})
         GROUP BY group_id`.execute(t.database.db)
    ).rows;
  const deliveryOf = (id: number) =>
    t.database.db
      .selectFrom('api_webhook_deliveries')
      .select(['id', 'state', 'attempts'])
      .where('id', '=', String(id))
      .executeTakeFirst();

  it('a click at the cap tries a fixed receiver at once, not after its back-off', async () => {
    const hook = await givenWebhook();
    receiver.script(hook.path, { kind: 'statuses', statuses: [500] });
    const ids: number[] = [];
    // Every back-off below starts after this: no ping can be tried again by its back-off sooner than
    // 30 s from here (pg-boss's retry delay runs on the database's clock).
    const firstPingAt = performance.now();
    for (let click = 0; click < WEBHOOK_PENDING_PINGS_MAX; click += 1) ids.push(await ping(hook.id));
    // Every ping waits in the slow lane: the first after its failed attempt (the receiver paused on
    // the service clock, which never moves here), the others without an attempt; 30 s back-off.
    await until('the pings backed off', async () => {
      const jobs = (await jobsByGroup()).filter((j) => j.group_id === String(hook.id));
      const first = await deliveryOf(ids[0] as number);
      return first?.attempts === 1 && jobs.length > 0 && jobs.every((j) => j.state === 'retry')
        ? true
        : undefined;
    });
    receiver.script(hook.path, { kind: 'statuses', statuses: [200] });
    const clicked = await ping(hook.id);
    const clickedAt = performance.now();
    expect(clicked).toBe(ids[WEBHOOK_PENDING_PINGS_MAX - 1]);
    await until('the newest ping delivered', async () => {
      const newest = await deliveryOf(clicked);
      return newest?.state === 'delivered' ? newest : undefined;
    });
    const requests = receiver.to(hook.path).length;
    // Delivered at once, sooner than its 30 s back-off...
    expect(performance.now() - clickedAt).toBeLessThan(30_000);
    // ...and before any back-off ended, the receiver heard only the failed try and the clicked ping.
    // (On a machine so loaded that 30 s passed since the first ping, the others' back-offs may have
    // ended too, and their tries are theirs: failed once in a CI rehearsal with 4 requests.)
    if (performance.now() - firstPingAt < 30_000) expect(requests).toBe(2);
    else expect(requests).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it("delivers a new receiver's first ping and a healthy receiver's event while failing receivers hang in the slow lanes", async () => {
    // A receiver that has answered before.
    const healthy = await givenWebhook();
    const first = await ping(healthy.id);
    await until('the healthy receiver’s first ping', async () =>
      (await deliveriesOf([healthy.id])).find((d) => Number(d.id) === first && d.state === 'delivered'),
    );

    // Receivers whose first attempt failed (quickly), and that hang from then on.
    const hanging: { id: number; path: string }[] = [];
    for (let i = 0; i < HANGING_RECEIVERS; i += 1) {
      const hook = await givenWebhook();
      receiver.script(hook.path, { kind: 'statuses', statuses: [500] });
      hanging.push(hook);
    }
    const hangingIds = hanging.map((h) => h.id);
    const firstPings = new Map<number, number>();
    for (const hook of hanging) firstPings.set(hook.id, await ping(hook.id));
    await until('every failing receiver’s first attempt', async () =>
      (await deliveriesOf(hangingIds)).filter((d) => d.attempts === 1).length === HANGING_RECEIVERS
        ? true
        : undefined,
    );
    for (const hook of hanging) receiver.script(hook.path, { kind: 'hang' });

    // "Send a test" clicked four more times on each: three wait, the last two answer the third and
    // make it due now (the pause ended): each hanging receiver is tried again, in the slow lane.
    for (const hook of hanging) {
      const ids = [firstPings.get(hook.id) as number];
      for (let click = 1; click < 5; click += 1) ids.push(await ping(hook.id));
      expect(new Set(ids).size).toBe(WEBHOOK_PENDING_PINGS_MAX);
      expect(ids.slice(WEBHOOK_PENDING_PINGS_MAX)).toEqual([ids[2], ids[2]]);
    }
    expect(await deliveriesOf(hangingIds)).toHaveLength(HANGING_RECEIVERS * WEBHOOK_PENDING_PINGS_MAX);
    // Hanging receivers hold every slow lane of the process now.
    await until('the slow lanes held by hanging receivers', async () => {
      const held = (await jobsByGroup()).filter(
        (j) =>
          j.name === 'webhook-slow' &&
          j.state === 'active' &&
          hangingIds.map(String).includes(j.group_id ?? ''),
      );
      return held.reduce((sum, j) => sum + j.n, 0) === 2 ? true : undefined;
    });

    // A receiver created now: its first ping takes the quick lane and arrives.
    const fresh = await givenWebhook();
    const freshPing = await ping(fresh.id);
    await until('the new receiver’s first ping', async () =>
      (await deliveriesOf([fresh.id])).find((d) => Number(d.id) === freshPing && d.state === 'delivered'),
    );

    // A file every record may see: an event for each receiver, the healthy one's among them.
    const uploader = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    const file = await givenFile(t, uploader.token);
    const event = await until('the event’s deliveries', async () => {
      await t.jobs?.webhookDispatchPass();
      const made = (await deliveriesOf([healthy.id, fresh.id, ...hangingIds])).filter(
        (d) => d.event_type === 'asset.created',
      );
      return made.length === HANGING_RECEIVERS + 2
        ? made.find((d) => d.webhook_id === healthy.id)
        : undefined;
    });
    await until('the healthy receiver’s event', async () =>
      (await deliveriesOf([healthy.id])).find(
        (d) => Number(d.id) === Number(event.id) && d.state === 'delivered',
      ),
    );
    const arrived = receiver
      .to(healthy.path)
      .map((r) => JSON.parse(r.body) as { type: string; data: { assetId: number } });
    expect(arrived.at(-1)).toMatchObject({ type: 'asset.created', data: { assetId: file.id } });

    // Every hanging receiver got its failed first attempt and hanging ones only in the slow lanes;
    // nothing of theirs ended a second attempt. pg-boss counts a group's active jobs without a lock,
    // so two slow fetch loops woken by the same send may both take one of a group (docs/decisions.md,
    // "Webhook delivery is fair per receiver"): a receiver has at most SLOW_LANES in flight there.
    const hangingDeliveries = await deliveriesOf(hangingIds);
    expect(hangingDeliveries).toHaveLength(HANGING_RECEIVERS * (WEBHOOK_PENDING_PINGS_MAX + 1));
    expect(hangingDeliveries.every((d) => d.state === 'pending' && d.attempts <= 1)).toBe(true);
    for (const hook of hanging) expect(receiver.to(hook.path).length).toBeLessThanOrEqual(1 + SLOW_LANES);

    // The queue: a receiver's deliveries in flight bounded by the lanes, none of theirs in the quick
    // lane, and the clicks at the cap left at most one "due now" job waiting per receiver (and one running).
    const jobs = await jobsByGroup();
    for (const row of jobs.filter((j) => j.state === 'active')) expect(row.n).toBeLessThanOrEqual(SLOW_LANES);
    // A hanging receiver's event job in the quick lane hands its delivery to the slow lane without
    // an attempt; on a loaded machine pg-boss may still list it active for a moment after (seen in a
    // CI rehearsal). One that hung there would stay active for the whole 60 s time-out.
    await until('no hanging receiver holding a quick lane', async () =>
      (await jobsByGroup()).some(
        (j) =>
          j.name === 'webhook' && j.state === 'active' && hangingIds.map(String).includes(j.group_id ?? ''),
      )
        ? undefined
        : true,
    );
    for (const row of await nowJobsOf(hangingIds)) expect(row.n).toBeLessThanOrEqual(2);
    // The healthy receiver's jobs end (pg-boss completes a job just after its handler marked the
    // delivery delivered, so on a loaded machine one may still be active for a moment).
    await until('the healthy receiver has no job left', async () =>
      (await jobsByGroup()).some((j) => j.group_id === String(healthy.id)) ? undefined : true,
    );
  }, 120_000);
});
