import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { makeJpeg } from '../../server/test/fixtures';
import {
  chooseUserMenuItem,
  itemCard,
  newFolder,
  newFolderWithFiles,
  signIn,
  snap,
  switchToEnglish,
} from './support';

const FOLDER = '分享样品';

async function openCardMenu(page: Page, name: string, entry: string) {
  await expect(async () => {
    await itemCard(page, name).hover();
    await itemCard(page, name).getByTestId('item-menu').click();
    await page.getByRole('menuitem', { name: entry, exact: true }).click({ timeout: 2_000 });
  }).toPass();
}

test('shares a folder by password link; a visitor opens it without signing in and downloads it', async ({
  page,
  browser,
}) => {
  await signIn(page);
  await newFolderWithFiles(page, FOLDER, [
    { name: 'share-look.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(800, 600) },
  ]);
  await expect(itemCard(page, 'share-look').locator('img')).toBeVisible({ timeout: 30_000 });

  // Share the folder: password-protected and 7 days unless changed (SPEC §2).
  await page.getByTestId('side-tabs').getByRole('link', { name: '全部文件' }).click();
  await openCardMenu(page, FOLDER, '分享');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('share-type').getByRole('radio', { name: '需要密码' })).toBeChecked();
  await expect(dialog.getByTestId('share-validity').getByRole('radio', { name: '7 天' })).toBeChecked();
  await snap(page, 'share-dialog-zh');
  await dialog.getByTestId('share-create').click();
  const url = await dialog.getByTestId('share-url').inputValue();
  const password = await dialog.getByTestId('share-password').inputValue();
  expect(url).toMatch(/\/visitfile\?code=[\w-]{24}$/);
  expect(password).toMatch(/^\w{6}$/);
  await snap(page, 'share-result-zh');
  await dialog.getByTestId('share-done').click();

  // My shares lists it, sharing, with its password.
  await chooseUserMenuItem(page, '我的分享', page.getByTestId('share-row-names').first());
  await expect(page.getByTestId('share-row-names').first()).toHaveText(FOLDER);
  await expect(page.getByTestId('share-status').first()).toHaveText('分享中');
  await snap(page, 'my-shares-zh');
  // Latest shares shows the folder to people who may see it.
  await page.getByTestId('side-tabs').getByRole('link', { name: '最新分享' }).click();
  await expect(page.getByTestId('new-share').first()).toContainText(FOLDER);
  await snap(page, 'new-shares-zh');

  // A visitor with no account: the password first; a wrong one is refused.
  const visitorContext = await browser.newContext({ locale: 'zh-CN' });
  const visitor = await visitorContext.newPage();
  await visitor.goto(url);
  await expect(visitor.getByTestId('visit-password')).toBeVisible();
  await visitor.getByTestId('visit-password-input').fill('nope00');
  await visitor.getByTestId('visit-open').click();
  await expect(visitor.getByTestId('visit-password-error')).toBeVisible();
  await snap(visitor, 'visit-password-zh');
  await visitor.getByTestId('visit-password-input').fill(password);
  await visitor.getByTestId('visit-open').click();
  const folderCard = visitor.locator(`[data-testid="visit-item"][data-name="${FOLDER}"]`);
  await expect(folderCard).toBeVisible();
  await folderCard.getByRole('button', { name: FOLDER }).click();
  await expect(visitor.locator('[data-testid="visit-item"][data-name="share-look"] img')).toBeVisible();
  await snap(visitor, 'visit-files-zh');

  // Download everything the link names: its one file comes as itself, whole.
  const downloadPromise = visitor.waitForEvent('download');
  await visitor.getByTestId('visit-download-all').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('share-look.jpg');
  expect(await sharp(await download.path()).metadata()).toMatchObject({
    format: 'jpeg',
    width: 800,
    height: 600,
  });

  // The owner stops sharing: the link stops working at once.
  await chooseUserMenuItem(page, '我的分享', page.getByTestId('share-cancel').first());
  await page.getByTestId('share-cancel').first().click();
  await page.getByTestId('share-cancel-ok').click();
  await expect(page.getByTestId('share-status').first()).toHaveText('已取消');
  await visitor.reload();
  await expect(visitor.getByTestId('visit-error')).toBeVisible();
  await snap(visitor, 'visit-stopped-zh');
  await visitorContext.close();
});

test('the share dialog, my shares and the visitor page in English', async ({ page, browser }) => {
  await switchToEnglish(page);
  await signIn(page);
  await page.goto('/allfiles/all');
  // A folder of its own: this journey passes alone, not only after the one above.
  await newFolder(page, 'Lookbook to share');
  await openCardMenu(page, 'Lookbook to share', 'Share');
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('share-type').getByRole('radio', { name: 'Public' }).check();
  await dialog.getByTestId('share-validity').getByText('No expiry').click();
  await snap(page, 'share-dialog-en');
  await dialog.getByTestId('share-create').click();
  const url = await dialog.getByTestId('share-url').inputValue();
  await expect(dialog.getByTestId('share-password')).toHaveCount(0);
  await expect(dialog).toContainText('Never expires');
  await snap(page, 'share-result-en');
  await dialog.getByTestId('share-done').click();
  await page.goto('/myshare');
  await expect(page.getByTestId('share-status').first()).toHaveText('Sharing');
  await snap(page, 'my-shares-en');

  // A public link opens straight to the files.
  const visitorContext = await browser.newContext({ locale: 'en-US' });
  const visitor = await visitorContext.newPage();
  await visitor.addInitScript(() => window.localStorage.setItem('lang', 'en'));
  await visitor.goto(url);
  await expect(visitor.getByTestId('visit-files')).toContainText('Download all');
  await snap(visitor, 'visit-files-en');
  await visitorContext.close();

  // A colleague signed in pastes a link they were sent into "Download shared files" (SPEC §2).
  const paste = page.getByRole('dialog');
  await chooseUserMenuItem(page, 'Download shared files', paste);
  await expect(paste.getByTestId('open-share-link-input')).toBeFocused();
  await paste.getByTestId('open-share-link-input').fill('https://example.com/visitfile?code=nope');
  await paste.getByTestId('open-share-link-submit').click();
  await expect(paste).toContainText('This is not a valid share link');
  await snap(page, 'open-share-link-invalid-en');
  await paste.getByTestId('open-share-link-input').fill(url);
  await paste.getByTestId('open-share-link-submit').click();
  await expect(page).toHaveURL(/\/visitfile\?code=[\w-]{24}$/);
  await expect(page.getByTestId('visit-files')).toContainText('Download all');
});
