import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { makeJpeg, makeMp4, makePdf, makePng, makePsd, makeTiff } from '../../server/test/fixtures';
import {
  chooseUserMenuItem,
  finishUpload,
  itemCard,
  newFolder,
  signIn,
  slowParts,
  snap,
  switchToEnglish,
} from './support';

async function openFolder(page: Page, name: string) {
  await itemCard(page, name).getByRole('button', { name }).click();
  await expect(page.getByTestId('current-folder')).toHaveText(name);
}

/** The records screen, reached inside the app: a page load would end the uploads in progress. */
const openRecords = (page: Page, label: RegExp) =>
  chooseUserMenuItem(page, label, page.getByTestId('upload-records'));

test('uploads a folder of real files and their thumbnails appear', async ({ page }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-upload-'));
  const folder = path.join(dir, '新品');
  fs.mkdirSync(path.join(folder, '细节'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'SHOE101-01_side.jpg'), await makeJpeg(1600, 1200));
  fs.writeFileSync(path.join(folder, 'SHOE101-01_top.png'), await makePng(900, 900));
  fs.writeFileSync(path.join(folder, 'scan.tif'), await makeTiff(1200, 800));
  fs.writeFileSync(path.join(folder, 'layout.psd'), await makePsd(800, 600));
  fs.writeFileSync(path.join(folder, '细节', 'spec.pdf'), makePdf());
  fs.writeFileSync(path.join(folder, '细节', 'clip.mp4'), makeMp4());
  fs.writeFileSync(path.join(folder, '.DS_Store'), 'finder junk');

  await signIn(page);
  await newFolder(page, '上传测试', { open: true });

  await page.getByTestId('upload-folder-input').setInputFiles(folder);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('图片 (4)');
  await expect(dialog).toContainText('视频 (1)');
  await expect(dialog).toContainText('其他 (1)');
  await expect(dialog).not.toContainText('.DS_Store');
  await expect(
    dialog.getByRole('listitem').filter({ hasText: 'SHOE101-01_side.jpg' }).getByPlaceholder('货号'),
  ).toHaveValue('SHOE101-01');
  await snap(page, 'upload-dialog-zh');
  await finishUpload(page);

  await expect(itemCard(page, '新品')).toBeVisible();
  await openFolder(page, '新品');
  for (const name of ['SHOE101-01_side', 'SHOE101-01_top', 'scan', 'layout']) {
    await expect(itemCard(page, name).locator('img')).toBeVisible({ timeout: 30_000 });
  }
  await openFolder(page, '细节');
  for (const name of ['spec', 'clip'])
    await expect(itemCard(page, name).locator('img')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('breadcrumb').getByRole('link', { name: '新品' }).click();
  await snap(page, 'upload-thumbnails-zh');

  await openRecords(page, /上传记录/);
  await page.getByRole('tab', { name: /已上传/ }).click();
  await expect(page.getByTestId('history-name').filter({ hasText: 'layout.psd' })).toBeVisible();
  await snap(page, 'upload-records-history-zh');
});

test('cancels one upload, and an upload survives going offline and back online', async ({
  page,
  context,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-upload-'));
  const big = (name: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.alloc(40 * 1024 * 1024, name.length));
    return file;
  };
  await signIn(page);
  // A folder of its own: at the top level, every earlier journey's folders may push the card past
  // the first page (CI rehearsal, session 37).
  await newFolder(page, '取消与离线', { open: true });
  const folderUrl = page.url();
  const fullSpeed = await slowParts(page, 5000);
  await page.getByTestId('upload-files-input').setInputFiles([big('cancel-me.mov'), big('keep-me.mov')]);
  await expect(page.getByRole('dialog')).toContainText('视频 (2)');
  await finishUpload(page);
  await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 30_000 });

  await openRecords(page, /上传记录/);
  await expect(page.getByTestId('task-name')).toHaveCount(2);
  await snap(page, 'upload-records-current-zh');
  await page
    .getByRole('row', { name: /cancel-me\.mov/ })
    .getByTestId('task-cancel')
    .click();
  await page.getByRole('button', { name: /确\s*认/ }).click();
  await expect(page.getByTestId('task-name')).toHaveText(['keep-me.mov']);

  await context.setOffline(true);
  await expect(page.getByRole('row', { name: /keep-me\.mov/ })).toContainText('已暂停');
  await snap(page, 'upload-records-offline-zh');
  await context.setOffline(false);
  await fullSpeed();
  await expect(page.getByTestId('task-name')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('upload-finished-banner')).toBeVisible();

  await page.getByRole('tab', { name: /已上传/ }).click();
  await expect(page.getByTestId('history-name').filter({ hasText: 'keep-me.mov' })).toBeVisible();
  await expect(page.getByTestId('history-name').filter({ hasText: 'cancel-me.mov' })).toHaveCount(0);
  await page.goto(folderUrl);
  await expect(itemCard(page, 'keep-me')).toBeVisible();
  await expect(itemCard(page, 'cancel-me')).toHaveCount(0);
});

test('shows the upload screens in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await page
    .getByTestId('upload-files-input')
    .setInputFiles({ name: 'SHOE202-02.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) });
  await expect(page.getByRole('dialog')).toContainText('Images (1)');
  await snap(page, 'upload-dialog-en');
  await finishUpload(page);
  await openRecords(page, /Upload records/);
  await page.getByRole('tab', { name: /Uploaded/ }).click();
  await expect(page.getByTestId('history-name').first()).toBeVisible();
  await snap(page, 'upload-records-history-en');
});
