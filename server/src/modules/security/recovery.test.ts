import { ERROR_MESSAGES, endpoints, SmsPurpose, UserStatus } from '@dam/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import { givenUser, uniqueMobile } from '../../../test/factories';
import { createTestApp, signIn, type TestApp } from '../../../test/harness';
import { startSmsGateway, type TestSmsGateway } from '../../../test/peers/sms-gateway';
import { startSmtpServer, type TestSmtpServer } from '../../../test/peers/smtp';
import { afterAnswerWorkSettled } from '../sms/after-answer';

const MINUTE = 60_000;
const APP_URL = 'http://dam.example.test';

/**
 * Getting back in, against real peers: codes go through an HTTP gateway the test runs, mails
 * through a real SMTP server (delivered at once here: this app has no job queue; mail.test.ts
 * covers the queue).
 */
describe('SMS codes, password reset and change of mobile or e-mail', () => {
  let t: TestApp;
  let gateway: TestSmsGateway;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    [gateway, smtp] = await Promise.all([startSmsGateway(), startSmtpServer()]);
    t = await createTestApp({
      LOGIN_RATE_LIMIT: '1000',
      PUBLIC_URL: APP_URL,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'DAM <dam@example.test>',
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: `${gateway.url}/send?to={mobile}`,
      SMS_HTTP_HEADERS: '{"x-api-key":"key-1"}',
      SMS_HTTP_BODY: '{"phone":"{mobile}","text":"验证码 {code}，{minutes} 分钟内有效"}',
      SMS_HTTP_OK_PATTERN: '"code":"OK"',
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([gateway.close(), smtp.close()]);
  });
  // Limits per client address are hourly; every test starts in a fresh hour.
  afterEach(async () => {
    await afterAnswerWorkSettled();
    gateway.answer(200);
    t.clock.advance(61 * MINUTE);
  });

  /** Asks for a code and waits until it has been sent (codes go after the answer). */
  const sendCode = async (mobile: string, purpose: SmsPurpose) => {
    const answer = await attempt(t.app, endpoints.sendSignInCode, { body: { mobile, purpose } });
    await afterAnswerWorkSettled();
    return answer;
  };
  const codeLogin = (mobile: string, messageCode: string) =>
    attempt(t.app, endpoints.login, { body: { userName: mobile, messageCode } });
  const logCodes = async (userId: number) =>
    (
      await t.database.db
        .selectFrom('operation_logs')
        .select('operator_code')
        .where('operator_id', '=', userId)
        .orderBy('id')
        .execute()
    ).map((row) => row.operator_code);

  describe('SMS sign-in', () => {
    it('sends a code through the gateway and signs in with it, once', async () => {
      const mobile = uniqueMobile();
      const user = await givenUser(t.database, { mobile });
      const sent = await sendCode(mobile, SmsPurpose.signIn);
      expect(sent.result).toEqual({ resendAfterSeconds: 60 });

      const request = gateway.requests.at(-1);
      expect(request?.method).toBe('POST');
      expect(request?.url).toBe(`/send?to=${mobile}`);
      expect(request?.headers['x-api-key']).toBe('key-1');
      expect(request?.headers['content-type']).toBe('application/json');
      const body = JSON.parse(request?.body ?? '{}') as { phone: string; text: string };
      expect(body.phone).toBe(mobile);
      expect(body.text).toMatch(/^验证码 \d{6}，5 分钟内有效$/);

      const code = gateway.lastCodeTo(mobile) ?? '';
      const signedIn = await codeLogin(mobile, code);
      expect(signedIn.success).toBe(true);
      const info = await call(t.app, endpoints.userInfo, { token: signedIn.result?.token ?? '' });
      expect(info.id).toBe(user.id);
      expect(await logCodes(user.id)).toEqual(['LOGIN02']);

      expect((await codeLogin(mobile, code)).errorCode).toBe('SE_504');
    });

    it('answers a number without an account alike, sends nothing, and refuses any code', async () => {
      const mobile = uniqueMobile();
      const before = gateway.requests.length;
      const sent = await sendCode(mobile, SmsPurpose.signIn);
      expect(sent.result).toEqual({ resendAfterSeconds: 60 });
      expect(gateway.requests.length).toBe(before);
      expect((await codeLogin(mobile, '123456')).errorCode).toBe('SE_504');
    });

    it('sends nothing to a deleted account', async () => {
      const mobile = uniqueMobile();
      const user = await givenUser(t.database, { mobile });
      await t.database.db
        .updateTable('users')
        .set({ status: UserStatus.deleted })
        .where('id', '=', user.id)
        .execute();
      const before = gateway.requests.length;
      expect((await sendCode(mobile, SmsPurpose.signIn)).success).toBe(true);
      expect(gateway.requests.length).toBe(before);
    });

    it('burns a code after five wrong tries, and says SE_504 in the caller language', async () => {
      const mobile = uniqueMobile();
      await givenUser(t.database, { mobile });
      await sendCode(mobile, SmsPurpose.signIn);
      const code = gateway.lastCodeTo(mobile) ?? '';
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        const refused = await attempt(t.app, endpoints.login, {
          body: { mobile, messageCode: wrong },
          lang: 'en',
        });
        expect(refused.status).toBe(400);
        expect(refused.errorDesc).toBe(ERROR_MESSAGES.en.SE_504);
      }
      expect((await codeLogin(mobile, code)).errorCode).toBe('SE_504');
    });

    it('refuses a code after its five minutes', async () => {
      const mobile = uniqueMobile();
      await givenUser(t.database, { mobile });
      await sendCode(mobile, SmsPurpose.signIn);
      t.clock.advance(5 * MINUTE + 1000);
      expect((await codeLogin(mobile, gateway.lastCodeTo(mobile) ?? '')).errorCode).toBe('SE_504');
    });

    it('refuses a code sent for another purpose', async () => {
      const mobile = uniqueMobile();
      await givenUser(t.database, { mobile });
      await sendCode(mobile, SmsPurpose.resetPassword);
      expect((await codeLogin(mobile, gateway.lastCodeTo(mobile) ?? '')).errorCode).toBe('SE_504');
    });

    it('sends a number one code a minute, and a new code replaces the last', async () => {
      const mobile = uniqueMobile();
      await givenUser(t.database, { mobile });
      await sendCode(mobile, SmsPurpose.signIn);
      const first = gateway.lastCodeTo(mobile) ?? '';
      expect((await sendCode(mobile, SmsPurpose.signIn)).errorCode).toBe('SE_429');
      t.clock.advance(MINUTE);
      expect((await sendCode(mobile, SmsPurpose.signIn)).success).toBe(true);
      const second = gateway.lastCodeTo(mobile) ?? '';
      if (first !== second) expect((await codeLogin(mobile, first)).errorCode).toBe('SE_504');
      expect((await codeLogin(mobile, second)).success).toBe(true);
    });

    it('sends a number at most five codes an hour', async () => {
      const mobile = uniqueMobile();
      await givenUser(t.database, { mobile });
      for (let i = 0; i < 5; i++) {
        expect((await sendCode(mobile, SmsPurpose.signIn)).success).toBe(true);
        t.clock.advance(MINUTE);
      }
      expect((await sendCode(mobile, SmsPurpose.signIn)).errorCode).toBe('SE_429');
    });

    it('answers as usual when the gateway fails (the code is only logged as not sent): the number asks again after its minute', async () => {
      const mobile = uniqueMobile();
      await givenUser(t.database, { mobile });
      gateway.answer(500, 'down');
      const before = gateway.requests.length;
      const asked = await sendCode(mobile, SmsPurpose.signIn);
      expect(asked).toMatchObject({ status: 200, result: { resendAfterSeconds: 60 } });
      expect(gateway.requests.length).toBe(before + 1);
      expect((await sendCode(mobile, SmsPurpose.signIn)).errorCode).toBe('SE_429');
      // A gateway answering 200 with an error in its body did not send either.
      t.clock.advance(MINUTE);
      gateway.answer(200, '{"code":"isv.BUSINESS_LIMIT_CONTROL"}');
      expect((await sendCode(mobile, SmsPurpose.signIn)).success).toBe(true);
      t.clock.advance(MINUTE);
      gateway.answer(200);
      expect((await sendCode(mobile, SmsPurpose.signIn)).success).toBe(true);
      expect((await codeLogin(mobile, gateway.lastCodeTo(mobile) ?? '')).success).toBe(true);
    });

    it('refuses a code with an e-mail address, and a malformed code, as bad requests', async () => {
      const user = await givenUser(t.database, { mobile: uniqueMobile() });
      const byEmail = await attempt(t.app, endpoints.login, {
        body: { userName: user.email, messageCode: '123456' },
      });
      expect(byEmail.errorCode).toBe('SE_400');
      const malformed = await attempt(t.app, endpoints.login, {
        body: { mobile: uniqueMobile(), messageCode: '12ab' },
      });
      expect(malformed.errorCode).toBe('SE_400');
    });
  });

  describe('find and reset a password', () => {
    const resetWith = (body: object) => attempt(t.app, endpoints.loginResetPassword, { body });
    const linkTokenOf = (text: string) => {
      const link = /https?:\/\/\S+\/login\/reset-password\?token=([\w-]+)/.exec(text);
      expect(link, text).not.toBeNull();
      return link?.[1] ?? '';
    };

    it('mails a single-use link in the asker language that sets a new password and ends every session', async () => {
      const user = await givenUser(t.database);
      const oldSession = await signIn(t.app, user.email, user.password);
      const asked = await attempt(t.app, endpoints.emailResetPassword, {
        body: { email: user.email.toUpperCase() },
      });
      expect(asked).toMatchObject({ success: true, result: null });

      const mail = await smtp.nextMailTo(user.email);
      expect(mail.from).toBe('dam@example.test');
      expect(mail.subject).toBe('【智能图档管理中台】重置密码');
      expect(mail.text).toContain('30 分钟');
      expect(mail.html).toContain(`${APP_URL}/login/reset-password?token=`);
      const token = linkTokenOf(mail.text);

      const done = await resetWith({ token, password: 'N3w!pass', reEnterPassword: 'N3w!pass' });
      expect(done.success).toBe(true);
      expect((await attempt(t.app, endpoints.userInfo, { token: oldSession })).errorCode).toBe('SE_501');
      expect(await signIn(t.app, user.email, 'N3w!pass')).toBeTruthy();
      expect(await logCodes(user.id)).toContain('USER07');

      const again = await resetWith({ token, password: 'An0ther!', reEnterPassword: 'An0ther!' });
      expect(again.errorCode).toBe('SE_400');
      expect(await signIn(t.app, user.email, 'N3w!pass')).toBeTruthy();
    });

    it('writes the mail in English for an English caller', async () => {
      const user = await givenUser(t.database);
      await attempt(t.app, endpoints.emailResetPassword, { body: { email: user.email }, lang: 'en' });
      const mail = await smtp.nextMailTo(user.email);
      expect(mail.subject).toBe('[Digital Asset Management] Reset your password');
      expect(mail.text).toContain('within 30 minutes');
    });

    it('answers an unknown address alike and mails nothing', async () => {
      const email = `nobody-${Date.now()}@example.com`;
      const asked = await attempt(t.app, endpoints.emailResetPassword, { body: { email } });
      expect(asked).toMatchObject({ success: true, result: null });
      await afterAnswerWorkSettled();
      const mails = await t.database.db
        .selectFrom('mails')
        .select('id')
        .where('recipient', '=', email)
        .execute();
      expect(mails).toEqual([]);
    });

    it('refuses a link after 30 minutes, and an older link once a newer one was sent', async () => {
      const user = await givenUser(t.database);
      await attempt(t.app, endpoints.emailResetPassword, { body: { email: user.email } });
      const first = linkTokenOf((await smtp.nextMailTo(user.email)).text);
      await attempt(t.app, endpoints.emailResetPassword, { body: { email: user.email } });
      const second = linkTokenOf((await smtp.nextMailTo(user.email)).text);
      const body = { password: 'N3w!pass', reEnterPassword: 'N3w!pass' };
      expect((await resetWith({ token: first, ...body })).errorCode).toBe('SE_400');
      t.clock.advance(30 * MINUTE + 1000);
      expect((await resetWith({ token: second, ...body })).errorCode).toBe('SE_400');
      expect(await signIn(t.app, user.email, user.password)).toBeTruthy();
    });

    it('refuses a weak or mismatched new password and keeps the link usable', async () => {
      const user = await givenUser(t.database);
      await attempt(t.app, endpoints.emailResetPassword, { body: { email: user.email } });
      const token = linkTokenOf((await smtp.nextMailTo(user.email)).text);
      expect((await resetWith({ token, password: 'weak', reEnterPassword: 'weak' })).errorCode).toBe(
        'SE_400',
      );
      expect((await resetWith({ token, password: 'N3w!pass', reEnterPassword: 'N3w!pasX' })).errorCode).toBe(
        'SE_400',
      );
      expect((await resetWith({ token, password: 'N3w!pass', reEnterPassword: 'N3w!pass' })).success).toBe(
        true,
      );
    });

    it('resets by an SMS code, which works once and only for its number', async () => {
      const mobile = uniqueMobile();
      const user = await givenUser(t.database, { mobile });
      const oldSession = await signIn(t.app, user.email, user.password);
      await sendCode(mobile, SmsPurpose.resetPassword);
      const code = gateway.lastCodeTo(mobile) ?? '';
      const body = { password: 'N3w!pass', reEnterPassword: 'N3w!pass' };
      expect((await resetWith({ mobile: uniqueMobile(), messageCode: code, ...body })).errorCode).toBe(
        'SE_504',
      );
      expect((await resetWith({ mobile, messageCode: code, ...body })).success).toBe(true);
      expect((await attempt(t.app, endpoints.userInfo, { token: oldSession })).errorCode).toBe('SE_501');
      expect(await signIn(t.app, mobile, 'N3w!pass')).toBeTruthy();
      expect((await resetWith({ mobile, messageCode: code, ...body })).errorCode).toBe('SE_504');
      expect(await logCodes(user.id)).toContain('USER07');
    });
  });

  describe('change of mobile or e-mail', () => {
    it('changes the caller number with a code sent to the new one', async () => {
      const user = await givenUser(t.database, { mobile: uniqueMobile() });
      const token = await signIn(t.app, user.email, user.password);
      const mobile = uniqueMobile();
      const sent = await attempt(t.app, endpoints.sendMobileChangeCode, { token, body: { mobile } });
      expect(sent.result).toEqual({ resendAfterSeconds: 60 });
      const code = gateway.lastCodeTo(mobile) ?? '';
      const changed = await attempt(t.app, endpoints.changeOwnMobile, {
        token,
        body: { mobile, messageCode: code },
      });
      expect(changed.success).toBe(true);
      expect((await call(t.app, endpoints.userInfo, { token })).mobile).toBe(mobile);
      expect(await logCodes(user.id)).toContain('USER08');
      expect(await signIn(t.app, mobile, user.password)).toBeTruthy();
    });

    it('refuses a number another account has (at the change: account-existence.test.ts), and a code asked for by someone else', async () => {
      const asker = await givenUser(t.database);
      const other = await givenUser(t.database);
      const askerToken = await signIn(t.app, asker.email, asker.password);
      const otherToken = await signIn(t.app, other.email, other.password);
      const mobile = uniqueMobile();
      await attempt(t.app, endpoints.sendMobileChangeCode, { token: askerToken, body: { mobile } });
      const code = gateway.lastCodeTo(mobile) ?? '';
      const stolen = await attempt(t.app, endpoints.changeOwnMobile, {
        token: otherToken,
        body: { mobile, messageCode: code },
      });
      expect(stolen.errorCode).toBe('SE_504');
      expect((await call(t.app, endpoints.userInfo, { token: otherToken })).mobile).toBeNull();
    });

    it('changes the e-mail address once the link mailed to the new one is opened', async () => {
      const user = await givenUser(t.database);
      const token = await signIn(t.app, user.email, user.password);
      const newEmail = `moved-${user.id}@example.org`;
      const asked = await attempt(t.app, endpoints.changeOwnEmail, { token, body: { email: newEmail } });
      expect(asked.success).toBe(true);
      expect((await call(t.app, endpoints.userInfo, { token })).email).toBe(user.email);

      const mail = await smtp.nextMailTo(newEmail);
      expect(mail.subject).toBe('【智能图档管理中台】确认新邮箱');
      expect(mail.text).toContain(newEmail);
      const linkToken = /\/login\/confirm-email\?token=([\w-]+)/.exec(mail.text)?.[1] ?? '';
      // The link works without a session, once.
      expect((await attempt(t.app, endpoints.confirmEmail, { body: { token: linkToken } })).success).toBe(
        true,
      );
      expect((await call(t.app, endpoints.userInfo, { token })).email).toBe(newEmail);
      expect(await logCodes(user.id)).toContain('USER09');
      expect((await attempt(t.app, endpoints.confirmEmail, { body: { token: linkToken } })).errorCode).toBe(
        'SE_400',
      );
    });

    it('refuses an address another account has, asked for or taken meanwhile', async () => {
      const other = await givenUser(t.database);
      const user = await givenUser(t.database);
      const token = await signIn(t.app, user.email, user.password);
      const taken = await attempt(t.app, endpoints.changeOwnEmail, {
        token,
        body: { email: other.email.toUpperCase() },
      });
      expect(taken.errorCode).toBe('SED_07');

      const wanted = `wanted-${user.id}@example.org`;
      await attempt(t.app, endpoints.changeOwnEmail, { token, body: { email: wanted } });
      const linkToken = /token=([\w-]+)/.exec((await smtp.nextMailTo(wanted)).text)?.[1] ?? '';
      await givenUser(t.database, { email: wanted });
      const refused = await attempt(t.app, endpoints.confirmEmail, { body: { token: linkToken } });
      expect(refused.errorCode).toBe('SED_07');
      expect((await call(t.app, endpoints.userInfo, { token })).email).toBe(user.email);
    });

    it('needs a signed-in caller', async () => {
      const refused = await attempt(t.app, endpoints.sendMobileChangeCode, {
        body: { mobile: uniqueMobile() },
      });
      expect(refused.errorCode).toBe('SE_501');
    });
  });
});
