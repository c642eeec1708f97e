import { endpoints, FunctionCode, type LogEntry, OperationCode, type ReviewState } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import {
  givenDepartment,
  givenFile,
  givenSignedInUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { startSmtpServer, type TestSmtpServer } from '../../../test/peers/smtp';

/** Files seen and changed within one's own department only (a brand's usual role). */
const DEPT_SCOPES = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;
const APPROVE: FunctionCode[] = [FunctionCode.review];

/**
 * Review of files (issue 43 item 2): the permission matrix. A designer's file in department A;
 * an approver of A (code 11), a colleague of A without the code, and an approver of the sibling
 * department B. Each may do only what their right allows, a refused call changes nothing, and two
 * decisions at once leave one winner and a clear "already changed by" for the other.
 */
describe('review', { timeout: 60_000 }, () => {
  let t: TestApp;
  let admin: string;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'http://dam.example.test',
      LOGIN_RATE_LIMIT: '1000',
    });
    admin = await signInAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  async function givenStudio() {
    const [deptA, deptB] = [await givenDepartment(t), await givenDepartment(t)];
    const designer = await givenSignedInUser(t, { deptId: deptA.id, scopes: DEPT_SCOPES });
    const approver = await givenSignedInUser(t, {
      deptId: deptA.id,
      scopes: DEPT_SCOPES,
      functionCodes: APPROVE,
    });
    const colleague = await givenSignedInUser(t, { deptId: deptA.id, scopes: DEPT_SCOPES });
    const sibling = await givenSignedInUser(t, {
      deptId: deptB.id,
      scopes: DEPT_SCOPES,
      functionCodes: APPROVE,
    });
    const fileName = `${uniqueName('SS27-hero')}.txt`;
    const file = await givenFile(t, designer.token, { fileName });
    return { designer, approver, colleague, sibling, file, fileName };
  }

  const stateOf = (token: string, itemId: number) =>
    call(t.app, endpoints.reviewState, { token, query: { itemId } });
  const change = (
    token: string,
    itemId: number,
    action: 'request' | 'withdraw' | 'approve' | 'requestChanges' | 'archive' | 'reopen',
    expectedState: ReviewState,
    extra: { reviewerIds?: number[]; note?: string } = {},
  ) => attempt(t.app, endpoints.changeReview, { token, body: { itemId, action, expectedState, ...extra } });

  it('runs a review: request names approvers (mailed), the approver approves, the designer is told, all logged', async () => {
    const s = await givenStudio();
    const id = s.file.id;
    const before = await stateOf(s.designer.token, id);
    expect(before).toMatchObject({ state: 'draft', reviewers: [], history: [], actions: ['request'] });

    // Only approvers of the file are offered, and only they may be named.
    const offered = await call(t.app, endpoints.reviewerCandidates, {
      token: s.designer.token,
      query: { itemId: id },
    });
    expect(offered.map((p) => p.userId)).toContain(s.approver.id);
    expect(offered.map((p) => p.userId)).not.toContain(s.sibling.id);
    expect(offered.map((p) => p.userId)).not.toContain(s.colleague.id);
    for (const outsider of [s.sibling.id, s.colleague.id, 999_999_999]) {
      const refused = await change(s.designer.token, id, 'request', 'draft', { reviewerIds: [outsider] });
      expect(refused).toMatchObject({ status: 400, errorCode: 'SE_400' });
      expect(refused.errorDesc).toContain(String(outsider));
    }
    expect((await stateOf(s.designer.token, id)).state).toBe('draft');

    const requested = await change(s.designer.token, id, 'request', 'draft', {
      reviewerIds: [s.approver.id],
      note: 'Launch hero, please check the colour',
    });
    expect(requested.result).toMatchObject({ state: 'inReview', reviewers: [{ userId: s.approver.id }] });
    const asked = await smtp.nextMailTo(s.approver.email.toLowerCase());
    expect(asked.subject).toContain(s.fileName.replace(/\.txt$/, ''));
    expect(asked.text).toContain('http://dam.example.test/review');
    expect(asked.text).toContain('please check the colour');

    // The approver's "to review" list holds it; the designer's does not.
    const todo = await call(t.app, endpoints.reviewTodo, { token: s.approver.token, query: {} });
    expect(todo.list.map((e) => e.item.id)).toContain(id);
    expect(todo.list.find((e) => e.item.id === id)?.requestedBy?.userId).toBe(s.designer.id);
    expect((await call(t.app, endpoints.reviewTodo, { token: s.designer.token, query: {} })).total).toBe(0);
    expect((await stateOf(s.approver.token, id)).actions).toEqual([
      'withdraw',
      'approve',
      'requestChanges',
      'archive',
    ]);

    const approved = await change(s.approver.token, id, 'approve', 'inReview', { note: 'Good to go' });
    expect(approved.result).toMatchObject({ state: 'approved', changedBy: { userId: s.approver.id } });
    const told = await smtp.nextMailTo(s.designer.email.toLowerCase());
    expect(told.text).toContain('Good to go');
    expect((await stateOf(s.designer.token, id)).history.map((e) => [e.action, e.toState])).toEqual([
      ['approve', 'approved'],
      ['request', 'inReview'],
    ]);

    // Cards and listings carry the state; the filters find it.
    const search = await call(t.app, endpoints.search, {
      token: s.designer.token,
      body: { searchType: 1, query: s.fileName.replace(/\.txt$/, ''), reviewState: 'approved' },
    });
    expect(search.list.map((i) => [i.id, i.reviewState])).toEqual([[id, 'approved']]);
    const drafts = await call(t.app, endpoints.search, {
      token: s.designer.token,
      body: { searchType: 1, query: s.fileName.replace(/\.txt$/, ''), reviewState: 'draft' },
    });
    expect(drafts.list).toEqual([]);
    const listing = await call(t.app, endpoints.folderListing, {
      token: s.designer.token,
      query: { folderDataId: 'all', reviewState: 'approved', pageSize: 100 },
    });
    expect(listing.list.map((i) => i.id)).toContain(id);
    expect(listing.list.every((i) => i.reviewState === 'approved')).toBe(true);

    const logs = await call(t.app, endpoints.operationLog, {
      token: admin,
      body: { operatorCodes: [OperationCode.requestReview, OperationCode.approveFile], pageSize: 100 },
    });
    const mine = logs.list.filter((e: LogEntry) => e.itemIds.includes(id));
    expect(mine.map((e: LogEntry) => e.operatorCode).sort()).toEqual(['REV01', 'REV03']);
  });

  it('refuses what a right does not allow, across departments too, and a refused call changes nothing', async () => {
    const s = await givenStudio();
    const id = s.file.id;
    // The sibling department's approver does not learn the file exists.
    expect(
      await attempt(t.app, endpoints.reviewState, { token: s.sibling.token, query: { itemId: id } }),
    ).toMatchObject({
      status: 404,
      errorCode: 'SE_404',
    });
    expect(await change(s.sibling.token, id, 'archive', 'draft')).toMatchObject({ errorCode: 'SE_404' });
    expect(
      await attempt(t.app, endpoints.reviewerCandidates, { token: s.sibling.token, query: { itemId: id } }),
    ).toMatchObject({ errorCode: 'SE_404' });
    await change(s.designer.token, id, 'request', 'draft', { reviewerIds: [s.approver.id] });
    // A colleague without the code may not approve; the designer neither (no code).
    expect(await change(s.colleague.token, id, 'approve', 'inReview')).toMatchObject({
      status: 403,
      errorCode: 'SE_502',
    });
    expect(await change(s.designer.token, id, 'approve', 'inReview')).toMatchObject({ errorCode: 'SE_502' });
    // An approver asking for what the state does not allow.
    expect(await change(s.approver.token, id, 'reopen', 'inReview')).toMatchObject({
      status: 409,
      errorCode: 'SERV_02',
    });
    const after = await stateOf(s.designer.token, id);
    expect(after.state).toBe('inReview');
    expect(after.history).toHaveLength(1);
    // Folders have no review.
    const folder = await call(t.app, endpoints.createFolder, {
      token: s.designer.token,
      body: { folderName: uniqueName('F') },
    });
    expect(
      await change(s.designer.token, folder.folderId, 'request', 'draft', { reviewerIds: [s.approver.id] }),
    ).toMatchObject({
      errorCode: 'SE_400',
    });
  });

  it('settles two decisions at once: one wins, the other is told who changed it; a repeat is idempotent', async () => {
    const s = await givenStudio();
    const id = s.file.id;
    const second = await givenSignedInUser(t, {
      deptId: (
        await t.database.db
          .selectFrom('users')
          .select('dept_id')
          .where('id', '=', s.approver.id)
          .executeTakeFirstOrThrow()
      ).dept_id,
      scopes: DEPT_SCOPES,
      functionCodes: APPROVE,
    });
    await change(s.designer.token, id, 'request', 'draft', { reviewerIds: [s.approver.id, second.id] });
    const [a, b] = await Promise.all([
      change(s.approver.token, id, 'approve', 'inReview'),
      change(second.token, id, 'requestChanges', 'inReview', { note: 'too dark' }),
    ]);
    const answers = [a, b];
    const won = answers.filter((x) => x.status === 200);
    const lost = answers.filter((x) => x.status !== 200);
    expect(won).toHaveLength(1);
    expect(lost[0]).toMatchObject({ status: 409, errorCode: 'SERV_01' });
    const winner = won[0]?.result as { changedBy: { name: string } } | undefined;
    const winnerName = winner?.changedBy.name ?? '';
    expect(lost[0]?.errorDesc).toContain(winnerName);
    const final = await stateOf(s.designer.token, id);
    expect(final.history).toHaveLength(2);

    // The winner's call sent again answers the same and records nothing more.
    const winnerToken = a.status === 200 ? s.approver.token : second.token;
    const winnerAction = a.status === 200 ? 'approve' : 'requestChanges';
    const repeated = await change(winnerToken, id, winnerAction, 'inReview');
    expect(repeated.status).toBe(200);
    expect((await stateOf(s.designer.token, id)).history).toHaveLength(2);
  });

  it('sends an approved file back to review when a new version arrives, mailing its reviewers', async () => {
    const s = await givenStudio();
    const id = s.file.id;
    await change(s.designer.token, id, 'request', 'draft', { reviewerIds: [s.approver.id] });
    await smtp.nextMailTo(s.approver.email.toLowerCase());
    await change(s.approver.token, id, 'approve', 'inReview');
    // The same name in the same folder by its owner: a new version of the file.
    const again = await givenFile(t, s.designer.token, {
      fileName: s.fileName,
      bytes: Buffer.from('version two'),
    });
    expect(again.id).toBe(id);
    const after = await stateOf(s.designer.token, id);
    expect(after.state).toBe('inReview');
    expect(after.history[0]).toMatchObject({
      action: 'newVersion',
      fromState: 'approved',
      toState: 'inReview',
    });
    const asked = await smtp.nextMailTo(s.approver.email.toLowerCase());
    expect(asked.subject).toContain(s.fileName.replace(/\.txt$/, ''));
    // The approver's list has it again.
    const todo = await call(t.app, endpoints.reviewTodo, { token: s.approver.token, query: {} });
    expect(todo.list.map((e) => e.item.id)).toContain(id);

    // Another version while in review: the reviewers are told again, the state stays.
    await givenFile(t, s.designer.token, { fileName: s.fileName, bytes: Buffer.from('version three') });
    const third = await stateOf(s.designer.token, id);
    expect(third.state).toBe('inReview');
    expect(third.history[0]).toMatchObject({ action: 'newVersion', fromState: 'inReview' });
    await smtp.nextMailTo(s.approver.email.toLowerCase());
    // The designer's "request" sent on the state seen before the upload is not taken for a repeat.
    const stale = await change(s.designer.token, id, 'request', 'approved', { reviewerIds: [s.approver.id] });
    expect(stale).toMatchObject({ status: 409, errorCode: 'SERV_01' });
  });
});
