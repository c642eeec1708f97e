import { expect, type Page, test } from '@playwright/test';
import { makeJpeg } from '../../server/test/fixtures';
import {
  apiToken,
  chooseOption,
  chooseUserMenuItem,
  finishUpload,
  itemCard,
  lastMailTo,
  newFolder,
  signIn,
  snap,
  switchToEnglish,
} from './support';

/** A colleague with an address, and a mail group with an outside address, made through the API. */
async function givenRecipients(page: Page) {
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 100)}`;
  const token = await apiToken(page);
  const tree = await page.request.post('/security-api/dept-tree', { headers: { token }, data: {} });
  const rootId = (await tree.json()).result.departments.find(
    (d: { parentId: number | null }) => d.parentId === null,
  ).id as number;
  const colleague = { name: `陈设计${run.slice(-3)}`, email: `designer.${run}@example.com` };
  const user = await page.request.post('/security-api/create-user', {
    headers: { token },
    data: { name: colleague.name, deptId: rootId, email: colleague.email },
  });
  expect(user.ok(), await user.text()).toBe(true);
  const agency = `studio.${run}@agency.example`;
  const groupName = `新品通知${run.slice(-4)}`;
  const group = await page.request.post('/ske-api/v1_0/manage/mail-group/create', {
    headers: { token },
    data: { mailGroupName: groupName, externalEmails: [agency] },
  });
  expect(group.ok(), await group.text()).toBe(true);
  return { run, colleague, agency, groupName };
}

const records = (page: Page, label: RegExp) =>
  chooseUserMenuItem(page, label, page.getByTestId('upload-records'));

test('uploads with a mail notice; the mail comes with the thumbnails and the record says it was sent', async ({
  page,
  browser,
}) => {
  test.slow();
  await signIn(page);
  const { run, colleague, agency, groupName } = await givenRecipients(page);
  await page.goto('/allfiles/all');
  const folder = `春季新品${run.slice(-4)}`;
  await newFolder(page, folder, { open: true });
  await page.getByText('这个文件夹还是空的').waitFor();
  await page.getByTestId('upload-files-input').setInputFiles([
    { name: `MN1-${run}.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(900, 600) },
    { name: `MN2-${run}.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(600, 900) },
  ]);

  // Switched on without a recipient: refused before anything uploads.
  await page.getByTestId('mail-notice-switch').click();
  await page.getByTestId('upload-finish').click();
  await expect(page.getByTestId('mail-notice')).toContainText('请至少选择一个邮件组或一位用户');
  await expect(page.getByTestId('upload-finish')).toBeVisible();

  await chooseOption(page, page.getByTestId('mail-notice-groups'), groupName);
  const users = page.getByTestId('mail-notice-users');
  await users.locator('input').fill(colleague.name);
  await chooseOption(page, users, colleague.name);
  await page.getByTestId('mail-notice-content').fill('春季新品的主图已上传，请在周五前挑选。');
  await page.getByTestId('mail-notice-remark').fill('首批 2 款');
  await expect(page.getByTestId('mail-notice-delay')).toHaveValue('0');
  await snap(page, 'upload-mail-notice-zh');
  await finishUpload(page);
  await expect(itemCard(page, `MN2-${run}`).locator('img')).toBeVisible({ timeout: 30_000 });

  // The colleague's mail: the words, both thumbnails inside it, the folder in the app.
  const mail = await lastMailTo(page, colleague.email, 60_000);
  expect(mail.subject).toMatch(/上传了 2 个文件$/);
  expect(mail.text).toContain('春季新品的主图已上传，请在周五前挑选。');
  expect(mail.text).toContain(`/${folder}`);
  expect(mail.text).toMatch(/\/allfiles\/\d+/);
  expect(mail.inlinePictures).toBe(2);
  // Read as a mail program shows it.
  const reader = await browser.newPage();
  await reader.setContent(mail.html);
  const pictures = reader.locator('img');
  await expect(pictures).toHaveCount(2);
  for (const picture of await pictures.all()) {
    expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  }
  await snap(reader, 'mail-notice-mail-zh');
  await reader.close();

  // The outside address: no link into the app, but each file's picture opens without signing in.
  const outside = await lastMailTo(page, agency);
  expect(outside.text).not.toMatch(/\/allfiles\//);
  const link = /(http:\/\/\S+\/media\/mail-notice\?token=\S+)/.exec(outside.text)?.[1] ?? '';
  const stranger = await browser.newContext();
  const picture = await stranger.request.get(link);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/jpeg');
  await stranger.close();

  // The upload record follows the notice to "sent".
  await records(page, /上传记录/);
  await page.getByRole('tab', { name: /已上传/ }).click();
  const row = page.getByRole('row').filter({ hasText: `MN1-${run}` });
  await expect(row.getByTestId('mail-notice-state')).toHaveText('已发送', { timeout: 30_000 });
  await snap(page, 'upload-records-mail-notice-zh');
});

test('the mail notice editor and its state on the records, in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  const { run, groupName } = await givenRecipients(page);
  await page.goto('/allfiles/all');
  await newFolder(page, `Lookbook ${run.slice(-4)}`, { open: true });
  await page.getByText('This folder is empty').waitFor();
  await page
    .getByTestId('upload-files-input')
    .setInputFiles([{ name: `EN-MN-${run}.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) }]);
  await page.getByTestId('mail-notice-switch').click();
  await chooseOption(page, page.getByTestId('mail-notice-groups'), groupName);
  // Hours are whole: 1.5 is refused, and nothing uploads.
  await page.getByTestId('mail-notice-delay').fill('1.5');
  await page.getByTestId('upload-finish').click();
  await expect(page.getByTestId('mail-notice')).toContainText('Enter whole hours from 0 to 720');
  await snap(page, 'upload-mail-notice-en');
  await page.getByTestId('mail-notice-delay').fill('24');
  await finishUpload(page);
  await expect(itemCard(page, `EN-MN-${run}`)).toBeVisible({ timeout: 30_000 });
  await records(page, /Upload records/);
  await page.getByRole('tab', { name: /Uploaded/ }).click();
  const row = page.getByRole('row').filter({ hasText: `EN-MN-${run}` });
  await expect(row.getByTestId('mail-notice-state')).toHaveText('Scheduled');
  await row.getByTestId('mail-notice-state').hover();
  await expect(page.getByRole('tooltip')).toContainText('Due');
  await snap(page, 'upload-records-mail-notice-en');
});
