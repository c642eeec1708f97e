import { endpoints, type MailNoticeRequest } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import {
  EVERY_SCOPE,
  givenDepartment,
  givenSignedInUser,
  givenUser,
  signInAdmin,
  uniqueName,
  uploadFiles,
} from '../../../test/factories';
import { makeJpeg } from '../../../test/fixtures';
import { createTestApp, type TestApp } from '../../../test/harness';
import { startSmtpServer, type TestSmtpServer } from '../../../test/peers/smtp';

const HOUR_MS = 3_600_000;
const DEPT_SCOPES = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;

/**
 * Upload mail notices (issue 14): asked for with the batch number, mailed through the real queue
 * to a real SMTP server once the batch has finished and the delay has passed (the test's clock),
 * to exactly the group members and users, each once.
 */
describe('upload mail notices', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(
      { SMTP_URL: smtp.url, PUBLIC_URL: 'http://dam.example.test', LOGIN_RATE_LIMIT: '1000' },
      { jobs: true, mailRetry: { retryLimit: 1, retryDelaySeconds: 0 } },
    );
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const address = (name: string) => `${uniqueName(name).toLowerCase()}@example.com`;

  /** A team: a department with an uploader (files of the department) and colleagues. */
  async function givenTeam() {
    const dept = await givenDepartment(t);
    const sender = await givenSignedInUser(t, { deptId: dept.id, scopes: DEPT_SCOPES });
    const colleague = await givenUser(t.database, { deptId: dept.id, email: address('colleague') });
    const inGroupToo = await givenUser(t.database, { deptId: dept.id, email: address('both') });
    const groupOnly = await givenUser(t.database, { deptId: dept.id, email: address('member') });
    const outside = address('agency');
    // Signed in afresh: the tests move the clock on by days.
    const group = await call(t.app, endpoints.createMailGroup, {
      token: await signInAdmin(t),
      body: {
        mailGroupName: uniqueName('N').slice(0, 20),
        userIdList: [inGroupToo.id, groupOnly.id],
        // Given in capitals: the group keeps addresses in lower case.
        externalEmails: [outside.toUpperCase()],
      },
    });
    return { dept, sender, colleague, inGroupToo, groupOnly, outside, group };
  }

  /** Uploads two pictures and asks for their notice before the bytes go; waits for the thumbnails. */
  async function uploadWithNotice(token: string, notice: Omit<MailNoticeRequest, 'batchNum'>) {
    let batchNum = '';
    const ids = await uploadFiles(
      t,
      token,
      [
        { fileName: `${uniqueName('LOOK')}.jpg`, bytes: await makeJpeg(640, 480) },
        { fileName: `${uniqueName('SOLE')}.jpg`, bytes: await makeJpeg(480, 640) },
      ],
      { path: '/' },
      async (batch) => {
        batchNum = batch;
        await call(t.app, endpoints.mailNotice, { token, body: { batchNum, ...notice } });
      },
    );
    for (const id of ids) await t.jobs?.mediaDone(id);
    return { batchNum, uploadIds: ids };
  }

  const noticeOf = async (token: string, batchNum: string) => {
    const records = await call(t.app, endpoints.finishedUploads, {
      token,
      query: { pageNo: 1, pageSize: 50 },
    });
    return records.list.find((r) => r.batchNum === batchNum)?.mailNotice;
  };
  const mailsOf = (batchMarker: string) => smtp.received.filter((m) => m.text.includes(batchMarker));

  it('mails the group members, its outside address and the chosen users once each, after the delay', async () => {
    const team = await givenTeam();
    const marker = uniqueName('新品到货');
    const { batchNum } = await uploadWithNotice(team.sender.token, {
      mailGroupIdList: [team.group.id],
      userIdList: [team.colleague.id, team.inGroupToo.id],
      mailContent: `${marker}\n请查看`,
      mailRemark: '周五前确认',
      noticeTime: 2,
    });

    // Finished, but the two hours have not passed: nothing goes, and the record says when it will.
    await t.jobs?.mailNoticePass();
    expect(mailsOf(marker)).toHaveLength(0);
    const waiting = await noticeOf(team.sender.token, batchNum);
    expect(waiting).toMatchObject({ state: 'scheduled', delayHours: 2 });
    const due = new Date(waiting?.dueAt ?? 0).getTime();
    expect(due - t.clock.now().getTime()).toBe(2 * HOUR_MS);

    t.clock.advance(2 * HOUR_MS - 1000);
    await t.jobs?.mailNoticePass();
    expect(mailsOf(marker)).toHaveLength(0);

    t.clock.advance(1000);
    await t.jobs?.mailNoticePass();
    const expected = [team.colleague.email, team.inGroupToo.email, team.groupOnly.email, team.outside].map(
      (a) => a.toLowerCase(),
    );
    const received = await Promise.all(expected.map((to) => smtp.nextMailTo(to)));
    // Exactly those four, once each: the user in the group and among the chosen is mailed once.
    expect(
      mailsOf(marker)
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual([...expected].sort());

    const toColleague = received[0];
    expect(toColleague?.subject).toMatch(/^【智能图档管理中台】Test User \d+ 上传了 2 个文件$/);
    expect(toColleague?.text).toContain('周五前确认');
    // The thumbnails travel inside the mail, shown by cid:, as JPEG pictures.
    const pictures = toColleague?.parsed.attachments ?? [];
    expect(pictures).toHaveLength(2);
    for (const picture of pictures) {
      expect(picture.contentType).toBe('image/jpeg');
      // Inline parts the HTML refers to (mailparser puts them into the HTML it answers).
      expect(picture.related).toBe(true);
      expect(picture.cid).toMatch(/^file-\d+@notice$/);
      expect((await sharp(picture.content).metadata()).format).toBe('jpeg');
    }
    // People of the company get the folder in the app; an outside address does not.
    expect(toColleague?.text).toContain('http://dam.example.test/allfiles/');
    const toAgency = received[3];
    expect(toAgency?.text).not.toContain('/allfiles/');
    expect(toAgency?.text).toContain('您好：');

    // Each file name links to its picture: signed, no sign-in needed, refused once tampered with.
    const link = /http:\/\/dam\.example\.test(\/ske-api\/v1_0\/media\/mail-notice\?token=\S+)/.exec(
      toAgency?.text ?? '',
    )?.[1];
    expect(link).toBeDefined();
    const picture = await t.app.inject({ method: 'GET', url: link as string });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(picture.rawPayload).metadata()).format).toBe('jpeg');
    const tampered = await t.app.inject({ method: 'GET', url: `${link}x` });
    expect(tampered.statusCode).not.toBe(200);

    // Another pass sends nothing more; the record shows the notice sent.
    await t.jobs?.mailNoticePass();
    expect(mailsOf(marker)).toHaveLength(4);
    const mailIds = await t.database.db
      .selectFrom('mail_notices')
      .select('mail_ids')
      .where('batch_num', '=', batchNum)
      .executeTakeFirstOrThrow();
    for (const id of mailIds.mail_ids) await t.jobs?.mailDone(id);
    expect(await noticeOf(team.sender.token, batchNum)).toMatchObject({
      state: 'sent',
      recipients: 4,
      sent: 4,
      failed: 0,
    });
  });

  it('waits while a file of the batch is still uploading', async () => {
    const team = await givenTeam();
    const records = await call(t.app, endpoints.createUploads, {
      token: team.sender.token,
      body: {
        path: '/',
        uploadDetailDTOS: [{ fileName: `${uniqueName('WAIT')}.txt`, fileSize: 5, path: '' }],
      },
    });
    const batchNum = records[0]?.batchNum as string;
    const marker = uniqueName('still-uploading');
    await call(t.app, endpoints.mailNotice, {
      token: team.sender.token,
      body: { batchNum, userIdList: [team.colleague.id], mailContent: marker, noticeTime: 0 },
    });
    t.clock.advance(48 * HOUR_MS);
    await t.jobs?.mailNoticePass();
    expect(mailsOf(marker)).toHaveLength(0);
    const notice = await t.database.db
      .selectFrom('mail_notices')
      .select('state')
      .where('batch_num', '=', batchNum)
      .executeTakeFirstOrThrow();
    expect(notice.state).toBe('scheduled');
  });

  it('refuses a notice with no recipient, a bad delay, another user’s batch or a group or user out of reach', async () => {
    const team = await givenTeam();
    let batchNum = '';
    await uploadFiles(
      t,
      team.sender.token,
      [{ fileName: `${uniqueName('BAD')}.txt`, bytes: Buffer.from('x') }],
      {
        path: '/',
      },
      async (batch) => {
        batchNum = batch;
      },
    );
    const ask = (body: Record<string, unknown>, token = team.sender.token) =>
      attempt(t.app, endpoints.mailNotice, { token, lang: 'en', body: { batchNum, ...body } as never });

    const none = await ask({ noticeTime: 0 });
    expect(none).toMatchObject({ status: 400, errorCode: 'SE_400' });
    expect(none.errorDesc).toContain('choose at least one mail group or user');
    for (const noticeTime of [-1, 1.5, '2']) {
      const bad = await ask({ userIdList: [team.colleague.id], noticeTime });
      expect(bad.errorCode).toBe('SE_400');
      expect(bad.errorDesc).toContain('must be a whole number of hours, 0 or more');
    }
    // Another user's batch is not revealed.
    const stranger = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    expect(await ask({ userIdList: [team.colleague.id], noticeTime: 0 }, stranger.token)).toMatchObject({
      status: 404,
      errorCode: 'SE_404',
    });
    // A group of another department line, and a user there.
    const elsewhere = await givenDepartment(t);
    const otherAdmin = await givenSignedInUser(t, {
      deptId: elsewhere.id,
      scopes: DEPT_SCOPES,
      functionCodes: [1],
    });
    const otherUser = await givenUser(t.database, { deptId: elsewhere.id });
    const otherGroup = await call(t.app, endpoints.createMailGroup, {
      token: otherAdmin.token,
      body: { mailGroupName: uniqueName('X').slice(0, 20), userIdList: [otherUser.id] },
    });
    const group = await ask({ mailGroupIdList: [otherGroup.id], noticeTime: 0 });
    expect(group.errorDesc).toContain(`mail group ${otherGroup.id} does not exist or is not yours to use`);
    const user = await ask({ userIdList: [otherUser.id], noticeTime: 0 });
    expect(user.errorDesc).toContain(`user ${otherUser.id} does not exist`);
    // The picker offers the sender's own department, not the other one.
    const offered = await call(t.app, endpoints.mailNoticeRecipients, {
      token: team.sender.token,
      query: {},
    });
    expect(offered.map((u) => u.userId)).toEqual(expect.arrayContaining([team.colleague.id]));
    expect(offered.map((u) => u.userId)).not.toContain(otherUser.id);

    const written = await t.database.db
      .selectFrom('mail_notices')
      .select('id')
      .where('batch_num', '=', batchNum)
      .execute();
    expect(written).toEqual([]);
  });

  it('replaces a scheduled notice when asked again, and refuses to change one already sent', async () => {
    const team = await givenTeam();
    const marker = uniqueName('second-thoughts');
    const { batchNum } = await uploadWithNotice(team.sender.token, {
      userIdList: [team.colleague.id],
      mailContent: 'first words',
      noticeTime: 5,
    });
    await call(t.app, endpoints.mailNotice, {
      token: team.sender.token,
      body: { batchNum, userIdList: [team.groupOnly.id], mailContent: marker, noticeTime: 0 },
    });
    await t.jobs?.mailNoticePass();
    const mail = await smtp.nextMailTo(team.groupOnly.email.toLowerCase());
    expect(mail.text).toContain(marker);
    expect(mailsOf(marker).flatMap((m) => m.to)).toEqual([team.groupOnly.email.toLowerCase()]);
    expect(smtp.received.some((m) => m.text.includes('first words'))).toBe(false);

    const again = await attempt(t.app, endpoints.mailNotice, {
      token: team.sender.token,
      lang: 'en',
      body: { batchNum, userIdList: [team.colleague.id], noticeTime: 0 },
    });
    expect(again).toMatchObject({ status: 400, errorCode: 'SE_400' });
  });

  it('leaves the notice failed with the server’s answer when SMTP refuses; the upload stands', async () => {
    const team = await givenTeam();
    const marker = uniqueName('smtp-down');
    const { batchNum, uploadIds } = await uploadWithNotice(team.sender.token, {
      userIdList: [team.colleague.id],
      mailContent: marker,
      noticeTime: 0,
    });
    smtp.refuseAll(true);
    try {
      await t.jobs?.mailNoticePass();
      const notice = await t.database.db
        .selectFrom('mail_notices')
        .select('mail_ids')
        .where('batch_num', '=', batchNum)
        .executeTakeFirstOrThrow();
      expect(notice.mail_ids).toHaveLength(1);
      await t.jobs?.mailDone(notice.mail_ids[0] as number);
    } finally {
      smtp.refuseAll(false);
    }
    const summary = await noticeOf(team.sender.token, batchNum);
    expect(summary).toMatchObject({ state: 'failed', failed: 1, sent: 0 });
    expect(summary?.lastError).toMatch(/421|not available/i);
    const records = await call(t.app, endpoints.finishedUploads, {
      token: team.sender.token,
      query: { pageNo: 1, pageSize: 50 },
    });
    expect(records.list.filter((r) => uploadIds.includes(r.id)).map((r) => r.status)).toEqual([2, 2]);
  });
});
