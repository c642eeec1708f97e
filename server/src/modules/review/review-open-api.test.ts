import { endpoints, FunctionCode, type OpenAssetPage, type ReviewState } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/call';
import {
  givenDepartment,
  givenFile,
  givenFolder,
  givenSignedInUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createTestApiAccess, openCall } from '../../../test/open-client';
import { startWebhookReceiver, type TestWebhookReceiver } from '../../../test/peers/webhook-receiver';

const DEPT_SCOPES = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;

/**
 * Review seen from shop systems (issue 43 item 2): the open API lists a folder's approved files
 * only when asked (`reviewState=approved`), and a webhook listening for `asset.approved` is told of
 * an approval — and of nothing it may not see.
 */
describe('review in the open API and webhooks', { timeout: 60_000 }, () => {
  let t: TestApp;
  let admin: string;
  let receiver: TestWebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await createTestApp(
      { LOGIN_RATE_LIMIT: '1000', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32', WEBHOOK_TIMEOUT_MS: '2000' },
      { jobs: true, webhookRetry: { retryLimit: 0, retryDelaySeconds: 0, retryDelayMaxSeconds: 0 } },
    );
    admin = await signInAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const change = (
    token: string,
    itemId: number,
    action: 'request' | 'approve',
    expectedState: ReviewState,
    reviewerIds?: number[],
  ) =>
    call(t.app, endpoints.changeReview, {
      token,
      body: { itemId, action, expectedState, ...(reviewerIds ? { reviewerIds } : {}) },
    });

  it('lists only approved files to a shop asking so, and tells its webhook of the approval', async () => {
    const dept = await givenDepartment(t);
    const designer = await givenSignedInUser(t, { deptId: dept.id, scopes: DEPT_SCOPES });
    const approver = await givenSignedInUser(t, {
      deptId: dept.id,
      scopes: DEPT_SCOPES,
      functionCodes: [FunctionCode.review],
    });
    const folder = await givenFolder(t, designer.token);
    const hero = await givenFile(t, designer.token, {
      fileName: `${uniqueName('hero')}.txt`,
      folderId: folder.id,
    });
    const draft = await givenFile(t, designer.token, {
      fileName: `${uniqueName('draft')}.txt`,
      folderId: folder.id,
    });

    // The shop's record runs as a user who sees the department's files.
    const shopUser = await givenSignedInUser(t, { deptId: dept.id, scopes: { view: 'dept' } });
    const access = await createTestApiAccess(t, { userId: shopUser.id, calls: ['assets.byFolder'] });
    const path = `${endpoints.openAssetsByFolder.path}?folderId=${folder.id}&reviewState=approved`;
    const hook = `/${uniqueName('approved')}`;
    await call(t.app, endpoints.saveWebhook, {
      token: admin,
      body: { accessId: access.accessId, url: `${receiver.url}${hook}`, events: ['asset.approved'] },
    });

    const before = await openCall<OpenAssetPage>(t, access, 'GET', path);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.result.list).toEqual([]);

    await change(designer.token, hero.id, 'request', 'draft', [approver.id]);
    await change(approver.token, hero.id, 'approve', 'inReview');

    const after = await openCall<OpenAssetPage>(t, access, 'GET', path);
    expect(after.body.result.list.map((a) => [a.id, a.reviewState])).toEqual([[hero.id, 'approved']]);
    const all = await openCall<OpenAssetPage>(
      t,
      access,
      'GET',
      `${endpoints.openAssetsByFolder.path}?folderId=${folder.id}`,
    );
    expect(all.body.result.list.map((a) => a.id).sort()).toEqual([hero.id, draft.id].sort());
    const bad = await openCall(
      t,
      access,
      'GET',
      `${endpoints.openAssetsByFolder.path}?folderId=${folder.id}&reviewState=ok`,
    );
    expect(bad.status).toBe(400);

    // The dispatch pass reads the journal once every earlier transaction is visible: pass until told.
    for (const deadline = Date.now() + 25_000; receiver.to(hook).length === 0 && Date.now() < deadline; ) {
      await t.jobs?.webhookDispatchPass();
      if (receiver.to(hook).length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const told = receiver
      .to(hook)
      .map((r) => JSON.parse(r.body) as { type: string; data: { assetId: number; kinds: string[] } });
    expect(told.map((p) => [p.type, p.data.assetId])).toEqual([['asset.approved', hero.id]]);
    expect(told[0]?.data.kinds).toContain('approved');
  });
});
