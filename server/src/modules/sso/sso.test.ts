import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_MESSAGES, endpoints, OperationCode, UserStatus } from '@dam/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call, fetchBytes } from '../../../test/call';
import { givenDepartment, givenUser, signInAdmin, uniqueName } from '../../../test/factories';
import { createTestApp, signIn, type TestApp } from '../../../test/harness';
import {
  type OidcAccount,
  type OidcBrowser,
  type OidcPeer,
  startOidcProvider,
} from '../../../test/peers/oidc';
import { AccountsRepository } from '../accounts/repository';
import { mainlandMobile, SSO_ATTEMPT_MS } from './service';

const APP_URL = 'http://dam.test';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function ssoEnv(peer: Pick<OidcPeer, 'issuer' | 'clientId' | 'clientSecret'>): Record<string, string> {
  return {
    PUBLIC_URL: APP_URL,
    LOGIN_RATE_LIMIT: '1000',
    OIDC_ISSUER: peer.issuer,
    OIDC_CLIENT_ID: peer.clientId,
    OIDC_CLIENT_SECRET: peer.clientSecret,
  };
}

/** login_sso as a browser opens it: where it is sent, and the cookie binding the sign-in to it. */
async function startSso(app: FastifyInstance, redirect?: string) {
  const answer = await fetchBytes(
    app,
    endpoints.ssoStart,
    redirect === undefined ? {} : { query: { redirect } },
  );
  const setCookie = String(answer.headers['set-cookie'] ?? '');
  return {
    status: answer.statusCode,
    location: String(answer.headers.location ?? ''),
    setCookie,
    cookie: setCookie.split(';')[0] ?? '',
    body: answer.body,
  };
}

/** The callback (/oauth with code and state) of a sign-in as `login` at the provider. */
async function atProvider(peer: OidcPeer, app: FastifyInstance, login: string, redirect?: string) {
  const started = await startSso(app, redirect);
  expect(started.status, started.body).toBe(302);
  const browser = peer.browser();
  const callbackUrl = await browser.signIn(started.location, login);
  return { callbackUrl, cookie: started.cookie, browser };
}

function finishSso(app: FastifyInstance, body: { callbackUrl: string }, cookie: string, lang?: 'zh' | 'en') {
  return attempt(app, endpoints.ssoFinish, { body, headers: { cookie }, ...(lang ? { lang } : {}) });
}

async function counts(t: TestApp) {
  const db = t.database.db;
  const n = async (table: 'users' | 'sessions' | 'sso_attempts' | 'sso_sessions') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { users: await n('users'), sessions: await n('sessions'), ssoSessions: await n('sso_sessions') };
}

describe('company single sign-on (OpenID Connect)', () => {
  let peer: OidcPeer;
  let t: TestApp;

  beforeAll(async () => {
    peer = await startOidcProvider({
      redirectUris: [`${APP_URL}/oauth`],
      postLogoutRedirectUris: [`${APP_URL}/login`],
    });
    t = await createTestApp(ssoEnv(peer));
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  /** A person at the provider with a login of their own. */
  function person(claims: Omit<OidcAccount, 'sub'>): OidcAccount {
    const account = { sub: uniqueName('sub'), ...claims };
    peer.addAccount(account);
    return account;
  }

  /** The whole sign-in of `login`, answered as the app answers the callback. */
  async function ssoSignIn(app: FastifyInstance, login: string, redirect?: string) {
    const { callbackUrl, cookie, browser } = await atProvider(peer, app, login, redirect);
    return { answer: await finishSso(app, { callbackUrl }, cookie), browser };
  }

  const userOfToken = async (token: string) =>
    (await call(t.app, endpoints.userInfo, { token })) as { id: number; email: string | null };

  it('tells the sign-in page whether single sign-on is on (iam-on-off)', async () => {
    const on = await call(t.app, endpoints.ssoStatus);
    expect(on.enabled).toBe(true);
    // The provider's end-session page for a session that expired here: no ID token hint.
    const logout = new URL(on.logoutUrl ?? '');
    expect(`${logout.origin}${logout.pathname}`).toBe(`${peer.issuer}/session/end`);
    expect(logout.searchParams.get('client_id')).toBe(peer.clientId);
    expect(logout.searchParams.get('post_logout_redirect_uri')).toMatch(/\/login$/);
    expect(logout.searchParams.has('id_token_hint')).toBe(false);
    const off = await createTestApp(
      { LOGIN_RATE_LIMIT: '1000' },
      { database: t.database, keepDatabase: true },
    );
    try {
      expect(await call(off.app, endpoints.ssoStatus)).toEqual({ enabled: false, logoutUrl: null });
      // Off: login_sso says "not supported", to an API client and to a browser (via /oauth).
      const refused = await startSso(off.app);
      expect(refused.status).toBe(501);
      expect(JSON.parse(refused.body)).toMatchObject({ success: false, errorCode: 'SED_11' });
      const page = await off.app.inject({
        method: 'GET',
        url: endpoints.ssoStart.path,
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(page.statusCode).toBe(302);
      expect(page.headers.location).toBe('/oauth?error=SED_11');
    } finally {
      await off.close();
    }
  });

  it('sends the browser to the provider with state, nonce and a PKCE S256 challenge, bound to it by a cookie', async () => {
    const started = await startSso(t.app, '/allfiles/all?view=grid');
    expect(started.status).toBe(302);
    const url = new URL(started.location);
    expect(`${url.origin}${url.pathname}`).toBe(`${peer.issuer}/auth`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      client_id: peer.clientId,
      redirect_uri: `${APP_URL}/oauth`,
      response_type: 'code',
      scope: 'openid email profile phone',
      code_challenge_method: 'S256',
    });
    expect(params.state).toMatch(/^[\w-]{43}$/);
    expect(params.nonce).toMatch(/^[\w-]{43}$/);
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(started.setCookie).toMatch(
      /^dam_sso=[\w-]{43}; Path=\/security-api\/oauth-callback; Max-Age=600; HttpOnly; SameSite=Lax$/,
    );
    // Kept by a hash of the state: the database does not hold the state itself.
    const row = await t.database.db
      .selectFrom('sso_attempts')
      .selectAll()
      .where('state_hash', '=', sha256(params.state as string))
      .executeTakeFirstOrThrow();
    expect(row.redirect).toBe('/allfiles/all?view=grid');
    expect(row.expires_at.getTime() - t.clock.now().getTime()).toBe(SSO_ATTEMPT_MS);
    expect(row.browser_hash).toBe(sha256(started.cookie.split('=')[1] as string));
  });

  it('refuses a page to go back to that is not a path of this application', async () => {
    const before = await t.database.db.selectFrom('sso_attempts').select('state_hash').execute();
    for (const redirect of [
      '//evil.example',
      'https://evil.example/',
      '/\\evil.example',
      'allfiles',
      '/\tx',
    ]) {
      const refused = await startSso(t.app, redirect);
      expect(refused.status, redirect).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ errorCode: 'SE_400' });
      // A browser is sent back to /oauth, which explains it, as for every other failure of login_sso.
      const page = await t.app.inject({
        method: 'GET',
        url: endpoints.ssoStart.path,
        query: { redirect },
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(page.statusCode, redirect).toBe(302);
      expect(page.headers.location, redirect).toBe('/oauth?error=SE_400');
      expect(page.headers['set-cookie'], redirect).toBeUndefined();
    }
    expect(await t.database.db.selectFrom('sso_attempts').select('state_hash').execute()).toHaveLength(
      before.length,
    );
  });

  it('signs a user in by their verified e-mail, takes them to the page asked for, and logs the sign-in', async () => {
    const user = await givenUser(t.database);
    const account = person({ email: user.email.toUpperCase(), email_verified: true, name: 'Li Lei' });
    const { answer } = await ssoSignIn(t.app, account.sub, '/myCollect');
    expect(answer.errorDesc).toBeNull();
    expect(answer.result).toMatchObject({ redirect: '/myCollect', passwordExpireFlag: false });
    const token = answer.result?.token as string;
    expect((await userOfToken(token)).id).toBe(user.id);

    const logged = await t.database.db
      .selectFrom('operation_logs')
      .selectAll()
      .where('operator_id', '=', user.id)
      .where('operator_code', '=', OperationCode.signInSso)
      .execute();
    expect(logged).toHaveLength(1);
    // Bound to the provider identity: found again even after the e-mail changes there.
    const row = await t.database.db
      .selectFrom('users')
      .select(['sso_subject', 'login_count'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ sso_subject: `${peer.issuer} ${account.sub}`, login_count: 1 });
    peer.addAccount({ ...account, email: 'changed@elsewhere.example' });
    const again = await ssoSignIn(t.app, account.sub);
    expect(again.answer.result?.redirect).toBe('/');
    expect((await userOfToken(again.answer.result?.token as string)).id).toBe(user.id);
  });

  it('does not hand an account bound to one identity to another identity with its e-mail', async () => {
    const user = await givenUser(t.database);
    const first = person({ email: user.email, email_verified: true });
    expect((await ssoSignIn(t.app, first.sub)).answer.success).toBe(true);
    // The provider gave the address to someone else.
    const second = person({ email: user.email, email_verified: true });
    const before = await counts(t);
    expect((await ssoSignIn(t.app, second.sub)).answer).toMatchObject({ status: 404, errorCode: 'SED_02' });
    expect(await counts(t)).toEqual(before);
  });

  it('signs a user in by their verified phone number, in any usual notation of a mainland number', async () => {
    const mobile = `139${String(Date.now()).slice(-8)}`;
    const user = await givenUser(t.database, { mobile });
    const account = person({
      phone_number: `+86 ${mobile.slice(0, 3)}-${mobile.slice(3, 7)}-${mobile.slice(7)}`,
      phone_number_verified: true,
    });
    const { answer } = await ssoSignIn(t.app, account.sub);
    expect(answer.errorCode).toBeNull();
    expect((await userOfToken(answer.result?.token as string)).id).toBe(user.id);

    expect(mainlandMobile('+8613800138000')).toBe('13800138000');
    expect(mainlandMobile('0086 138 0013 8000')).toBe('13800138000');
    expect(mainlandMobile('8613800138000')).toBe('13800138000');
    expect(mainlandMobile('+1 415 555 0100')).toBeNull();
    expect(mainlandMobile('12345')).toBeNull();
  });

  it('refuses an unknown person (auto-create off) and an unverified e-mail with SED_02, changing nothing', async () => {
    const user = await givenUser(t.database);
    const strangers = [
      person({ email: `${uniqueName('nobody')}@example.com`, email_verified: true, name: 'Nobody' }),
      // The provider does not vouch for this address: it matches nobody.
      person({ email: user.email, email_verified: false }),
    ];
    for (const stranger of strangers) {
      const before = await counts(t);
      const { callbackUrl, cookie } = await atProvider(peer, t.app, stranger.sub);
      const refused = await finishSso(t.app, { callbackUrl }, cookie, 'en');
      expect(refused).toMatchObject({
        status: 404,
        errorCode: 'SED_02',
        errorDesc: ERROR_MESSAGES.en.SED_02,
      });
      expect(await counts(t)).toEqual(before);
    }
  });

  it('refuses a deleted account with SED_03', async () => {
    const user = await givenUser(t.database);
    const account = person({ email: user.email, email_verified: true });
    expect((await ssoSignIn(t.app, account.sub)).answer.success).toBe(true);
    await call(t.app, endpoints.deleteUser, { token: await signInAdmin(t), body: { userId: user.id } });
    const before = await counts(t);
    const refused = (await ssoSignIn(t.app, account.sub)).answer;
    expect(refused).toMatchObject({ status: 403, errorCode: 'SED_03' });
    expect(await counts(t)).toEqual(before);
  });

  it('refuses a state it did not issue, or issued to another browser, and changes nothing', async () => {
    const user = await givenUser(t.database);
    const account = person({ email: user.email, email_verified: true });
    const { callbackUrl, cookie } = await atProvider(peer, t.app, account.sub);
    const before = await counts(t);

    const forged = new URL(callbackUrl);
    forged.searchParams.set('state', 'x'.repeat(43));
    const unknown = await finishSso(t.app, { callbackUrl: forged.href }, cookie, 'en');
    expect(unknown).toMatchObject({ status: 400, errorCode: 'SE_400' });
    expect(unknown.errorDesc).toMatch(/^Invalid request: state: /);

    // Another browser (another cookie, or none) cannot finish it.
    const otherBrowser = (await startSso(t.app)).cookie;
    expect((await finishSso(t.app, { callbackUrl }, otherBrowser)).errorCode).toBe('SE_400');
    expect((await finishSso(t.app, { callbackUrl }, '')).errorCode).toBe('SE_400');
    expect(await counts(t)).toEqual(before);

    // None of that used the sign-in up: its own browser still finishes it, with code and state.
    const params = new URL(callbackUrl).searchParams;
    const finished = await attempt(t.app, endpoints.ssoFinish, {
      body: {
        code: params.get('code') as string,
        state: params.get('state') as string,
        iss: params.get('iss') as string,
      },
      headers: { cookie },
    });
    expect(finished.success).toBe(true);
  });

  it('refuses a replayed callback, a code the provider does not know and an expired sign-in', async () => {
    const user = await givenUser(t.database);
    const account = person({ email: user.email, email_verified: true });
    const { callbackUrl, cookie } = await atProvider(peer, t.app, account.sub);
    expect((await finishSso(t.app, { callbackUrl }, cookie)).success).toBe(true);
    const afterFirst = await counts(t);
    const replayed = await finishSso(t.app, { callbackUrl }, cookie);
    expect(replayed).toMatchObject({ status: 400, errorCode: 'SE_400' });
    expect(await counts(t)).toEqual(afterFirst);

    const second = await atProvider(peer, t.app, account.sub);
    const wrongCode = new URL(second.callbackUrl);
    wrongCode.searchParams.set('code', 'not-a-code-the-provider-issued');
    const refusedCode = await finishSso(t.app, { callbackUrl: wrongCode.href }, second.cookie, 'en');
    expect(refusedCode).toMatchObject({ status: 400, errorCode: 'SE_400' });
    expect(refusedCode.errorDesc).toMatch(/^Invalid request: code: /);
    expect(await counts(t)).toEqual(afterFirst);

    const late = await atProvider(peer, t.app, account.sub);
    t.clock.advance(SSO_ATTEMPT_MS);
    expect((await finishSso(t.app, { callbackUrl: late.callbackUrl }, late.cookie)).errorCode).toBe('SE_400');
    expect(await counts(t)).toEqual(afterFirst);
  });

  it('answers the end-session address of the provider at sign-out of an SSO session, and null for a password session', async () => {
    const user = await givenUser(t.database);
    const account = person({ email: user.email, email_verified: true });
    const { answer, browser } = await ssoSignIn(t.app, account.sub);
    const before = await counts(t);
    const signedOut = await call(t.app, endpoints.signOut, { token: answer.result?.token as string });
    const logoutUrl = new URL(signedOut.logoutUrl as string);
    expect(`${logoutUrl.origin}${logoutUrl.pathname}`).toBe(`${peer.issuer}/session/end`);
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${APP_URL}/login`);
    expect(logoutUrl.searchParams.get('id_token_hint')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // The provider takes it: it ends its own session and sends the browser back to /login.
    expect(await (browser as OidcBrowser).endSession(logoutUrl.href)).toBe(`${APP_URL}/login`);
    // What the session kept for it went with it.
    expect(await counts(t)).toMatchObject({
      sessions: before.sessions - 1,
      ssoSessions: before.ssoSessions - 1,
    });

    const password = await signIn(t.app, user.email, user.password);
    expect(await call(t.app, endpoints.signOut, { token: password })).toEqual({ logoutUrl: null });
  });

  describe('with accounts made on first sign-in (OIDC_AUTO_CREATE)', () => {
    it('creates an unknown person in the configured department and role, once', async () => {
      const dept = await givenDepartment(t);
      const roleId = await new AccountsRepository(t.database.db).roles.createRole({
        name: uniqueName('sso-role'),
        scopes: { view: 'dept', upload: 'dept', download: 'dept', share: 'none' },
        functionCodes: [],
      });
      const app = await createTestApp(
        {
          ...ssoEnv(peer),
          OIDC_AUTO_CREATE: 'true',
          OIDC_DEFAULT_DEPT_ID: String(dept.id),
          OIDC_DEFAULT_ROLE_ID: String(roleId),
        },
        { database: t.database, keepDatabase: true, clock: t.clock },
      );
      try {
        const email = `${uniqueName('new')}@Example.com`;
        const account = person({ email, email_verified: true, name: '韩梅梅' });
        const first = (await ssoSignIn(app.app, account.sub)).answer;
        expect(first.errorDesc).toBeNull();
        const info = await call(app.app, endpoints.userInfo, { token: first.result?.token as string });
        expect(info).toMatchObject({
          name: '韩梅梅',
          email: email.toLowerCase(),
          deptId: dept.id,
          mobile: null,
        });
        const roles = await t.database.db
          .selectFrom('user_roles')
          .select('role_id')
          .where('user_id', '=', info.id)
          .execute();
        expect(roles).toEqual([{ role_id: roleId }]);
        // No password anyone knows, and none to change before working.
        expect(info.passwordExpireFlag).toBe(false);

        const before = await counts(t);
        const second = (await ssoSignIn(app.app, account.sub)).answer;
        expect((await call(app.app, endpoints.userInfo, { token: second.result?.token as string })).id).toBe(
          info.id,
        );
        expect((await counts(t)).users).toBe(before.users);

        // Nobody to create without a verified e-mail or mobile.
        const anonymous = person({ name: 'No contact' });
        expect((await ssoSignIn(app.app, anonymous.sub)).answer.errorCode).toBe('SED_02');
        // A person an administrator deleted is refused, not signed up again.
        const removed = await givenUser(t.database);
        await call(t.app, endpoints.deleteUser, {
          token: await signInAdmin(t),
          body: { userId: removed.id },
        });
        const returning = person({ email: removed.email, email_verified: true });
        const usersBefore = (await counts(t)).users;
        expect((await ssoSignIn(app.app, returning.sub)).answer.errorCode).toBe('SED_03');
        expect((await counts(t)).users).toBe(usersBefore);
        const deleted = await t.database.db
          .selectFrom('users')
          .select('status')
          .where('id', '=', removed.id)
          .executeTakeFirstOrThrow();
        expect(deleted.status).toBe(UserStatus.deleted);
      } finally {
        await app.close();
      }
    });

    it('creates nobody when the configured department does not exist', async () => {
      const app = await createTestApp(
        { ...ssoEnv(peer), OIDC_AUTO_CREATE: 'true', OIDC_DEFAULT_DEPT_ID: '999999' },
        { database: t.database, keepDatabase: true, clock: t.clock },
      );
      try {
        const account = person({ email: `${uniqueName('new')}@example.com`, email_verified: true });
        const before = await counts(t);
        expect((await ssoSignIn(app.app, account.sub)).answer).toMatchObject({
          status: 500,
          errorCode: 'SE_500',
        });
        expect(await counts(t)).toEqual(before);
      } finally {
        await app.close();
      }
    });
  });
});

describe('single sign-on when the provider cannot be reached', () => {
  it('answers SE_503 (try again later) when the provider is down or silent, and records nothing', async () => {
    // A port nothing listens on, and a server that accepts but never answers.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as AddressInfo).port;

    const down = await createTestApp({
      ...ssoEnv({ issuer: `http://127.0.0.1:${deadPort}`, clientId: 'dam', clientSecret: 'secret' }),
      OIDC_TIMEOUT_MS: '200',
    });
    const hung = await createTestApp(
      {
        ...ssoEnv({ issuer: `http://127.0.0.1:${silentPort}`, clientId: 'dam', clientSecret: 'secret' }),
        OIDC_TIMEOUT_MS: '200',
      },
      { database: down.database, keepDatabase: true },
    );
    try {
      for (const app of [down.app, hung.app]) {
        const answer = await app.inject({
          method: 'GET',
          url: endpoints.ssoStart.path,
          headers: { lang: 'en' },
        });
        expect(answer.statusCode).toBe(503);
        expect(answer.json()).toMatchObject({ errorCode: 'SE_503', errorDesc: ERROR_MESSAGES.en.SE_503 });
        const page = await app.inject({
          method: 'GET',
          url: endpoints.ssoStart.path,
          headers: { accept: 'text/html' },
        });
        expect(page.headers.location).toBe('/oauth?error=SE_503');
      }
      expect(await down.database.db.selectFrom('sso_attempts').selectAll().execute()).toEqual([]);
    } finally {
      await hung.close();
      await down.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('answers SE_503 when the provider goes away before the code is exchanged, keeping the sign-in to try again', async () => {
    const peer = await startOidcProvider({ redirectUris: [`${APP_URL}/oauth`] });
    const t = await createTestApp({ ...ssoEnv(peer), OIDC_TIMEOUT_MS: '1000' });
    let closed = false;
    try {
      const user = await givenUser(t.database);
      peer.addAccount({ sub: 'leaving', email: user.email, email_verified: true });
      const { callbackUrl, cookie } = await atProvider(peer, t.app, 'leaving');
      await peer.close();
      closed = true;
      const before = await counts(t);
      const answer = await finishSso(t.app, { callbackUrl }, cookie);
      expect(answer).toMatchObject({ status: 503, errorCode: 'SE_503' });
      expect(await counts(t)).toEqual(before);
      const state = new URL(callbackUrl).searchParams.get('state') as string;
      expect(
        await t.database.db
          .selectFrom('sso_attempts')
          .select('state_hash')
          .where('state_hash', '=', sha256(state))
          .execute(),
      ).toHaveLength(1);
    } finally {
      await t.close();
      if (!closed) await peer.close();
    }
  });
});
