import { ERROR_MESSAGES } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  createFolder,
  createTestApp,
  givenUser,
  post,
  signIn,
  type TestApp,
} from '../../../test/harness';

/**
 * Sign-in and share-password throttling (issue 9 item 3): keyed on the identifier actually looked
 * up and, separately, on the client address; counted in the database, so two server processes on
 * one database share the counters; windows follow the injected clock.
 */
const LIMIT = 3;
/** The per-address limit is this multiple of LOGIN_RATE_LIMIT (docs/decisions.md). */
const ADDRESS_MULTIPLE = 10;
const MINUTE = 60_000;

describe('sign-in and share-password throttling', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ LOGIN_RATE_LIMIT: String(LIMIT) });
    // A second server process on the same database (and the same clock).
    b = await createTestApp(
      { LOGIN_RATE_LIMIT: String(LIMIT) },
      { database: a.database, clock: a.clock, keepDatabase: true },
    );
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  let address = 0;
  /** A client address of its own for each test, so their address counters do not mix. */
  const newAddress = () => `10.9.0.${++address}`;
  const login = (app: TestApp, body: Record<string, unknown>, remoteAddress: string) =>
    app.app
      .inject({
        method: 'POST',
        url: '/security-api/login',
        payload: body,
        headers: { lang: 'en' },
        remoteAddress,
      })
      .then((r) => ({
        status: r.statusCode,
        body: r.json() as { errorCode: string | null; errorDesc: string },
      }));

  it('counts attempts on the e-mail looked up, however userName is rotated', async () => {
    const ip = newAddress();
    const victim = await givenUser(a.database);
    for (let i = 0; i < LIMIT; i++) {
      const wrong = await login(
        a,
        { userName: `decoy${i}@example.com`, email: victim.email, password: `Wrong#${i}` },
        ip,
      );
      expect(wrong.body.errorCode).toBe('SED_10');
    }
    // The right password, a new userName, the e-mail in another case: still the same account.
    const limited = await login(
      a,
      { userName: 'someone-else@example.com', email: victim.email.toUpperCase(), password: victim.password },
      ip,
    );
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ errorCode: 'SE_429', errorDesc: ERROR_MESSAGES.en.SE_429 });
    // The same account named through userName is the same identifier.
    expect(
      (await login(a, { userName: ` ${victim.email} `, password: victim.password }, newAddress())).status,
    ).toBe(429);
    // Other accounts sign in.
    const colleague = await givenUser(a.database);
    expect((await login(a, { userName: colleague.email, password: colleague.password }, ip)).status).toBe(
      200,
    );
  });

  it('counts attempts on the mobile number looked up', async () => {
    const ip = newAddress();
    const victim = await givenUser(a.database, { mobile: '13800138123' });
    for (let i = 0; i < LIMIT; i++) {
      const wrong = await login(
        a,
        { userName: `decoy${i}@example.com`, mobile: '13800138123', password: 'nope' },
        ip,
      );
      expect(wrong.body.errorCode).toBe('SED_10');
    }
    expect(
      (await login(a, { userName: '13800138123', password: victim.password }, newAddress())).status,
    ).toBe(429);
  });

  it('limits one client address across identifiers, at a multiple of LOGIN_RATE_LIMIT', async () => {
    const ip = newAddress();
    for (let i = 0; i < LIMIT * ADDRESS_MULTIPLE; i++) {
      const wrong = await login(a, { userName: `nobody${i}@example.com`, password: 'Wrong#1' }, ip);
      expect(wrong.body.errorCode, `attempt ${i + 1}`).toBe('SED_10');
    }
    const someone = await givenUser(a.database);
    const limited = await login(a, { userName: someone.email, password: someone.password }, ip);
    expect(limited.status).toBe(429);
    expect(limited.body.errorCode).toBe('SE_429');
    // From another address the same account signs in.
    expect(
      (await login(a, { userName: someone.email, password: someone.password }, newAddress())).status,
    ).toBe(200);
  });

  it('does not count successful sign-ins against anyone', async () => {
    const ip = newAddress();
    const user = await givenUser(a.database);
    for (let i = 0; i < LIMIT + 2; i++) {
      expect(
        (await login(a, { userName: user.email, password: user.password }, ip)).status,
        `sign-in ${i + 1}`,
      ).toBe(200);
    }
  });

  it('holds across two server processes on one database; the next window starts afresh', async () => {
    const ip = newAddress();
    const user = await givenUser(a.database);
    for (let i = 0; i < LIMIT; i++) {
      const app = i % 2 === 0 ? a : b;
      expect((await login(app, { userName: user.email, password: 'Wrong#1' }, ip)).body.errorCode).toBe(
        'SED_10',
      );
    }
    expect((await login(a, { userName: user.email, password: user.password }, ip)).status).toBe(429);
    expect((await login(b, { userName: user.email, password: user.password }, ip)).status).toBe(429);
    a.clock.advance(MINUTE);
    expect((await login(b, { userName: user.email, password: user.password }, ip)).status).toBe(200);
  });

  it('limits share-link password attempts across two server processes', async () => {
    const token = await signIn(a.app, ADMIN.email, ADMIN.password);
    const folderId = await createFolder(a, token, `throttled-${Date.now()}`);
    const created = await post(
      a.app,
      '/ske-api/v1_0/user/share/produce-random-code',
      { folderIds: [folderId], needPassword: 1 },
      { token },
    );
    expect(created.status).toBe(200);
    const { code, password } = created.body.result as { code: string; password: string };
    const ip = newAddress();
    const unlock = (app: TestApp, typed: string) =>
      app.app.inject({
        method: 'POST',
        url: `/ske-api/v1_0/user/share/random/${code}`,
        payload: { password: typed },
        remoteAddress: ip,
      });
    for (let i = 0; i < LIMIT; i++) {
      expect((await unlock(i % 2 === 0 ? a : b, 'wrong1')).statusCode).toBe(403);
    }
    const limited = await unlock(b, password);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ errorCode: 'SE_429' });
    expect((await unlock(a, password)).statusCode).toBe(429);
    a.clock.advance(MINUTE);
    expect((await unlock(a, password)).statusCode).toBe(200);
  });
});
