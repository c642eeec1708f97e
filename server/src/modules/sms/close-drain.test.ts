import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt } from '../../../test/call';
import { givenUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { startSmtpServer, type TestSmtpServer } from '../../../test/peers/smtp';
import { holdAfterAnswerWork } from './after-answer';

/**
 * Issue 38 item 3: a reset link asked for just before a deploy still reaches its user. The
 * request counted its limits and answered; closing the app runs the work queued after the answer
 * (held here, so it cannot have run before the close) before the database goes.
 */
describe('closing the app', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(
      { SMTP_URL: smtp.url, PUBLIC_URL: 'http://dam.example.test', MAIL_FROM: 'DAM <dam@example.test>' },
      { jobs: true, keepDatabase: true },
    );
  });
  afterAll(async () => {
    await t.jobs?.stop();
    await t.database.close();
    await smtp.close();
  });

  it('mails a reset link queued after its answer before it closes', async () => {
    const user = await givenUser(t.database);
    const release = holdAfterAnswerWork();
    try {
      const asked = await attempt(t.app, endpoints.emailResetPassword, { body: { email: user.email } });
      expect(asked.success).toBe(true);
      await t.app.close();
      const written = await t.database.db
        .selectFrom('mails')
        .select(['purpose'])
        .where('recipient', '=', user.email)
        .execute();
      expect(written).toEqual([{ purpose: 'resetPassword' }]);
    } finally {
      release();
    }
    // The job queue outlives the app (main.ts stops it after the close): it delivers the mail.
    const received = await smtp.nextMailTo(user.email);
    expect(received.text).toContain('http://dam.example.test/login/reset-password?token=');
  });
});
