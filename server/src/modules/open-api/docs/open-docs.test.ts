import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  endpoints,
  FunctionCode,
  OPEN_API_PREFIX,
  TOKEN_COOKIE,
  WEBHOOK_EVENTS,
  webhookPayloadSchema,
} from '@dam/contract';
import { openApiDocument } from '@dam/contract/openapi-document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenFolder, givenSignedInUser, signInAdmin } from '../../../../test/factories';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { createTestApiAccess, openCall, type TestApiAccess } from '../../../../test/open-client';
import { ManualClock } from '../../../lib/clock';
import { OPEN_DOCS_PATH } from './routes';

/** The README's example client (scripts/open-api-example.mjs): its signing, over real HTTP. */
interface ExampleClient {
  openApiCall(
    client: { baseUrl: string; keyId: string; secret: string },
    method: string,
    pathAndQuery: string,
    body?: unknown,
  ): Promise<unknown>;
  OpenApiError: new (...args: never[]) => Error & { status: number; errorCode: string | null };
}
const EXAMPLE_SCRIPT = path.resolve(import.meta.dirname, '../../../../../scripts/open-api-example.mjs');

const PAGE = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the OpenAPI document and its docs page', () => {
  let t: TestApp;
  let key: TestApiAccess;
  let adminToken: string;
  beforeAll(async () => {
    // On the system's time: the README's example client signs with it (last test).
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { clock: new ManualClock(new Date()) });
    // No allowed calls at all: the document is for every valid key.
    key = await createTestApiAccess(t, { calls: [] });
    adminToken = await signInAdmin(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the document to a signed call, as JSON outside the envelope', async () => {
    const answer = await openCall(t, key, 'GET', endpoints.openApiDocument.path);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.rawPayload.toString('utf8'))).toEqual(openApiDocument({ version: 'test' }));
    // The same bytes again (memoized), for another nonce.
    const again = await openCall(t, key, 'GET', endpoints.openApiDocument.path);
    expect(again.rawPayload.equals(answer.rawPayload)).toBe(true);
  });

  it('describes every event the product sends in its webhooks section, payload and signature headers', async () => {
    const answer = await openCall(t, key, 'GET', endpoints.openApiDocument.path);
    const document = JSON.parse(answer.rawPayload.toString('utf8')) as {
      webhooks?: Record<string, { post: Record<string, unknown> }>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual(['ping', ...WEBHOOK_EVENTS].sort());
    for (const [event, { post }] of Object.entries(document.webhooks ?? {})) {
      const headers = (post.parameters as { name: string; in: string; required: boolean }[]).filter(
        (p) => p.in === 'header' && p.required,
      );
      expect(headers.map((h) => h.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      expect(post.requestBody).toMatchObject({
        required: true,
        content: {
          'application/json': {
            schema: {
              allOf: [
                { $ref: '#/components/schemas/WebhookPayload' },
                { properties: { type: { const: event } } },
              ],
            },
          },
        },
      });
    }
    // The payload as the contract defines it, every field of its data described.
    const payload = document.components.schemas.WebhookPayload;
    expect(payload?.required).toEqual(expect.arrayContaining(['type', 'timestamp', 'data']));
    expect(
      Object.keys(
        (payload?.properties?.data as { properties?: object } | undefined)?.properties ?? {},
      ).sort(),
    ).toEqual(Object.keys(webhookPayloadSchema.shape.data.shape).sort());
  });

  it('refuses the document without a key', async () => {
    const answer = await openCall(t, key, 'GET', endpoints.openApiDocument.path, undefined, {
      unsigned: true,
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ success: false, errorCode: 'SEOA_01' });
  });

  it('sends a browser without a session to sign in, anything else the 401 envelope', async () => {
    for (const url of [OPEN_DOCS_PATH, `${OPEN_DOCS_PATH}/`]) {
      const page = await t.app.inject({ method: 'GET', url, headers: PAGE });
      expect(page.statusCode, url).toBe(302);
      expect(page.headers.location).toBe(`/login?redirect=${encodeURIComponent(OPEN_DOCS_PATH)}`);
    }
    for (const url of [`${OPEN_DOCS_PATH}/json`, `${OPEN_DOCS_PATH}/static/swagger-ui-bundle.js`]) {
      const other = await t.app.inject({ method: 'GET', url });
      expect(other.statusCode, url).toBe(401);
      expect(other.json()).toMatchObject({ success: false, errorCode: 'SE_501' });
    }
    // A session that is not one (signed out, made up) is no session.
    const made = await t.app.inject({
      method: 'GET',
      url: OPEN_DOCS_PATH,
      headers: { ...PAGE, cookie: `${TOKEN_COOKIE}=not-a-session` },
    });
    expect(made.statusCode).toBe(302);
  });

  it('shows Swagger UI to an administrator signed in by cookie, its files loaded from the server', async () => {
    const cookie = `lang=en; ${TOKEN_COOKIE}=${encodeURIComponent(adminToken)}`;
    const page = await t.app.inject({
      method: 'GET',
      url: `${OPEN_DOCS_PATH}/`,
      headers: { ...PAGE, cookie },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    // helmet's policy is the app's: scripts from this origin only.
    const csp = String(page.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src '));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    // Every script is a file (no inline script the policy would block), and each of them, and each
    // style sheet, answers.
    const html = page.body;
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/\bsrc="/);
      expect(content?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets).toEqual(
      expect.arrayContaining(['./static/swagger-ui-bundle.js', './static/swagger-ui.css']),
    );
    for (const asset of assets) {
      const url = new URL(asset, `http://x${OPEN_DOCS_PATH}/`).pathname;
      const file = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(file.statusCode, url).toBe(200);
      if (!file.headers.etag) continue;
      const again = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie, 'if-none-match': String(file.headers.etag) },
      });
      expect(again.statusCode, url).toBe(304);
    }
    // The initializer turns "Try it out" off and reads the document beside the page.
    const init = await t.app.inject({
      method: 'GET',
      url: `${OPEN_DOCS_PATH}/static/swagger-initializer.js`,
      headers: { cookie },
    });
    expect(init.body).toContain('"supportedSubmitMethods":[]');
    expect(init.body).toContain("resolveUrl('./json')");

    // The document it shows is the served one.
    const json = await t.app.inject({ method: 'GET', url: `${OPEN_DOCS_PATH}/json`, headers: { cookie } });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual(openApiDocument({ version: 'test' }));
  });

  it('accepts the token header too', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: OPEN_DOCS_PATH,
      headers: { ...PAGE, token: adminToken },
    });
    expect(page.statusCode).toBe(200);
  });

  it('refuses a signed-in user without function code 7 (SE_502)', async () => {
    const user = await givenSignedInUser(t, {
      functionCodes: [FunctionCode.mail, FunctionCode.user, FunctionCode.log],
    });
    const cookie = `${TOKEN_COOKIE}=${user.token}`;
    for (const headers of [{ ...PAGE, cookie }, { cookie }, { token: user.token }]) {
      const page = await t.app.inject({ method: 'GET', url: OPEN_DOCS_PATH, headers });
      expect(page.statusCode).toBe(403);
      expect(page.json()).toMatchObject({ success: false, errorCode: 'SE_502' });
    }
    const json = await t.app.inject({ method: 'GET', url: `${OPEN_DOCS_PATH}/json`, headers: { cookie } });
    expect(json.statusCode).toBe(403);
    // With code 7 the same way in, it opens.
    const admin = await givenSignedInUser(t, { functionCodes: [FunctionCode.api] });
    const allowed = await t.app.inject({
      method: 'GET',
      url: OPEN_DOCS_PATH,
      headers: { ...PAGE, cookie: `${TOKEN_COOKIE}=${admin.token}` },
    });
    expect(allowed.statusCode).toBe(200);
  });

  it('is served by its routes, not the not-found answer of the /open prefix', async () => {
    expect(t.app.hasRoute({ method: 'GET', url: OPEN_DOCS_PATH })).toBe(true);
    expect(t.app.hasRoute({ method: 'GET', url: `${OPEN_DOCS_PATH}/json` })).toBe(true);
    // Unknown paths under the prefixes still get the JSON 404.
    const missing = await t.app.inject({ method: 'GET', url: `${OPEN_API_PREFIX}/nothing-here` });
    expect(missing.statusCode).toBe(404);
  });

  it("signs as the README's example client does (real HTTP, a query string)", async () => {
    const example = (await import(pathToFileURL(EXAMPLE_SCRIPT).href)) as ExampleClient;
    const listed = await createTestApiAccess(t, { calls: ['folders.list'] });
    const baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const client = { baseUrl, keyId: listed.keyId, secret: listed.secret };
    expect(await example.openApiCall(client, 'GET', endpoints.openApiDocument.path)).toEqual(
      openApiDocument({ version: 'test' }),
    );
    const parent = await givenFolder(t, adminToken);
    const child = await givenFolder(t, adminToken, { parentId: parent.id });
    const folders = await example.openApiCall(
      client,
      'GET',
      `${endpoints.openFolders.path}?parentId=${parent.id}`,
    );
    expect(folders).toEqual([expect.objectContaining({ id: child.id, name: child.name })]);
    const refused = await example
      .openApiCall({ ...client, secret: `${listed.secret}x` }, 'GET', endpoints.openApiDocument.path)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(example.OpenApiError);
    expect(refused).toMatchObject({ status: 401, errorCode: 'SEOA_02' });
  });
});
