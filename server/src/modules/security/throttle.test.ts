import { ERROR_MESSAGES, endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { createFolder, givenUser } from '../../../test/factories';
import { ADMIN, createTestApp, post, signIn, type TestApp } from '../../../test/harness';

/**
 * Sign-in and share-password throttling (issue 9 item 3): keyed on the identifier actually looked
 * up and, separately, on the client address; counted in the database, so two server processes on
 * one database share the counters; windows follow the injected clock.
 */
const LIMIT = 3;
/** The per-address limit is this multiple of LOGIN_RATE_LIMIT (docs/decisions.md). */
const ADDRESS_MULTIPLE = 10;
/** The per-link ceiling of share passwords is this multiple of the per-address one (docs/decisions.md). */
const LINK_MULTIPLE = 10;
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
  const newAddress = () => {
    address++;
    return `10.9.${Math.floor(address / 250)}.${(address % 250) + 1}`;
  };
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

  /**
   * A password-protected link to a new folder of the administrator's, and a way to try a password
   * on it through either app from a given client address.
   */
  const givenPasswordLink = async (prefix: string) => {
    const token = await signIn(a.app, ADMIN.email, ADMIN.password);
    const folderId = await createFolder(a, token, `${prefix}-${Date.now()}`);
    const created = await post(
      a.app,
      '/ske-api/v1_0/user/share/produce-random-code',
      { folderIds: [folderId], needPassword: 1 },
      { token },
    );
    expect(created.status).toBe(200);
    const { code, password } = resultOf(endpoints.createShare, created.body);
    if (password === null) throw new Error('a password link has a password');
    const unlock = (typed: string, remoteAddress: string, via: TestApp = a) =>
      via.app.inject({
        method: 'POST',
        url: `/ske-api/v1_0/user/share/random/${code}`,
        payload: { password: typed },
        remoteAddress,
      });
    return { password, unlock };
  };

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
    const link = await givenPasswordLink('throttled');
    const { password } = link;
    const ip = newAddress();
    const unlock = (app: TestApp, typed: string) => link.unlock(typed, ip, app);
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

  it('bounds the password attempts on one link from all addresses together', async () => {
    const { password, unlock } = await givenPasswordLink('spread');
    // Each address stays under its own limit, yet the link as a whole meets its ceiling.
    for (let i = 0; i < LIMIT * LINK_MULTIPLE; i++) {
      expect((await unlock('wrong1', newAddress())).statusCode, `guess ${i + 1}`).toBe(403);
    }
    expect((await unlock(password, newAddress())).statusCode).toBe(429);
    a.clock.advance(MINUTE);
    expect((await unlock(password, newAddress())).statusCode).toBe(200);
  });

  it('does not let one address alone hold a link shut for everyone', async () => {
    const { password, unlock } = await givenPasswordLink('flooded');
    const flooder = newAddress();
    for (let i = 0; i < LIMIT * LINK_MULTIPLE + 5; i++) await unlock('wrong1', flooder);
    expect((await unlock(password, flooder)).statusCode).toBe(429);
    expect((await unlock(password, newAddress())).statusCode).toBe(200);
  });

  it('gives an address no attempts back for the successful sign-ins between its wrong guesses', async () => {
    const ip = newAddress();
    const own = await givenUser(a.database);
    for (let i = 0; i < LIMIT * ADDRESS_MULTIPLE; i++) {
      expect(
        (await login(a, { userName: `other${i}-${ip}@example.com`, password: 'Wrong#1' }, ip)).body.errorCode,
        `guess ${i + 1}`,
      ).toBe('SED_10');
      // The attacker's own account signs in between guesses (but not once the address is at its limit).
      if (i < LIMIT * ADDRESS_MULTIPLE - 1) {
        const ownSignIn = await login(a, { userName: own.email, password: own.password }, ip);
        expect(ownSignIn.status, `own sign-in after guess ${i + 1}`).toBe(200);
      }
    }
    expect(
      (await login(a, { userName: `other-last-${ip}@example.com`, password: 'Wrong#1' }, ip)).status,
    ).toBe(429);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 address', async () => {
    for (let i = 0; i < LIMIT * ADDRESS_MULTIPLE; i++) {
      // A new interface identifier for every guess: the same /64.
      const wrong = await login(
        a,
        { userName: `v6-${i}@example.com`, password: 'Wrong#1' },
        `2001:db8:9:1::${i + 1}`,
      );
      expect(wrong.body.errorCode, `guess ${i + 1}`).toBe('SED_10');
    }
    const someone = await givenUser(a.database);
    const body = { userName: someone.email, password: someone.password };
    expect((await login(a, body, '2001:db8:9:1:abcd:ef01:2345:6789')).status).toBe(429);
    // The neighbouring /64 is another client.
    expect((await login(a, body, '2001:db8:9:2::1')).status).toBe(200);

    const ip = newAddress();
    for (let i = 0; i < LIMIT * ADDRESS_MULTIPLE; i++) {
      const from = i % 2 === 0 ? ip : `::ffff:${ip}`;
      const wrong = await login(a, { userName: `mapped-${i}@example.com`, password: 'Wrong#1' }, from);
      expect(wrong.body.errorCode, `guess ${i + 1}`).toBe('SED_10');
    }
    expect((await login(a, body, ip)).status).toBe(429);
  });
});

describe('client addresses behind a reverse proxy (TRUST_PROXY)', () => {
  const login = (
    app: TestApp,
    userName: string,
    password: string,
    remoteAddress: string,
    forwardedFor: string,
  ) =>
    app.app
      .inject({
        method: 'POST',
        url: '/security-api/login',
        payload: { userName, password },
        headers: { 'x-forwarded-for': forwardedFor },
        remoteAddress,
      })
      .then((r) => ({
        status: r.statusCode,
        errorCode: (r.json() as { errorCode: string | null }).errorCode,
      }));

  it('with a hop count, takes the address our proxy added, so forging the leftmost entries does not help', async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: '1', TRUST_PROXY: '1' });
    try {
      for (let i = 0; i < ADDRESS_MULTIPLE; i++) {
        const wrong = await login(t, `nobody${i}@example.com`, 'Wrong#1', '127.0.0.1', `1.2.3.${i}, 5.6.7.8`);
        expect(wrong.errorCode, `guess ${i + 1}`).toBe('SED_10');
      }
      const someone = await givenUser(t.database);
      expect((await login(t, someone.email, someone.password, '127.0.0.1', '9.9.9.9, 5.6.7.8')).status).toBe(
        429,
      );
      // Another client behind the same proxy signs in.
      expect((await login(t, someone.email, someone.password, '127.0.0.1', '5.6.7.8, 5.6.7.9')).status).toBe(
        200,
      );
    } finally {
      await t.close();
    }
  });

  it('with a list of proxies, trusts X-Forwarded-For only from them', async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: '1', TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' });
    try {
      for (let i = 0; i < ADDRESS_MULTIPLE; i++) {
        // Through two of our proxies: the client is the entry before them.
        const wrong = await login(
          t,
          `nobody${i}@example.com`,
          'Wrong#1',
          '10.0.0.5',
          `1.2.3.${i}, 5.6.7.8, 192.0.2.1`,
        );
        expect(wrong.errorCode, `guess ${i + 1}`).toBe('SED_10');
      }
      const someone = await givenUser(t.database);
      expect((await login(t, someone.email, someone.password, '10.0.0.6', '5.6.7.8')).status).toBe(429);
      // A client reaching the server directly is its socket address, whatever it claims.
      for (let i = 0; i < ADDRESS_MULTIPLE; i++) {
        await login(t, `direct${i}@example.com`, 'Wrong#1', '198.51.100.1', `5.6.7.${i + 10}`);
      }
      expect((await login(t, someone.email, someone.password, '198.51.100.1', '5.6.7.99')).status).toBe(429);
    } finally {
      await t.close();
    }
  });
});
