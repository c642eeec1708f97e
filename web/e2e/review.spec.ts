import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { makeJpeg } from '../../server/test/fixtures';
import { signOpenRequest } from '../../server/test/open-signing';
import { expectAccessible } from './axe';
import { COLLEAGUE_PASSWORD, givenColleague } from './colleagues';
import { PEERS_URL, WEBHOOK_RECEIVER_URL } from './peer-ports';
import {
  ADMIN,
  apiToken,
  chooseOption,
  itemCard,
  lastMailTo,
  newFolderWithFiles,
  signIn,
  snapBothSizes,
} from './support';

/**
 * Issue 43 item 2: a designer asks the administrator (an approver of every department) to review a
 * picture; the reviewer, mailed, finds it under "to review" and asks for changes with a note; the
 * designer uploads a new version and asks again; the reviewer approves. The card shows the state,
 * a shop system's open API lists the picture as approved, and its webhook is told.
 */
const WORDS = {
  zh: {
    draft: '草稿',
    inReview: '审核中',
    changes: '需修改',
    approved: '已通过',
    tab: '待我审核',
    reviewer: /^管理员/,
  },
  en: {
    draft: 'Draft',
    inReview: 'In review',
    changes: 'Changes requested',
    approved: 'Approved',
    tab: 'To review',
    reviewer: /^管理员/,
  },
} as const;

/** A shop system: an enterprise allowed `assets.byFolder`, an access record run as the administrator, a webhook on approvals. */
async function givenShop(request: APIRequestContext, token: string, stamp: string) {
  const post = async (path: string, data: unknown) => {
    const body = await (await request.post(path, { headers: { token }, data })).json();
    expect(body.success, `${path}: ${JSON.stringify(body)}`).toBe(true);
    return body.result;
  };
  const enterpriseId = `shop${stamp}`;
  await post('/ske-api/open/updateEnterpriseId', { enterpriseId, name: enterpriseId });
  await post('/ske-api/open/updateOpenApiToEnterpriseId', { enterpriseId, apiCodes: ['assets.byFolder'] });
  const access = await post('/ske-api/open/addOpenApi', {
    name: `Shop ${stamp}`,
    description: 'Takes approved pictures',
    enterpriseId,
    userMail: ADMIN.email,
  });
  const hookPath = `/approved-${stamp}`;
  await post('/ske-api/open/saveWebhook', {
    accessId: access.id,
    url: `${WEBHOOK_RECEIVER_URL}${hookPath}`,
    events: ['asset.approved'],
  });
  return { keyId: access.keyId as string, secret: access.secret as string, hookPath };
}

/** Opens the file's viewer from its card and runs one review action through the dialog. */
async function reviewAction(
  page: Page,
  action: string,
  fill: (dialog: Page) => Promise<void> = async () => {},
) {
  await page.getByTestId(`review-${action}`).click();
  await expect(page.getByTestId('review-confirm')).toBeVisible();
  await fill(page);
  await page.getByTestId('review-confirm').click();
  await expect(page.getByTestId('review-confirm')).toBeHidden();
}

const stateTag = (page: Page) => page.getByTestId('review-section').getByTestId('review-state');

for (const lang of ['zh', 'en'] as const) {
  test(`a picture asked for review, changed, approved; the shop sees it approved and is told (${lang})`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const w = WORDS[lang];
    const stamp = `${lang}${Date.now() % 1_000_000}`;
    const file = `hero-${stamp}`;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await signIn(page);
    const token = await apiToken(page);
    const designer = await givenColleague(page.request, token, {
      stamp,
      label: '设计',
      emailPrefix: 'designer',
    });
    const shop = await givenShop(page.request, token, stamp);

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    const studio = await context.newPage();
    await signIn(studio, designer.email, COLLEAGUE_PASSWORD);
    await newFolderWithFiles(studio, `review-${stamp}`, [
      { name: `${file}.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(800, 600) },
    ]);
    const folderId = Number(new URL(studio.url()).pathname.split('/').at(-1));
    await expect(itemCard(studio, file).locator('img')).toBeVisible({ timeout: 30_000 });
    await itemCard(studio, file).getByRole('button', { name: file }).click();
    await expect(stateTag(studio)).toHaveText(w.draft);

    // The designer asks; only approvers are offered.
    await reviewAction(studio, 'request', async (p) => {
      await chooseOption(p, p.getByTestId('review-reviewers'), w.reviewer);
      await p
        .getByTestId('review-note')
        .fill(lang === 'zh' ? '上新主图，请看颜色' : 'Launch hero, check the colour');
      await snapBothSizes(p, `review-request-${lang}`);
      await expectAccessible(p, `review request dialog (${lang})`);
    });
    await expect(stateTag(studio)).toHaveText(w.inReview);
    await expect(async () => {
      expect((await lastMailTo(page, ADMIN.email)).subject).toContain(file);
    }).toPass({ timeout: 30_000 });

    // The reviewer finds it under "to review" and asks for changes.
    await page.goto('/allfiles/all');
    await page.getByTestId('side-tabs').getByText(w.tab, { exact: true }).click();
    await expect(itemCard(page, file)).toBeVisible();
    await snapBothSizes(page, `review-todo-${lang}`);
    await expectAccessible(page, `to review (${lang})`);
    await itemCard(page, file).getByRole('button', { name: file }).click();
    await reviewAction(page, 'requestChanges', (p) => p.getByTestId('review-note').fill('Darker, please'));
    await expect(stateTag(page)).toHaveText(w.changes);
    await page.getByTestId('viewer-close').click();

    // The designer sees why, sends a new version and asks again.
    await studio.reload();
    await itemCard(studio, file).getByRole('button', { name: file }).click();
    await expect(stateTag(studio)).toHaveText(w.changes);
    await studio
      .getByTestId('review-section')
      .getByRole('button', { name: /审核记录|Review history/ })
      .click();
    await expect(studio.getByTestId('review-history')).toContainText('Darker, please');
    await snapBothSizes(studio, `review-changes-${lang}`);
    await studio
      .getByTestId('new-version-input')
      .setInputFiles({ name: `${file}.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(820, 600) });
    await expect(studio.getByTestId('upload-finish')).toBeVisible();
    await studio.getByTestId('upload-finish').click();
    await expect(studio.getByTestId('info-records').locator('.ant-list-item')).toHaveCount(2, {
      timeout: 30_000,
    });
    await reviewAction(studio, 'request', (p) =>
      chooseOption(p, p.getByTestId('review-reviewers'), w.reviewer),
    );
    await expect(stateTag(studio)).toHaveText(w.inReview);

    // The reviewer approves.
    await page.reload();
    await itemCard(page, file).getByRole('button', { name: file }).click();
    await reviewAction(page, 'approve');
    await expect(stateTag(page)).toHaveText(w.approved);
    await snapBothSizes(page, `review-approved-${lang}`);
    await expectAccessible(page, `approved file in the viewer (${lang})`);

    // The designer's card says so.
    await studio.getByTestId('viewer-close').click();
    await studio.reload();
    await expect(itemCard(studio, file).getByTestId('review-state')).toHaveText(w.approved);

    // The shop lists it as approved, and its webhook was told.
    const target = `/open/v1/assets/by-folder?folderId=${folderId}&reviewState=approved`;
    const answer = await page.request.get(target, { headers: signOpenRequest(shop, 'GET', target) });
    const listed = await answer.json();
    expect(
      listed.result.list.map((a: { name: string; reviewState: string }) => [a.name, a.reviewState]),
    ).toEqual([[file, 'approved']]);
    await expect
      .poll(
        async () => {
          const told = await page.request.get(
            `${PEERS_URL}/webhooks/last?path=${encodeURIComponent(shop.hookPath)}`,
          );
          return told.status() === 200
            ? ((await told.json()).body as { type: string; data: { name: string } })
            : null;
        },
        { timeout: 60_000 },
      )
      .toMatchObject({ type: 'asset.approved', data: { name: file } });
    await context.close();
  });
}
