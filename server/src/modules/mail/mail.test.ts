import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import { givenUser } from '../../../test/factories';
import { createTestApp, signIn, type TestApp } from '../../../test/harness';
import { startSmtpServer, type TestSmtpServer } from '../../../test/peers/smtp';
import { afterAnswerWorkSettled } from '../sms/after-answer';
import { createMailTransport } from './transport';

/** The mail job: the outbox delivered through the job queue to a real SMTP server, with retries. */
describe('mail delivery', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    // Two attempts, straight one after the other: the retry is the queue's own, not a sleep.
    t = await createTestApp(
      { SMTP_URL: smtp.url, PUBLIC_URL: 'http://dam.example.test', MAIL_FROM: 'DAM <dam@example.test>' },
      { jobs: true, mailRetry: { retryLimit: 1, retryDelaySeconds: 0 } },
    );
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  // A reset link's mail is written after the request's answer (issue 38): wait for that first.
  const mailTo = async (recipient: string) => {
    await afterAnswerWorkSettled();
    return t.database.db
      .selectFrom('mails')
      .selectAll()
      .where('recipient', '=', recipient)
      .executeTakeFirstOrThrow();
  };

  it('sends a queued mail and marks it sent', async () => {
    const user = await givenUser(t.database);
    await attempt(t.app, endpoints.emailResetPassword, { body: { email: user.email } });
    const received = await smtp.nextMailTo(user.email);
    expect(received.subject).toBe('【智能图档管理中台】重置密码');
    const queued = await mailTo(user.email);
    await t.jobs?.mailDone(queued.id);
    expect(await mailTo(user.email)).toMatchObject({
      purpose: 'resetPassword',
      state: 'sent',
      attempts: 1,
      last_error: null,
      language: 'zh',
    });
  });

  it('retries while the SMTP server refuses, then leaves the mail failed; the reset link stays', async () => {
    const user = await givenUser(t.database);
    smtp.refuseAll(true);
    try {
      const asked = await attempt(t.app, endpoints.emailResetPassword, { body: { email: user.email } });
      expect(asked.success).toBe(true);
      const queued = await mailTo(user.email);
      await t.jobs?.mailDone(queued.id);
      const failed = await mailTo(user.email);
      expect(failed.state).toBe('failed');
      expect(failed.attempts).toBe(2);
      expect(failed.last_error).toMatch(/421|not available/i);
      const tokens = await t.database.db
        .selectFrom('account_tokens')
        .select('used_at')
        .where('user_id', '=', user.id)
        .execute();
      expect(tokens).toEqual([{ used_at: null }]);
    } finally {
      smtp.refuseAll(false);
    }
  });
});

describe('mail the sender follows', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(
      { SMTP_URL: smtp.url },
      { jobs: true, mailRetry: { retryLimit: 1, retryDelaySeconds: 0 } },
    );
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('shows its sender that a mail was sent, or failed with the server answer, and nobody else', async () => {
    const sender = await givenUser(t.database);
    const token = await signIn(t.app, sender.email, sender.password);
    const first = await call(t.app, endpoints.changeOwnEmail, {
      token,
      body: { email: `new-${sender.id}@example.org` },
    });
    await t.jobs?.mailDone(first.mailId);
    const sent = await call(t.app, endpoints.mailStatus, { token, query: { id: first.mailId } });
    expect(sent).toMatchObject({ id: first.mailId, state: 'sent', attempts: 1, lastError: null });
    expect(sent.sentAt).not.toBeNull();

    smtp.refuseAll(true);
    try {
      const second = await call(t.app, endpoints.changeOwnEmail, {
        token,
        body: { email: `other-${sender.id}@example.org` },
      });
      await t.jobs?.mailDone(second.mailId);
      const failed = await call(t.app, endpoints.mailStatus, { token, query: { id: second.mailId } });
      expect(failed).toMatchObject({ state: 'failed', attempts: 2, sentAt: null });
      expect(failed.lastError).toMatch(/421|not available/i);
    } finally {
      smtp.refuseAll(false);
    }

    const stranger = await givenUser(t.database);
    const strangerToken = await signIn(t.app, stranger.email, stranger.password);
    const refused = await attempt(t.app, endpoints.mailStatus, {
      token: strangerToken,
      query: { id: first.mailId },
    });
    expect(refused.errorCode).toBe('SE_404');
  });
});

describe('mail without SMTP_URL', () => {
  it('writes each mail to the log, having said so once', async () => {
    const lines: Array<{ details: Record<string, unknown>; message: string }> = [];
    const transport = createMailTransport(
      { smtpUrl: undefined, from: 'DAM <dam@example.test>' },
      (details, message) => lines.push({ details, message }),
    );
    expect(transport.kind).toBe('log');
    expect(lines.map((l) => l.message)).toEqual([
      'SMTP_URL is not set: mails are written to this log instead of being sent',
    ]);
    await transport.send({ to: 'a@example.com', subject: 'Hello', text: 'Body', html: '<p>Body</p>' });
    await transport.send({ to: 'b@example.com', subject: 'Again', text: 'Body', html: '<p>Body</p>' });
    expect(lines).toHaveLength(3);
    expect(lines[1]?.details).toMatchObject({
      mail: { to: 'a@example.com', subject: 'Hello', text: 'Body' },
    });
  });
});
