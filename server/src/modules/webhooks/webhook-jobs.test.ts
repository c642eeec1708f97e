import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { endpoints, WEBHOOK_PENDING_PINGS_MAX } from '@dam/contract';
import { sql } from 'kysely';
import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import { EVERY_SCOPE, givenFile, givenSignedInUser, givenUser, uniqueName } from '../../../test/factories';
import { ADMIN, createTestDatabase, signIn, type TestApp } from '../../../test/harness';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { DatabaseHandle } from '../../db/database';
import { type JobQueue, startJobQueue, WEBHOOK_QUEUE, WEBHOOK_SLOW_QUEUE } from '../../jobs/queue';
import { ManualClock } from '../../lib/clock';
import { parseNetworks } from '../../lib/safe-http';
import { SecretBox } from '../../lib/secret-box';
import { AccessRepository } from '../access/access.repository';
import { ensureFirstAdministrator } from '../accounts/bootstrap';
import { AccountsRepository } from '../accounts/repository';
import { OpenChangesRepository } from '../open-api/changes/repository';
import { WebhooksRepository } from './repository';
import { WebhooksService } from './service';

/**
 * Issue 38 item 4 (review): a delivery's job is written in the transaction that writes the
 * delivery (and, for events, moves the journal cursor), so a process killed between the commit and
 * the send cannot leave a delivery pending for ever. A kill cannot happen in-process, so the tests
 * hold the structure: a job the queue is asked for outside the delivery's transaction is refused
 * here, as a dead process would never send it. No delivery workers run: jobs stay where they are
 * written.
 */
describe('webhook delivery jobs are written with their deliveries', { timeout: 60_000 }, () => {
  let database: DatabaseHandle;
  let queue: JobQueue;
  let t: TestApp;
  let admin: string;
  /** The dispatch pass, run by the test (no worker runs it). */
  let dispatch: WebhooksService;
  /** What the queue does with delivery jobs written inside a transaction (`db` given) or outside it. */
  let sendWebhooks: JobQueue['enqueueWebhooks'];
  const refuseOutsideTransaction: JobQueue['enqueueWebhooks'] = async (deliveries, db) => {
    if (!db) throw new Error('the process died between the commit and the send');
    await queue.enqueueWebhooks(deliveries, db);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-webhook-jobs-'));
    // A clock that never moves and no workers: jobs stay where they were written.
    queue = await startJobQueue(database, { onError: () => {}, clock: new TestClock() });
    const idle = Object.fromEntries(
      Object.keys(queue)
        .filter((key) => key.startsWith('work'))
        .map((key) => [key, async () => {}]),
    );
    const jobs: JobQueue = {
      ...queue,
      ...idle,
      enqueueWebhooks: (deliveries, db) => sendWebhooks(deliveries, db),
    };
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: '-',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      MEDIA_WORKERS: '0',
      LOGIN_RATE_LIMIT: '1000',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    });
    await ensureFirstAdministrator(new AccountsRepository(database.db), {
      adminEmail: config.ADMIN_EMAIL,
      adminPassword: config.ADMIN_PASSWORD,
    });
    const clock = new ManualClock();
    const app = await buildApp({ config, database, clock, version: 'test', jobs });
    t = {
      app,
      database,
      clock,
      config,
      jobs,
      close: async () => {
        await app.close();
        await queue.stop();
        await database.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
    admin = await signIn(app, ADMIN.email, ADMIN.password);
    // The app's own wiring (services.ts) for the pass, without its worker.
    dispatch = new WebhooksService({
      repo: new WebhooksRepository(database.db, {
        changes: (handle) => new OpenChangesRepository(handle),
        access: (handle) => new AccessRepository(handle),
      }),
      secretBox: SecretBox.fromKey(randomBytes(32)),
      clock,
      allowed: parseNetworks(config.WEBHOOK_ALLOWED_NETWORKS),
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      deliveryJobs: {
        quick: (deliveries, db) => jobs.enqueueWebhooks(deliveries, db),
        now: (delivery, db) => jobs.enqueueWebhookNow(delivery, db),
      },
      warn: () => {},
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const givenWebhook = async (): Promise<number> => {
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
    const saved = await call(t.app, endpoints.saveWebhook, {
      token: admin,
      body: {
        accessId: access.id,
        url: `http://127.0.0.1:9/${uniqueName('hook')}`,
        events: ['asset.created'],
      },
    });
    return saved.id;
  };
  const deliveriesOf = async (webhookId: number) =>
    (
      await t.database.db
        .selectFrom('api_webhook_deliveries')
        .select(['id', 'event_type', 'state'])
        .where('webhook_id', '=', webhookId)
        .orderBy('id')
        .execute()
    ).map((d) => ({ ...d, id: Number(d.id) }));
  /** The webhook jobs of a delivery in pg-boss's own table, as committed. */
  const jobsOf = async (deliveryId: number | string) =>
    (
      await sql<{ name: string; state: string; singleton_key: string | null; due: boolean }>`
        SELECT name, state::text AS state, singleton_key, start_after <= now() AS due FROM pgboss.job
         WHERE name IN (${WEBHOOK_QUEUE}, ${WEBHOOK_SLOW_QUEUE}) AND data->>'deliveryId' = ${String(deliveryId)}
         ORDER BY created_on`.execute(t.database.db)
    ).rows;

  it("writes a test ping's job with the ping: a process gone after the commit loses nothing", async () => {
    sendWebhooks = refuseOutsideTransaction;
    const webhookId = await givenWebhook();
    const { deliveryId } = await call(t.app, endpoints.testWebhook, {
      token: admin,
      body: { id: webhookId },
    });
    expect(await deliveriesOf(webhookId)).toEqual([{ id: deliveryId, event_type: 'ping', state: 'pending' }]);
    expect(await jobsOf(deliveryId)).toMatchObject([{ name: WEBHOOK_QUEUE, state: 'created' }]);
  });

  it("writes a redelivery's job with the redelivery", async () => {
    sendWebhooks = refuseOutsideTransaction;
    const webhookId = await givenWebhook();
    const first = await call(t.app, endpoints.testWebhook, { token: admin, body: { id: webhookId } });
    const again = await call(t.app, endpoints.redeliverWebhook, {
      token: admin,
      body: { deliveryId: first.deliveryId },
    });
    expect(again.deliveryId).not.toBe(first.deliveryId);
    expect(await jobsOf(again.deliveryId)).toMatchObject([{ name: WEBHOOK_QUEUE, state: 'created' }]);
  });

  it('writes the jobs of a dispatch pass with its deliveries and the cursor it moves', async () => {
    sendWebhooks = refuseOutsideTransaction;
    const webhookId = await givenWebhook();
    const uploader = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    await givenFile(t, uploader.token);
    // A pass reads the journal only up to the oldest transaction still running on the server
    // (pg_snapshot_xmin, cluster-wide on PostgreSQL): another test file's open transaction can hold
    // the file's entry back for a moment, so passes are made until it has been dispatched.
    const dispatched = async () =>
      (await deliveriesOf(webhookId)).filter((d) => d.event_type === 'asset.created');
    const deadline = Date.now() + 20_000;
    await dispatch.dispatch();
    while ((await dispatched()).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await dispatch.dispatch();
    }
    const events = await dispatched();
    expect(events).toHaveLength(1);
    for (const event of events)
      expect(await jobsOf(event.id)).toMatchObject([{ name: WEBHOOK_QUEUE, state: 'created' }]);
  });

  it('rolls the ping back with its job when writing the job fails', async () => {
    sendWebhooks = async (deliveries, db) => {
      await refuseOutsideTransaction(deliveries, db);
      throw new Error('the database failed after the job was written');
    };
    const webhookId = await givenWebhook();
    const answer = await attempt(t.app, endpoints.testWebhook, { token: admin, body: { id: webhookId } });
    expect(answer.status).toBe(500);
    expect(await deliveriesOf(webhookId)).toEqual([]);
  });

  it('a click at the cap ends the pause and makes the newest ping due now, one job however many clicks', async () => {
    sendWebhooks = refuseOutsideTransaction;
    const webhookId = await givenWebhook();
    // A receiver that failed and is paused for an hour.
    await t.database.db
      .updateTable('api_webhooks')
      .set({ attempt_failures: 8, paused_until: new Date(t.clock.now().getTime() + 3_600_000) })
      .where('id', '=', webhookId)
      .execute();
    const ids: number[] = [];
    for (let click = 0; click < WEBHOOK_PENDING_PINGS_MAX + 5; click += 1)
      ids.push(
        (await call(t.app, endpoints.testWebhook, { token: admin, body: { id: webhookId } })).deliveryId,
      );
    const newest = ids[WEBHOOK_PENDING_PINGS_MAX - 1] as number;
    expect(ids.slice(WEBHOOK_PENDING_PINGS_MAX)).toEqual(Array(5).fill(newest));
    const webhook = await t.database.db
      .selectFrom('api_webhooks')
      .select(['paused_until', 'attempt_failures'])
      .where('id', '=', webhookId)
      .executeTakeFirstOrThrow();
    expect(webhook).toEqual({ paused_until: null, attempt_failures: 8 });
    // Its first attempt's job in the quick lane, and one slow-lane job due now.
    expect(await jobsOf(newest)).toMatchObject([
      { name: WEBHOOK_QUEUE, state: 'created' },
      { name: WEBHOOK_SLOW_QUEUE, state: 'created', due: true },
    ]);
  });
});
