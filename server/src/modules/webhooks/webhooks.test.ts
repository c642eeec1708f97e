import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  endpoints,
  type FunctionCode,
  OperationCode,
  WEBHOOK_FAILURES_TO_DISABLE,
  type WebhookEvent,
} from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import {
  EVERY_SCOPE,
  type GivenUser,
  givenDepartment,
  givenFile,
  givenSignedInUser,
  givenUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type TestWebhookReceiver,
} from '../../../test/peers/webhook-receiver';

const API: FunctionCode[] = [7];
const DEPT_SCOPES = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
/** Three attempts in all, straight after one another (production: 9 over about two hours). */
const SHORT_RETRY = { retryLimit: 2, retryDelaySeconds: 0, retryDelayMaxSeconds: 0 };

/**
 * Standard Webhooks verification, written from the specification (standardwebhooks.com), not from
 * the server's code: the key is the base64 after `whsec_`; the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`; webhook-signature holds space-separated
 * `v1,<base64 HMAC-SHA256>` entries, one of which must match; the timestamp must be within five
 * minutes of now. Answers the parsed payload, or throws saying what did not hold.
 */
function verifyStandardWebhook(secret: string, request: ReceivedWebhook): Record<string, unknown> {
  const header = (name: string) => {
    const value = request.headers[name];
    if (typeof value !== 'string' || value === '') throw new Error(`missing ${name}`);
    return value;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300)
    throw new Error(`timestamp out of tolerance: ${timestamp}`);
  if (!secret.startsWith('whsec_')) throw new Error('not a whsec_ secret');
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new Error('no signature matches');
  return JSON.parse(request.body) as Record<string, unknown>;
}

/**
 * Webhooks of open API access records (issue 15): management within the caller's reach, URL
 * rules at registration and at every attempt, signed Standard Webhooks deliveries to a real HTTP
 * receiver, events from the change journal for records that may see the file, retries, failure
 * and switching off.
 */
describe('webhooks', () => {
  let t: TestApp;
  let admin: string;
  let receiver: TestWebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    // Long enough that a busy machine (two test workers on two cores) never turns an answer that
    // came into a time-out; the hanging receiver's test waits it out three times.
    t = await createTestApp(
      { LOGIN_RATE_LIMIT: '1000', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32', WEBHOOK_TIMEOUT_MS: '2000' },
      { jobs: true, webhookRetry: SHORT_RETRY },
    );
    admin = await signInAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const givenEnterprise = async (): Promise<string> => {
    const enterpriseId = uniqueName('ent').replace(/[^A-Za-z0-9_-]/g, '');
    await call(t.app, endpoints.saveApiEnterprise, {
      token: admin,
      body: { enterpriseId, name: enterpriseId },
    });
    await call(t.app, endpoints.saveEnterpriseCalls, {
      token: admin,
      body: { enterpriseId, apiCodes: ['assets.get'] },
    });
    return enterpriseId;
  };
  /** An access record whose user is `user` (by default one who sees every shared file). */
  const givenRecord = async (user?: GivenUser, token = admin): Promise<number> => {
    const runAs = user ?? (await givenUser(t.database, { scopes: { view: 'all' } }));
    const saved = await call(t.app, endpoints.saveApiAccess, {
      token,
      body: {
        name: uniqueName('Shop').slice(0, 30),
        description: 'Receives webhooks',
        enterpriseId: await givenEnterprise(),
        userMail: runAs.email,
      },
    });
    return saved.id;
  };
  /** A webhook on a path of its own at the receiver. */
  const givenWebhook = async (
    accessId: number,
    events: WebhookEvent[] = ['asset.created'],
  ): Promise<{ id: number; secret: string; path: string }> => {
    const path = `/${uniqueName('hook')}`;
    const saved = await call(t.app, endpoints.saveWebhook, {
      token: admin,
      body: { accessId, url: `${receiver.url}${path}`, events },
    });
    if (!saved.secret) throw new Error('no secret at creation');
    return { id: saved.id, secret: saved.secret, path };
  };
  const delivery = (id: number) =>
    t.database.db
      .selectFrom('api_webhook_deliveries')
      .selectAll()
      .where('id', '=', String(id))
      .executeTakeFirstOrThrow();
  const webhookRow = (id: number) =>
    t.database.db.selectFrom('api_webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Polls the database until the delivery has left `pending` (short polling, no fixed sleeps). */
  const settled = async (id: number, timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const row = await delivery(id);
      if (row.state !== 'pending') return row;
      if (Date.now() > until) throw new Error(`delivery ${id} still pending: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const ping = async (webhookId: number) =>
    (await call(t.app, endpoints.testWebhook, { token: admin, body: { id: webhookId } })).deliveryId;
  const listOf = (accessId: number, token = admin) =>
    call(t.app, endpoints.webhookList, { token, query: { accessId } });

  describe('management', () => {
    it('registers with a secret shown once, lists, edits keeping the secret, and deletes', async () => {
      const accessId = await givenRecord();
      const url = `${receiver.url}/${uniqueName('m')}`;
      const saved = await call(t.app, endpoints.saveWebhook, {
        token: admin,
        body: { accessId, url, events: ['asset.created', 'asset.deleted', 'asset.created'] },
      });
      expect(saved.secret).toMatch(SECRET);
      const stored = await webhookRow(saved.id);
      // Kept sealed, never as such.
      expect(JSON.stringify(stored)).not.toContain((saved.secret as string).slice(6));

      const [listed] = await listOf(accessId);
      expect(listed).toMatchObject({
        id: saved.id,
        accessId,
        url,
        events: ['asset.created', 'asset.deleted'],
        status: 1,
        disabledReason: null,
        consecutiveFailures: 0,
        secretHint: (saved.secret as string).replace(/=+$/, '').slice(-4),
        lastDeliveryAt: null,
        lastDeliveryState: null,
      });

      const edited = await call(t.app, endpoints.saveWebhook, {
        token: admin,
        body: { id: saved.id, accessId, url: `${url}-2`, events: ['asset.updated'], status: 0 },
      });
      expect(edited).toEqual({ id: saved.id, secret: null });
      expect(await listOf(accessId)).toMatchObject([
        {
          url: `${url}-2`,
          events: ['asset.updated'],
          status: 0,
          secretHint: (saved.secret as string).replace(/=+$/, '').slice(-4),
        },
      ]);
      expect((await webhookRow(saved.id)).secret_enc).toBe(stored.secret_enc);

      expect(await call(t.app, endpoints.deleteWebhook, { token: admin, body: { id: saved.id } })).toBeNull();
      expect(await listOf(accessId)).toEqual([]);
      // Deleting what is gone succeeds and changes nothing.
      expect(await call(t.app, endpoints.deleteWebhook, { token: admin, body: { id: saved.id } })).toBeNull();
      // Two saves and one deletion logged, with the webhook and its record named.
      const logged = await t.database.db
        .selectFrom('operation_logs')
        .select(['operator_code', 'new_value'])
        .where(sql<boolean>`details->>'webhookId' = ${String(saved.id)}`)
        .orderBy('id')
        .execute();
      expect(logged).toEqual([
        { operator_code: OperationCode.saveWebhook, new_value: url },
        { operator_code: OperationCode.saveWebhook, new_value: `${url}-2` },
        { operator_code: OperationCode.deleteWebhook, new_value: `${url}-2` },
      ]);
    });

    it('keeps at most 10 webhooks per record', async () => {
      const accessId = await givenRecord();
      for (let i = 0; i < 10; i += 1) await givenWebhook(accessId);
      const eleventh = await attempt(t.app, endpoints.saveWebhook, {
        token: admin,
        lang: 'en',
        body: { accessId, url: `${receiver.url}/eleventh`, events: ['asset.created'] },
      });
      expect(eleventh).toMatchObject({ status: 400, errorCode: 'SEOA_06' });
      expect(eleventh.errorDesc).toContain('at most 10');
      expect(await listOf(accessId)).toHaveLength(10);
    });

    it('refuses URLs that are not http(s), carry credentials or reach non-public addresses (SEOA_06)', async () => {
      const accessId = await givenRecord();
      const refused = {
        'ftp://example.com/hook': 'only http and https',
        'http://user:pw@example.com/hook': 'user name or password',
        'http://10.0.0.1/hook': '10.0.0.1 is a private address',
        'http://[::1]/hook': '::1 is a loopback address',
        'http://169.254.169.254/latest': 'linkLocal',
        'http://[::ffff:10.0.0.1]/hook': 'private',
        'not a url': 'not a valid URL',
      };
      for (const [url, why] of Object.entries(refused)) {
        const answer = await attempt(t.app, endpoints.saveWebhook, {
          token: admin,
          lang: 'en',
          body: { accessId, url, events: ['asset.created'] },
        });
        expect(answer, url).toMatchObject({ status: 400, errorCode: 'SEOA_06' });
        expect(answer.errorDesc, url).toContain(why);
      }
      expect(await listOf(accessId)).toEqual([]);
    });

    it('refuses loopback, by address or by a name resolving to it, without WEBHOOK_ALLOWED_NETWORKS', async () => {
      const plain = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
      try {
        const token = await signInAdmin(plain);
        const enterpriseId = uniqueName('ent').replace(/[^A-Za-z0-9_-]/g, '');
        await call(plain.app, endpoints.saveApiEnterprise, { token, body: { enterpriseId, name: 'E' } });
        const user = await givenUser(plain.database, { scopes: { view: 'all' } });
        const { id: accessId } = await call(plain.app, endpoints.saveApiAccess, {
          token,
          body: { name: 'Shop', description: 'd', enterpriseId, userMail: user.email },
        });
        for (const [url, why] of [
          [`${receiver.url}/hook`, '127.0.0.1 is a loopback address'],
          ['http://localhost/hook', 'localhost resolves to'],
        ] as const) {
          const answer = await attempt(plain.app, endpoints.saveWebhook, {
            token,
            lang: 'en',
            body: { accessId, url, events: ['asset.created'] },
          });
          expect(answer, url).toMatchObject({ status: 400, errorCode: 'SEOA_06' });
          expect(answer.errorDesc, url).toContain(why);
          expect(answer.errorDesc, url).toContain('loopback');
        }
      } finally {
        await plain.close();
      }
    });

    it("answers records outside the caller's reach like unknown ones, and needs code 7", async () => {
      const a = (await givenDepartment(t)).id;
      const b = (await givenDepartment(t)).id;
      const ada = await givenSignedInUser(t, { deptId: a, functionCodes: API, scopes: DEPT_SCOPES });
      const own = await givenRecord(await givenUser(t.database, { deptId: a }), ada.token);
      const other = await givenRecord(await givenUser(t.database, { deptId: b }));
      const otherHook = await givenWebhook(other);
      const otherDelivery = await ping(otherHook.id);
      await settled(otherDelivery);

      // Within reach: Ada manages the webhooks of her department's record.
      const mine = await call(t.app, endpoints.saveWebhook, {
        token: ada.token,
        body: { accessId: own, url: `${receiver.url}/ada`, events: ['asset.updated'] },
      });
      expect((await listOf(own, ada.token)).map((w) => w.id)).toEqual([mine.id]);

      const refusals = [
        await attempt(t.app, endpoints.webhookList, { token: ada.token, query: { accessId: other } }),
        await attempt(t.app, endpoints.saveWebhook, {
          token: ada.token,
          body: { accessId: other, url: `${receiver.url}/x`, events: ['asset.created'] },
        }),
        await attempt(t.app, endpoints.saveWebhook, {
          token: ada.token,
          body: { id: otherHook.id, accessId: other, url: `${receiver.url}/x`, events: ['asset.created'] },
        }),
        // Another record's webhook edited through one's own record id.
        await attempt(t.app, endpoints.saveWebhook, {
          token: ada.token,
          body: { id: otherHook.id, accessId: own, url: `${receiver.url}/x`, events: ['asset.created'] },
        }),
        await attempt(t.app, endpoints.testWebhook, { token: ada.token, body: { id: otherHook.id } }),
        await attempt(t.app, endpoints.webhookDeliveries, {
          token: ada.token,
          query: { webhookId: otherHook.id },
        }),
        await attempt(t.app, endpoints.redeliverWebhook, {
          token: ada.token,
          body: { deliveryId: otherDelivery },
        }),
      ];
      for (const refusal of refusals) expect(refusal).toMatchObject({ status: 404, errorCode: 'SE_404' });
      // Deleting answers as for a webhook that is gone, and deletes nothing.
      expect(
        await call(t.app, endpoints.deleteWebhook, { token: ada.token, body: { id: otherHook.id } }),
      ).toBeNull();
      expect((await webhookRow(otherHook.id)).url).toBe(`${receiver.url}${otherHook.path}`);

      const noCode = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
      const refused = await attempt(t.app, endpoints.webhookList, {
        token: noCode.token,
        query: { accessId: own },
      });
      expect(refused.errorCode).toBe('SE_502');
    });
  });

  describe('delivery', () => {
    it('delivers a signed ping, shown on the webhook and in its delivery log', async () => {
      const accessId = await givenRecord();
      const hook = await givenWebhook(accessId);
      const deliveryId = await ping(hook.id);
      const row = await settled(deliveryId);
      expect(row).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200, last_error: null });

      const [request] = receiver.to(hook.path);
      expect(receiver.to(hook.path)).toHaveLength(1);
      const got = request as ReceivedWebhook;
      expect(got.method).toBe('POST');
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['user-agent']).toMatch(/^DAM-Webhooks\//);
      expect(got.headers['webhook-id']).toBe(`msg_${deliveryId}`);
      expect(verifyStandardWebhook(hook.secret, got)).toMatchObject({
        type: 'ping',
        data: { assetId: null, kinds: [] },
      });
      // Another secret does not verify.
      expect(() => verifyStandardWebhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, got)).toThrow(
        'no signature matches',
      );

      expect(await listOf(accessId)).toMatchObject([
        { lastDeliveryState: 'delivered', consecutiveFailures: 0 },
      ]);
      expect((await listOf(accessId))[0]?.lastDeliveryAt).not.toBeNull();
      const page = await call(t.app, endpoints.webhookDeliveries, {
        token: admin,
        query: { webhookId: hook.id },
      });
      expect(page).toMatchObject({
        total: 1,
        list: [{ id: deliveryId, eventType: 'ping', state: 'delivered', attempts: 1, lastStatus: 200 }],
      });
    });

    it('tells of a new file the webhooks whose record may see it, and only those', async () => {
      const seeing = await givenWebhook(await givenRecord());
      // A record whose user sees only their own files.
      const blind = await givenWebhook(await givenRecord(await givenUser(t.database)));
      const onlyUpdates = await givenWebhook(await givenRecord(), ['asset.updated']);
      const uploader = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
      const file = await givenFile(t, uploader.token, { fileName: `${uniqueName('AB')}.txt` });

      const madeFor = () =>
        t.database.db
          .selectFrom('api_webhook_deliveries')
          .select(['id', 'webhook_id', 'event_type'])
          .where('item_id', '=', file.id)
          // Webhooks of other tests (on the same app) may be told too.
          .where('webhook_id', 'in', [seeing.id, blind.id, onlyUpdates.id])
          .execute();
      // A pass reads only what every running transaction can no longer precede (PostgreSQL's
      // own background work, or another test file's long insert on the same server, may hold the
      // horizon back for seconds): pass again until it is read.
      let made = await madeFor();
      for (const deadline = Date.now() + 25_000; made.length === 0 && Date.now() < deadline; ) {
        await t.jobs?.webhookDispatchPass();
        made = await madeFor();
        if (made.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(made.map((d) => [d.webhook_id, d.event_type])).toEqual([[seeing.id, 'asset.created']]);
      await settled(Number(made[0]?.id));

      const [request] = receiver.to(seeing.path);
      const payload = verifyStandardWebhook(seeing.secret, request as ReceivedWebhook);
      expect(payload).toMatchObject({
        type: 'asset.created',
        data: {
          assetId: file.id,
          name: file.name,
          formats: ['txt'],
          kinds: expect.arrayContaining(['created']),
        },
      });
      expect((payload.data as { changeCursor: string }).changeCursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(receiver.to(blind.path)).toEqual([]);
      expect(receiver.to(onlyUpdates.path)).toEqual([]);

      // A second pass makes nothing again.
      await t.jobs?.webhookDispatchPass();
      const again = await t.database.db
        .selectFrom('api_webhook_deliveries')
        .select('id')
        .where('item_id', '=', file.id)
        .where('webhook_id', 'in', [seeing.id, blind.id, onlyUpdates.id])
        .execute();
      expect(again).toHaveLength(1);
    });

    it('retries after failures with the same webhook-id, and a success ends the run of failures', async () => {
      const hook = await givenWebhook(await givenRecord());
      await t.database.db
        .updateTable('api_webhooks')
        .set({ consecutive_failures: 5 })
        .where('id', '=', hook.id)
        .execute();
      receiver.script(hook.path, { kind: 'statuses', statuses: [500, 500, 200] });
      const deliveryId = await ping(hook.id);
      expect(await settled(deliveryId)).toMatchObject({ state: 'delivered', attempts: 3, last_status: 200 });
      const requests = receiver.to(hook.path);
      expect(requests).toHaveLength(3);
      expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([`msg_${deliveryId}`]));
      for (const request of requests) verifyStandardWebhook(hook.secret, request);
      expect((await webhookRow(hook.id)).consecutive_failures).toBe(0);
    });

    it('fails a delivery after the last retry and counts it against the webhook', async () => {
      const hook = await givenWebhook(await givenRecord());
      receiver.script(hook.path, { kind: 'statuses', statuses: [500] });
      const deliveryId = await ping(hook.id);
      const row = await settled(deliveryId);
      expect(row).toMatchObject({ state: 'failed', attempts: 3, last_status: 500, delivered_at: null });
      // The status and its standard reason phrase, never the receiver's body (here "answer 3: 500";
      // an intranet error page could carry secrets), in the log and in the API's delivery list.
      expect(row.last_error).toBe('HTTP 500 Internal Server Error');
      const page = await call(t.app, endpoints.webhookDeliveries, {
        token: admin,
        query: { webhookId: hook.id },
      });
      expect(page.list[0]?.lastError).toBe('HTTP 500 Internal Server Error');
      expect(receiver.to(hook.path)).toHaveLength(3);
      expect(await webhookRow(hook.id)).toMatchObject({ consecutive_failures: 1, status: 1 });
    });

    it('counts a receiver that does not answer within WEBHOOK_TIMEOUT_MS as a failure', async () => {
      const hook = await givenWebhook(await givenRecord());
      receiver.script(hook.path, { kind: 'hang' });
      const deliveryId = await ping(hook.id);
      const row = await settled(deliveryId);
      expect(row).toMatchObject({ state: 'failed', attempts: 3, last_status: null });
      expect(row.last_error).toContain('no answer within 2000 ms');
    });

    it('does not follow a redirect', async () => {
      const hook = await givenWebhook(await givenRecord());
      const elsewhere = `/${uniqueName('elsewhere')}`;
      receiver.script(hook.path, { kind: 'redirect', location: `${receiver.url}${elsewhere}` });
      const row = await settled(await ping(hook.id));
      expect(row).toMatchObject({ state: 'failed', last_status: 302 });
      expect(row.last_error).toBe('HTTP 302 Found (redirects are not followed)');
      expect(receiver.to(hook.path)).toHaveLength(3);
      expect(receiver.to(elsewhere)).toEqual([]);
    });

    it('checks the address again on every attempt', async () => {
      const hook = await givenWebhook(await givenRecord());
      // As if the URL had been valid when saved: now it points at a private address.
      await t.database.db
        .updateTable('api_webhooks')
        .set({ url: 'http://10.0.0.1:9/hook' })
        .where('id', '=', hook.id)
        .execute();
      const row = await settled(await ping(hook.id));
      expect(row).toMatchObject({ state: 'failed', last_status: null });
      expect(row.last_error).toContain('address refused: 10.0.0.1 is a private address');
    });

    it('redelivers a delivery as a new one with the same payload', async () => {
      const hook = await givenWebhook(await givenRecord());
      receiver.script(hook.path, { kind: 'statuses', statuses: [500] });
      const first = await ping(hook.id);
      expect((await settled(first)).state).toBe('failed');
      const firstBody = (receiver.to(hook.path)[0] as ReceivedWebhook).body;

      receiver.script(hook.path, { kind: 'statuses', statuses: [200] });
      const { deliveryId } = await call(t.app, endpoints.redeliverWebhook, {
        token: admin,
        body: { deliveryId: first },
      });
      expect(deliveryId).not.toBe(first);
      expect(await settled(deliveryId)).toMatchObject({ state: 'delivered', attempts: 1 });
      const last = receiver.to(hook.path).at(-1) as ReceivedWebhook;
      expect(last.headers['webhook-id']).toBe(`msg_${deliveryId}`);
      expect(last.body).toBe(firstBody);
      verifyStandardWebhook(hook.secret, last);

      const page = await call(t.app, endpoints.webhookDeliveries, {
        token: admin,
        query: { webhookId: hook.id },
      });
      expect(page.list.map((d) => [d.id, d.state])).toEqual([
        [deliveryId, 'delivered'],
        [first, 'failed'],
      ]);
      const unknown = await attempt(t.app, endpoints.redeliverWebhook, {
        token: admin,
        body: { deliveryId: 999_999_999 },
      });
      expect(unknown.errorCode).toBe('SE_404');
    });

    it(`switches a webhook off after ${WEBHOOK_FAILURES_TO_DISABLE} failed deliveries in a row`, async () => {
      const accessId = await givenRecord();
      const hook = await givenWebhook(accessId);
      await t.database.db
        .updateTable('api_webhooks')
        .set({ consecutive_failures: WEBHOOK_FAILURES_TO_DISABLE - 1 })
        .where('id', '=', hook.id)
        .execute();
      receiver.script(hook.path, { kind: 'statuses', statuses: [503] });
      expect((await settled(await ping(hook.id))).state).toBe('failed');
      const [listed] = await listOf(accessId);
      expect(listed).toMatchObject({ status: 0, consecutiveFailures: WEBHOOK_FAILURES_TO_DISABLE });
      expect(listed?.disabledReason).toContain(`${WEBHOOK_FAILURES_TO_DISABLE} failed deliveries`);
      expect(listed?.disabledReason).toContain('HTTP 503');

      // Switched off, it gets no events.
      const uploader = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
      const file = await givenFile(t, uploader.token);
      await t.jobs?.webhookDispatchPass();
      const made = await t.database.db
        .selectFrom('api_webhook_deliveries')
        .select('id')
        .where('webhook_id', '=', hook.id)
        .where('item_id', '=', file.id)
        .execute();
      expect(made).toEqual([]);

      // Switched on again by hand: the count starts over.
      await call(t.app, endpoints.saveWebhook, {
        token: admin,
        body: { id: hook.id, accessId, url: `${receiver.url}${hook.path}`, events: ['asset.created'] },
      });
      expect(await listOf(accessId)).toMatchObject([
        { status: 1, consecutiveFailures: 0, disabledReason: null },
      ]);
    });
  });
});
