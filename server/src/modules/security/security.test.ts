import { ALL_FUNCTION_CODES, ERROR_MESSAGES, endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { givenUser } from '../../../test/factories';
import { ADMIN, createTestApp, post, signIn, type TestApp } from '../../../test/harness';
import { AccountsRepository } from '../accounts/repository';

const HOUR = 3600_000;

describe('security API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  });
  afterAll(() => t.close());

  const userInfo = (token: string, lang = 'zh') =>
    post(t.app, '/security-api/user-info', undefined, { token, lang });

  describe('sign-in', () => {
    it('signs the administrator in by e-mail, whatever its case, and reports every code', async () => {
      const { status, body } = await post(t.app, '/security-api/login', {
        userName: ADMIN.email.toUpperCase(),
        password: ADMIN.password,
      });
      expect(status).toBe(200);
      expect(body.success).toBe(true);
      const result = resultOf(endpoints.login, body);
      expect(result.token).toMatch(/^[\w-]{43}$/);
      expect(result.passwordExpireFlag).toBe(false);
      expect(new Date(result.expiresAt).getTime() - t.clock.now().getTime()).toBe(12 * HOUR);

      const info = await userInfo(result.token);
      expect(info.status).toBe(200);
      const user = resultOf(endpoints.userInfo, info.body);
      expect(user.email).toBe(ADMIN.email);
      expect(user.deptname).toBe('总部');
      expect(user.resourcesList).toEqual(
        ALL_FUNCTION_CODES.map((code) => ({ resourceType: 3, resourceId: code })),
      );
      expect(user.filePermissions).toEqual({ view: 'all', upload: 'all', download: 'all', share: 'all' });
      expect(user).not.toHaveProperty('password_hash');
    });

    it('counts sign-ins in loginNum', async () => {
      const account = await givenUser(t.database);
      await signIn(t.app, account.email, account.password);
      const token = await signIn(t.app, account.email, account.password);
      expect((await userInfo(token)).body.result).toMatchObject({ loginNum: 2 });
    });

    it('signs in by an 11-digit phone number', async () => {
      const account = await givenUser(t.database, { mobile: '13800138000' });
      const token = await signIn(t.app, '13800138000', account.password);
      expect((await userInfo(token)).body.result).toMatchObject({ mobile: '13800138000' });
    });

    it('answers a wrong password with SED_10 in the language asked for', async () => {
      for (const lang of ['zh', 'en', 'ja', 'ko', 'de'] as const) {
        const { status, body } = await post(
          t.app,
          '/security-api/login',
          { userName: ADMIN.email, password: 'Wrong#123' },
          { lang },
        );
        expect(status).toBe(400);
        expect(body).toEqual({
          success: false,
          result: null,
          errorCode: 'SED_10',
          errorDesc: ERROR_MESSAGES[lang].SED_10,
        });
      }
      const unknownLang = await post(
        t.app,
        '/security-api/login',
        { userName: ADMIN.email, password: 'x' },
        { lang: 'fr' },
      );
      expect(unknownLang.body.errorDesc).toBe(ERROR_MESSAGES.zh.SED_10);
    });

    it('answers an unknown account exactly like a wrong password', async () => {
      const unknown = await post(t.app, '/security-api/login', {
        userName: 'nobody@example.com',
        password: 'Wrong#123',
      });
      const wrong = await post(t.app, '/security-api/login', {
        userName: ADMIN.email,
        password: 'Wrong#123',
      });
      expect(unknown.status).toBe(wrong.status);
      expect(unknown.body).toEqual(wrong.body);
    });

    it('refuses a deleted account', async () => {
      const account = await givenUser(t.database);
      await t.database.db.updateTable('users').set({ status: 0 }).where('id', '=', account.id).execute();
      const { body } = await post(t.app, '/security-api/login', {
        userName: account.email,
        password: account.password,
      });
      expect(body.errorCode).toBe('SED_10');
    });

    it('names the field of a malformed body and creates no session', async () => {
      const before = await t.database.db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const cases: Array<[unknown, string]> = [
        [{ password: 'x' }, 'userName'],
        [{ userName: 'not-an-identifier', password: 'x' }, 'userName'],
        [{ userName: ADMIN.email }, 'password'],
        [{ userName: ADMIN.email, password: 'x'.repeat(200) }, 'password'],
        [{ userName: ADMIN.email, password: 'x', remember: 'yes' }, 'remember'],
      ];
      for (const [payload, field] of cases) {
        const { status, body } = await post(t.app, '/security-api/login', payload, { lang: 'en' });
        expect(status, JSON.stringify(payload)).toBe(400);
        expect(body.errorCode).toBe('SE_400');
        expect(body.errorDesc).toContain(`${field}:`);
      }
      const raw = await t.app.inject({
        method: 'POST',
        url: '/security-api/login',
        headers: { 'content-type': 'application/json', lang: 'en' },
        payload: '{"userName": ',
      });
      expect(raw.statusCode).toBe(400);
      expect(raw.json()).toMatchObject({ success: false, errorCode: 'SE_400' });
      const after = await t.database.db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(after.n).toEqual(before.n);
    });

    it('refuses an SMS code never sent with SE_504 (recovery.test.ts covers SMS sign-in)', async () => {
      const { status, body } = await post(t.app, '/security-api/login', {
        mobile: '13800138001',
        messageCode: '123456',
      });
      expect(status).toBe(400);
      expect(body.errorCode).toBe('SE_504');
    });
  });

  describe('sessions', () => {
    it('refuses a missing or unknown token with SE_501 and HTTP 401', async () => {
      const missing = await post(t.app, '/security-api/user-info', undefined, { lang: 'en' });
      expect(missing.status).toBe(401);
      expect(missing.body).toMatchObject({ errorCode: 'SE_501', errorDesc: ERROR_MESSAGES.en.SE_501 });
      const unknown = await userInfo('not-a-real-token');
      expect(unknown.status).toBe(401);
    });

    it('stops a token working at once after sign-out', async () => {
      const token = await signIn(t.app, ADMIN.email, ADMIN.password);
      const out = await post(t.app, '/security-api/sign-out', undefined, { token });
      expect(out.status).toBe(200);
      expect((await userInfo(token)).status).toBe(401);
      expect((await post(t.app, '/security-api/sign-out', undefined, { token })).status).toBe(401);
    });

    it('ends an idle session after 12 hours, and activity keeps it alive', async () => {
      const token = await signIn(t.app, ADMIN.email, ADMIN.password);
      t.clock.advance(11 * HOUR);
      expect((await userInfo(token)).status).toBe(200);
      t.clock.advance(11 * HOUR);
      expect((await userInfo(token)).status).toBe(200);
      t.clock.advance(12 * HOUR + 1000);
      expect((await userInfo(token)).status).toBe(401);
    });

    it('keeps a remembered session for 7 days and no longer', async () => {
      const token = await signIn(t.app, ADMIN.email, ADMIN.password, true);
      t.clock.advance(6 * 24 * HOUR);
      expect((await userInfo(token)).status).toBe(200);
      t.clock.advance(24 * HOUR + 1000);
      expect((await userInfo(token)).status).toBe(401);
    });
  });

  describe('change own password', () => {
    const change = (token: string, body: unknown, lang = 'en') =>
      post(t.app, '/security-api/self-reset-pwd', body, { token, lang });

    it('refuses a wrong original password with SE_505 and keeps the old one', async () => {
      const account = await givenUser(t.database);
      const token = await signIn(t.app, account.email, account.password);
      const { status, body } = await change(token, {
        password: 'Wrong#999',
        newPassword: 'N3w#pass',
        reEnterPassword: 'N3w#pass',
      });
      expect(status).toBe(400);
      expect(body.errorCode).toBe('SE_505');
      await signIn(t.app, account.email, account.password);
    });

    it.each([
      [{ password: 'Passw0rd!', newPassword: 'short', reEnterPassword: 'short' }, 'newPassword'],
      [
        { password: 'Passw0rd!', newPassword: 'lettersonly!', reEnterPassword: 'lettersonly!' },
        'newPassword',
      ],
      [{ password: 'Passw0rd!', newPassword: 'Abc12345', reEnterPassword: 'Abc12345' }, 'newPassword'],
      [
        { password: 'Passw0rd!', newPassword: 'Abc#12345678901234', reEnterPassword: 'Abc#12345678901234' },
        'newPassword',
      ],
      [{ password: 'Passw0rd!', newPassword: 'N3w#pass', reEnterPassword: 'N3w#pasz' }, 'reEnterPassword'],
      [{ password: 'Passw0rd!', newPassword: 'Passw0rd!', reEnterPassword: 'Passw0rd!' }, 'newPassword'],
    ])('refuses %j naming %s', async (payload, field) => {
      const account = await givenUser(t.database);
      const token = await signIn(t.app, account.email, account.password);
      const { status, body } = await change(token, payload);
      expect(status).toBe(400);
      expect(body.errorCode).toBe('SE_400');
      expect(body.errorDesc).toContain(`${field}:`);
      await signIn(t.app, account.email, account.password);
    });

    it('changes it, ends every session of the user, and the new password signs in', async () => {
      const account = await givenUser(t.database);
      const token = await signIn(t.app, account.email, account.password);
      const otherDevice = await signIn(t.app, account.email, account.password, true);
      const { status } = await change(token, {
        password: account.password,
        newPassword: 'N3w#pass',
        reEnterPassword: 'N3w#pass',
      });
      expect(status).toBe(200);
      expect((await userInfo(token)).status).toBe(401);
      expect((await userInfo(otherDevice)).status).toBe(401);
      const old = await post(t.app, '/security-api/login', {
        userName: account.email,
        password: account.password,
      });
      expect(old.body.errorCode).toBe('SED_10');
      await signIn(t.app, account.email, 'N3w#pass');
    });

    it('forces a change when someone else set the password, admitting only the change calls until then', async () => {
      const account = await givenUser(t.database, { mustChangePassword: true, functionCodes: [2] });
      const login = await post(t.app, '/security-api/login', {
        userName: account.email,
        password: account.password,
      });
      const { token, passwordExpireFlag } = resultOf(endpoints.login, login.body);
      expect(passwordExpireFlag).toBe(true);
      expect((await userInfo(token)).body.result).toMatchObject({ passwordExpireFlag: true });
      expect((await post(t.app, '/security-api/roles', undefined, { token })).status).toBe(403);

      await change(token, {
        password: account.password,
        newPassword: 'Fr3sh#pw',
        reEnterPassword: 'Fr3sh#pw',
      });
      const fresh = await signIn(t.app, account.email, 'Fr3sh#pw');
      expect((await userInfo(fresh)).body.result).toMatchObject({ passwordExpireFlag: false });
      expect((await post(t.app, '/security-api/roles', undefined, { token: fresh })).status).toBe(200);
    });
  });

  describe('permission codes', () => {
    it('refuses a caller without the code with SE_502 and HTTP 403', async () => {
      const account = await givenUser(t.database, { functionCodes: [1, 4] });
      const token = await signIn(t.app, account.email, account.password);
      const { status, body } = await post(t.app, '/security-api/roles', undefined, { token, lang: 'en' });
      expect(status).toBe(403);
      expect(body).toMatchObject({ errorCode: 'SE_502', errorDesc: ERROR_MESSAGES.en.SE_502 });
    });

    it('lists roles for a holder of code 2 or 3', async () => {
      const account = await givenUser(t.database, { functionCodes: [3] });
      const token = await signIn(t.app, account.email, account.password);
      const { status, body } = await post(t.app, '/security-api/roles', undefined, { token });
      expect(status).toBe(200);
      const roles = resultOf(endpoints.roleList, body).roleList;
      expect(roles.find((r) => r.name === '系统管理员')?.functionCodes).toEqual([...ALL_FUNCTION_CODES]);
    });

    it('gives a user the roles of their department as well as their own', async () => {
      const accounts = new AccountsRepository(t.database.db);
      const dept = await accounts.departments.createDepartment({ name: 'Design', parentId: 1 });
      const deptRole = await accounts.roles.createRole({
        name: 'design-dept',
        scopes: { view: 'dept', upload: 'dept', download: 'none', share: 'none' },
        functionCodes: [4],
      });
      await t.database.db
        .insertInto('department_roles')
        .values({ dept_id: dept.id, role_id: deptRole })
        .execute();
      const account = await givenUser(t.database, {
        deptId: dept.id,
        functionCodes: [5],
        scopes: { download: 'all' },
      });
      const token = await signIn(t.app, account.email, account.password);
      const info = resultOf(endpoints.userInfo, (await userInfo(token)).body);
      expect(info.deptname).toBe('Design');
      expect(info.resourcesList).toEqual([
        { resourceType: 3, resourceId: 4 },
        { resourceType: 3, resourceId: 5 },
      ]);
      expect(info.filePermissions).toEqual({ view: 'dept', upload: 'dept', download: 'all', share: 'none' });
    });
  });

  describe('HTTP hygiene', () => {
    it('sends security headers and a localised 404 envelope for unknown API paths', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/ske-api/v1_0/nothing-here',
        headers: { lang: 'en' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, errorCode: 'SE_404', errorDesc: 'Not found' });
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    });

    it('reports health with the database kind', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/health' });
      expect(response.json()).toMatchObject({
        success: true,
        result: { status: 'ok', database: t.database.kind },
      });
    });
  });
});

describe('sign-in rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '5' });
  });
  afterAll(() => t.close());

  it('limits a burst of wrong passwords for one account, not other accounts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { status } = await post(t.app, '/security-api/login', {
        userName: ADMIN.email,
        password: `Wrong#${i}`,
      });
      statuses.push(status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const limited = await post(
      t.app,
      '/security-api/login',
      { userName: ADMIN.email, password: ADMIN.password },
      { lang: 'en' },
    );
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ errorCode: 'SE_429', errorDesc: ERROR_MESSAGES.en.SE_429 });

    const colleague = await givenUser(t.database);
    await signIn(t.app, colleague.email, colleague.password);
  });
});
