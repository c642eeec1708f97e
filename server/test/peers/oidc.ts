/// <reference path="./oidc-provider.d.ts" />
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ProviderContext } from 'oidc-provider';

/**
 * A real OpenID provider for tests (oidc-provider 9) on 127.0.0.1: one confidential client
 * (client_secret_basic, authorization code flow, PKCE required), accounts given by the test, a
 * plain HTML sign-in page at /interaction/:uid (fields `login` and `password`, button "Sign in")
 * and consent taken as given for the client. `OidcBrowser` walks the same pages by HTTP requests
 * with a cookie jar, as a browser would; end-to-end journeys use a real browser on the same pages.
 */

/** A person at the provider: `sub` is also the login name on its sign-in page. */
export interface OidcAccount {
  sub: string;
  /** Checked on the sign-in page; by default any password is taken. */
  password?: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  phone_number?: string;
  phone_number_verified?: boolean;
}

export interface OidcProviderOptions {
  /** 0 (default): a free port. */
  port?: number;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  accounts?: OidcAccount[];
  clientId?: string;
  clientSecret?: string;
}

export interface OidcPeer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds (or replaces) a person; tests make their own. */
  addAccount(account: OidcAccount): void;
  /** A browser of its own (cookie jar) to walk the provider's pages. */
  browser(): OidcBrowser;
  close(): Promise<void>;
}

const SCOPES = 'openid email profile phone';

/** oidc-provider's storage, kept in this provider instance only (no shared global cache). */
function memoryAdapter() {
  const stores = new Map<string, Map<string, { payload: Record<string, unknown>; expiresAt: number }>>();
  const live = (name: string) => {
    let store = stores.get(name);
    if (!store) {
      store = new Map();
      stores.set(name, store);
    }
    return store;
  };
  return class MemoryAdapter {
    private readonly store: Map<string, { payload: Record<string, unknown>; expiresAt: number }>;
    constructor(name: string) {
      this.store = live(name);
    }
    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      this.store.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
    }
    async find(id: string) {
      const entry = this.store.get(id);
      if (!entry || entry.expiresAt <= Date.now()) return undefined;
      return entry.payload;
    }
    async findByUid(uid: string) {
      for (const [id, entry] of this.store) if (entry.payload.uid === uid) return this.find(id);
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const [id, entry] of this.store) if (entry.payload.userCode === userCode) return this.find(id);
      return undefined;
    }
    async consume(id: string) {
      const entry = this.store.get(id);
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      this.store.delete(id);
    }
    async revokeByGrantId(grantId: string) {
      for (const [id, entry] of this.store) if (entry.payload.grantId === grantId) this.store.delete(id);
    }
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;max-width:320px;margin:48px auto}label,input,button{display:block;width:100%;margin:6px 0}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function loginPage(uid: string, problem?: string): string {
  return page(
    'Test identity provider',
    `${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Login <input name="login" autocomplete="username" autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form>`,
  );
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcPeer> {
  const accounts = new Map((options.accounts ?? []).map((account) => [account.sub, account]));
  const clientId = options.clientId ?? 'dam-test';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');

  let provider: Provider | null = null;
  const server = http.createServer((req, res) => {
    if (!provider) {
      res.writeHead(503).end();
      return;
    }
    void handle(provider, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  provider = new Provider(issuer, {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 3600,
      Interaction: 600,
      Session: 3600,
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      phone: ['phone_number', 'phone_number_verified'],
      profile: ['name', 'preferred_username'],
    },
    scopes: SCOPES.split(' '),
    findAccount: async (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      const { password: _password, ...claims } = account;
      return { accountId: id, claims: async () => ({ ...claims, preferred_username: id }) };
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: ProviderContext, form: string) => {
          ctx.type = 'html';
          ctx.body = page(
            'Sign out of the test identity provider?',
            `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>`,
          );
        },
        postLogoutSuccessSource: async (ctx: ProviderContext) => {
          ctx.type = 'html';
          ctx.body = page('Signed out', '<p>You are signed out of the test identity provider.</p>');
        },
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    // The client is first-party: consent is taken as given (oidc-provider's skip-consent recipe).
    loadExistingGrant: async (ctx: ProviderContext) => {
      const grantId =
        ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope(SCOPES);
      await grant.save();
      return grant;
    },
    renderError: async (ctx: ProviderContext, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = page('Error', `<pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre>`);
    },
  });

  async function handle(op: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', issuer).pathname;
    const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(path);
    if (!interaction) {
      op.callback()(req, res);
      return;
    }
    const uid = interaction[1] as string;
    await op.interactionDetails(req, res);
    if (req.method === 'POST' && interaction[2]) {
      const form = await formBody(req);
      const account = accounts.get(form.get('login') ?? '');
      if (!account || (account.password !== undefined && account.password !== form.get('password'))) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(loginPage(uid, 'Unknown login or wrong password'));
        return;
      }
      await op.interactionFinished(
        req,
        res,
        { login: { accountId: account.sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(loginPage(uid));
  }

  return {
    issuer,
    clientId,
    clientSecret,
    addAccount: (account) => {
      accounts.set(account.sub, account);
    },
    browser: () => new OidcBrowser(issuer),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A browser's view of the provider: follows its redirects and pages, keeping its cookies. */
export class OidcBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly issuer: string) {}

  private async request(url: string, form?: URLSearchParams): Promise<Response> {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      accept: 'text/html',
    };
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers,
      redirect: 'manual',
      ...(form ? { body: form.toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /**
   * Opens the authorization address, signs in on the provider's page as `login` and answers the
   * address the provider sends the browser back to (the application's /oauth with code and state).
   */
  async signIn(authorizationUrl: string, login: string, password = 'any-password'): Promise<string> {
    let url = authorizationUrl;
    let signedIn = false;
    for (let step = 0; step < 10; step += 1) {
      const response = await this.request(url);
      const location = response.headers.get('location');
      if (location) {
        const next = new URL(location, url).href;
        if (!next.startsWith(`${this.issuer}/`)) return next;
        url = next;
        continue;
      }
      const uid = /\/interaction\/([\w-]+)$/.exec(new URL(url).pathname)?.[1];
      if (!uid || signedIn)
        throw new Error(`the provider answered ${response.status}: ${await response.text()}`);
      const answer = await this.request(
        `${this.issuer}/interaction/${uid}/login`,
        new URLSearchParams({ login, password }),
      );
      const resume = answer.headers.get('location');
      if (!resume) throw new Error(`sign-in at the provider refused: ${await answer.text()}`);
      signedIn = true;
      url = new URL(resume, url).href;
    }
    throw new Error('the provider redirected too often');
  }

  /**
   * Opens an end-session address (what sign-out answered), confirms on the provider's page and
   * answers where the provider sends the browser then (the post-logout redirect URI).
   */
  async endSession(logoutUrl: string): Promise<string> {
    const response = await this.request(logoutUrl);
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action) throw new Error(`end-session page ${response.status}: ${html}`);
    const form = new URLSearchParams({ logout: 'yes' });
    for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
      form.set(name as string, value as string);
    }
    const confirmed = await this.request(new URL(action, logoutUrl).href, form);
    const location = confirmed.headers.get('location');
    if (!location) throw new Error(`end-session confirmation ${confirmed.status}: ${await confirmed.text()}`);
    return new URL(location, logoutUrl).href;
  }
}
