import { endpoints, SmsPurpose } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import { givenUser, uniqueMobile } from '../../../test/factories';
import { createTestApp, signIn, type TestApp } from '../../../test/harness';
import { startSmsGateway, type TestSmsGateway } from '../../../test/peers/sms-gateway';
import { startSmtpServer, type TestSmtpServer } from '../../../test/peers/smtp';
import { afterAnswerWorkSettled, holdAfterAnswerWork } from '../sms/after-answer';

const MINUTE = 60_000;

/**
 * Issue 38 item 3: a stranger's calls naming an account that exists and one that does not get the
 * same answers, meet the same limits and make the request do the same database work; only the
 * peers (SMS gateway, SMTP server) hear of the account that exists. Time itself is measured by
 * bench/account-existence.ts; here the work is compared, so nothing can flake.
 */
describe('answers never tell whether an account exists', () => {
  let t: TestApp;
  let gateway: TestSmsGateway;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    [gateway, smtp] = await Promise.all([startSmsGateway(), startSmtpServer()]);
    t = await createTestApp({
      LOGIN_RATE_LIMIT: '1000',
      PUBLIC_URL: 'http://dam.example.test',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'DAM <dam@example.test>',
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: `${gateway.url}/send?to={mobile}`,
      SMS_HTTP_BODY: '{"phone":"{mobile}","text":"{code}"}',
      SMS_HTTP_OK_PATTERN: '"code":"OK"',
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([gateway.close(), smtp.close()]);
  });
  afterEach(async () => {
    await afterAnswerWorkSettled();
    gateway.answer(200);
    // Every sequence starts in a fresh hour: the hourly windows of every limit start afresh.
    t.clock.advance(61 * MINUTE);
  });

  /** What a caller sees of an answer: status, envelope, code, message and result. */
  const seen = async (answer: ReturnType<typeof attempt>) => {
    const { status, success, errorCode, errorDesc, result } = await answer;
    return { status, success, errorCode, errorDesc, result };
  };

  const rowCounts = async () => {
    const { rows } = await sql<Record<string, string | number>>`
      SELECT (SELECT count(*) FROM sms_codes) AS sms_codes,
             (SELECT count(*) FROM account_tokens) AS account_tokens,
             (SELECT count(*) FROM mails) AS mails`.execute(t.database.db);
    return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([table, n]) => [table, Number(n)]));
  };

  /**
   * The limit counters naming `identifier` (the identifier written as <id>) and the client's, of
   * the current hour (counting their rows would count the limiter's sweeps of old windows too).
   */
  const countersOf = async (identifier: string) => {
    const rows = await t.database.db
      .selectFrom('rate_limit_counters')
      .select(['key', 'count'])
      .where((eb) => eb.or([eb('key', 'like', `%:${identifier}`), eb('key', 'like', '%-ip:%')]))
      .where('window_start', '>', new Date(t.clock.now().getTime() - 60 * MINUTE))
      .orderBy('key')
      .execute();
    return rows.map((row) => `${row.key.replace(identifier, '<id>')}=${row.count}`);
  };

  /**
   * Runs `sequence` for an identifier with the work that follows answers held back, and answers
   * what the caller saw and what the requests wrote (rows added per table, limit counters, and
   * the identifier's SMS code rows as far as they are not the code itself).
   */
  const footprintOf = async (identifier: string, sequence: () => Promise<unknown[]>) => {
    t.clock.advance(61 * MINUTE);
    const before = await rowCounts();
    const release = holdAfterAnswerWork();
    try {
      const answers = await sequence();
      const after = await rowCounts();
      const added = Object.fromEntries(
        Object.entries(after).map(([table, n]) => [table, n - (before[table] ?? 0)]),
      );
      const codes = await t.database.db
        .selectFrom('sms_codes')
        .select(['purpose', 'user_id', 'failed_attempts', 'created_at', 'expires_at'])
        .where('mobile', '=', identifier)
        .orderBy('purpose')
        .execute();
      return { answers, added, counters: await countersOf(identifier), codes };
    } finally {
      release();
      await afterAnswerWorkSettled();
    }
  };

  const sentTo = (mobile: string) => gateway.requests.filter((r) => r.url.includes(mobile)).length;

  describe('send-code', () => {
    const sendCode = (mobile: string, purpose: SmsPurpose) =>
      seen(attempt(t.app, endpoints.sendSignInCode, { body: { mobile, purpose }, lang: 'en' }));

    for (const purpose of [SmsPurpose.signIn, SmsPurpose.resetPassword]) {
      it(`answers and counts a number with an account as one without (${purpose}); only its code is sent`, async () => {
        const known = uniqueMobile();
        await givenUser(t.database, { mobile: known });
        const unknown = uniqueMobile();
        // Asked, asked again within the minute, and asked once the minute is over.
        const sequence = (mobile: string) => async () => [
          await sendCode(mobile, purpose),
          await sendCode(mobile, purpose),
          await (async () => {
            t.clock.advance(MINUTE);
            return sendCode(mobile, purpose);
          })(),
        ];
        const ofKnown = await footprintOf(known, sequence(known));
        const ofUnknown = await footprintOf(unknown, sequence(unknown));

        expect(ofKnown.answers.map((a) => (a as { errorCode: string | null }).errorCode)).toEqual([
          null,
          'SE_429',
          null,
        ]);
        expect(ofUnknown.answers).toEqual(ofKnown.answers);
        expect(ofUnknown.added).toEqual(ofKnown.added);
        expect(ofUnknown.counters).toEqual(ofKnown.counters);
        expect(ofUnknown.codes.map(({ created_at, expires_at, ...rest }) => rest)).toEqual(
          ofKnown.codes.map(({ created_at, expires_at, ...rest }) => rest),
        );
        expect(ofKnown.codes).toHaveLength(1);
        expect(sentTo(known)).toBe(2);
        expect(sentTo(unknown)).toBe(0);
      });
    }

    it('answers alike when the gateway fails, and the number waits its minute either way', async () => {
      const known = uniqueMobile();
      await givenUser(t.database, { mobile: known });
      const unknown = uniqueMobile();
      gateway.answer(500, 'down');
      const sequence = (mobile: string) => async () => [
        await sendCode(mobile, SmsPurpose.signIn),
        await sendCode(mobile, SmsPurpose.signIn),
      ];
      const ofKnown = await footprintOf(known, sequence(known));
      const ofUnknown = await footprintOf(unknown, sequence(unknown));
      expect(ofKnown.answers.map((a) => (a as { status: number }).status)).toEqual([200, 429]);
      expect(ofUnknown.answers).toEqual(ofKnown.answers);
      expect(ofUnknown.added).toEqual(ofKnown.added);
      // The gateway was asked (and failed) for the known number only.
      expect(sentTo(known)).toBe(1);
      expect(sentTo(unknown)).toBe(0);
    });
  });

  describe('email-reset-pwd', () => {
    const askReset = (email: string) =>
      seen(attempt(t.app, endpoints.emailResetPassword, { body: { email }, lang: 'en' }));

    it('answers, counts and writes alike for an address with an account and one without; only the account is mailed', async () => {
      const user = await givenUser(t.database);
      const unknown = `nobody-${user.id}@example.com`;
      // Five an hour per address asked for, then SE_429.
      const sequence = (email: string) => async () => {
        const answers = [];
        for (let i = 0; i < 6; i++) answers.push(await askReset(email));
        return answers;
      };
      const ofKnown = await footprintOf(user.email, sequence(user.email));
      const ofUnknown = await footprintOf(unknown, sequence(unknown));

      expect(ofKnown.answers.map((a) => (a as { status: number }).status)).toEqual([
        200, 200, 200, 200, 200, 429,
      ]);
      expect(ofUnknown.answers).toEqual(ofKnown.answers);
      // Before the answers went, the requests wrote the same: counters only, no link, no mail.
      expect(ofUnknown.added).toEqual(ofKnown.added);
      expect(ofKnown.added).toMatchObject({ account_tokens: 0, mails: 0 });
      expect(ofUnknown.counters).toEqual(ofKnown.counters);

      // Afterwards the account got its five mails (only the newest link works), the stranger none.
      for (let i = 0; i < 5; i++) await smtp.nextMailTo(user.email);
      const mailsTo = (recipient: string) =>
        t.database.db.selectFrom('mails').select('id').where('recipient', '=', recipient).execute();
      expect(await mailsTo(user.email)).toHaveLength(5);
      expect(await mailsTo(unknown)).toEqual([]);
      expect(smtp.received.filter((mail) => mail.to.includes(unknown))).toEqual([]);
    });
  });

  describe('send-mobile-code', () => {
    it('answers a number another account has as a free one; the change itself says SED_08', async () => {
      const taken = uniqueMobile();
      await givenUser(t.database, { mobile: taken });
      const free = uniqueMobile();
      const asker = await givenUser(t.database);
      const token = await signIn(t.app, asker.email, asker.password);
      const askFor = (mobile: string) => async () => [
        await seen(attempt(t.app, endpoints.sendMobileChangeCode, { token, body: { mobile }, lang: 'en' })),
        await seen(attempt(t.app, endpoints.sendMobileChangeCode, { token, body: { mobile }, lang: 'en' })),
      ];
      // Only whoever holds the taken number's code learns that it is taken, at the change.
      const change = (mobile: string) =>
        attempt(t.app, endpoints.changeOwnMobile, {
          token,
          body: { mobile, messageCode: gateway.lastCodeTo(mobile) ?? '' },
        });
      const ofTaken = await footprintOf(taken, askFor(taken));
      expect((await change(taken)).errorCode).toBe('SED_08');
      const ofFree = await footprintOf(free, askFor(free));
      expect((await change(free)).success).toBe(true);
      expect(ofTaken.answers.map((a) => (a as { status: number }).status)).toEqual([200, 429]);
      expect(ofFree.answers).toEqual(ofTaken.answers);
      expect(ofFree.added).toEqual(ofTaken.added);
      expect(ofFree.counters).toEqual(ofTaken.counters);
      expect((await call(t.app, endpoints.userInfo, { token })).mobile).toBe(free);
    });
  });
});
