import { expect, test } from '@playwright/test';
import { makeJpeg, makeMp4, makePdf, makePng, makePsd } from '../../server/test/fixtures';
import { readZip } from '../../server/test/zip';
import { itemCard, newFolder, newFolderWithFiles, signIn, snap, switchToEnglish } from './support';

/** Issue 11 item 8: the small things users trip on, as they see them. */

test('thumbnails replace the type icons in the folder being looked at, without a reload', async ({
  page,
}) => {
  await signIn(page);
  await newFolderWithFiles(page, '缩略图到达', [
    { name: 'moodboard.psd', mimeType: 'image/vnd.adobe.photoshop', buffer: await makePsd(800, 600) },
    { name: 'catalogue.pdf', mimeType: 'application/pdf', buffer: makePdf() },
    { name: 'walk.mp4', mimeType: 'video/mp4', buffer: makeMp4() },
  ]);
  // The page stays where it is: the cards appear, then their thumbnails as the queue makes them.
  for (const name of ['moodboard', 'catalogue', 'walk']) {
    await expect(itemCard(page, name).locator('img')).toBeVisible({ timeout: 30_000 });
  }
  await snap(page, 'thumbnails-arrived-zh');
});

test('a card’s name opens it, favouriting says so, and the viewer’s edge message does not stack', async ({
  page,
}) => {
  await signIn(page);
  await newFolderWithFiles(page, '小事情', [
    { name: 'RUN1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(640, 480) },
  ]);
  await expect(itemCard(page, 'RUN1')).toBeVisible({ timeout: 30_000 });

  await itemCard(page, 'RUN1').getByTestId('item-menu').click();
  await page.getByRole('menuitem', { name: '收藏', exact: true }).click();
  await expect(page.getByText('已收藏“RUN1”')).toBeVisible();
  await snap(page, 'favourited-zh');

  await itemCard(page, 'RUN1').getByTestId('item-name').click();
  await expect(page.getByTestId('viewer-title')).toHaveText('RUN1');
  // The only file is both first and last: every press replaces the one message.
  for (let press = 0; press < 3; press += 1) await page.keyboard.press('ArrowLeft');
  await expect(page.getByText('已经是第一个了')).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText('已经是最后一个了')).toHaveCount(1);
  await expect(page.getByText('已经是第一个了')).toHaveCount(0);
});

test('favouriting and opening by name in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await newFolderWithFiles(page, 'small things', [
    { name: 'TRAIL2.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(640, 480) },
  ]);
  await expect(itemCard(page, 'TRAIL2')).toBeVisible({ timeout: 30_000 });
  await itemCard(page, 'TRAIL2').getByTestId('item-menu').click();
  await page.getByRole('menuitem', { name: 'Favourite', exact: true }).click();
  await expect(page.getByText('Added “TRAIL2” to favourites')).toBeVisible();
  await snap(page, 'favourited-en');
  await itemCard(page, 'TRAIL2').getByTestId('item-menu').click();
  await page.getByRole('menuitem', { name: 'Remove favourite', exact: true }).click();
  await expect(page.getByText('Removed “TRAIL2” from favourites')).toBeVisible();
  await itemCard(page, 'TRAIL2').getByTestId('item-name').click();
  await expect(page.getByTestId('viewer-title')).toHaveText('TRAIL2');
});

test('edit mode moves the file to another folder', async ({ page }) => {
  await signIn(page);
  await page.goto('/allfiles/all');
  await newFolder(page, '成品归档');
  await newFolderWithFiles(page, '待整理', [
    { name: 'MOVE1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(640, 480) },
  ]);
  await itemCard(page, 'MOVE1').getByRole('button', { name: 'MOVE1' }).click();
  await page.getByTestId('viewer-edit').click();
  await expect(page.getByTestId('edit-path')).toHaveText('/待整理');
  await page.getByTestId('edit-move').click();
  await page.getByTestId('folder-tree').getByText('成品归档').click();
  await snap(page, 'edit-move-zh');
  await page.getByTestId('move-confirm').click();
  await expect(page.getByTestId('edit-path')).toHaveText('/成品归档');
});

test('edit mode moves the file, in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await page.goto('/allfiles/all');
  await newFolder(page, 'finished looks');
  await newFolderWithFiles(page, 'to sort', [
    { name: 'MOVE2.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(640, 480) },
  ]);
  await itemCard(page, 'MOVE2').getByRole('button', { name: 'MOVE2' }).click();
  await page.getByTestId('viewer-edit').click();
  await expect(page.getByTestId('edit-path')).toHaveText('/to sort');
  await page.getByTestId('edit-move').click();
  await page.getByTestId('folder-tree').getByText('finished looks').click();
  await page.getByTestId('move-confirm').click();
  await expect(page.getByTestId('edit-path')).toHaveText('/finished looks');
  await snap(page, 'edit-move-en');
});

test('a folder downloaded with the default formats gives each image once', async ({ page }) => {
  await signIn(page);
  await newFolderWithFiles(page, '整包下载', [
    { name: 'LOOK1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
    { name: 'LOOK2.png', mimeType: 'image/png', buffer: await makePng(400, 300) },
    { name: 'LOOK3.psd', mimeType: 'image/vnd.adobe.photoshop', buffer: await makePsd(400, 300) },
  ]);
  for (const name of ['LOOK1', 'LOOK2', 'LOOK3'])
    await expect(itemCard(page, name)).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('breadcrumb').getByRole('link', { name: '全部文件' }).click();
  await itemCard(page, '整包下载').getByRole('checkbox').check();
  await page.getByTestId('selection-download').click();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('download-submit').click();
  const entries = await readZip(await (await downloading).path());
  // JPG and PNG are ticked for folders: each image in its own format, the PSD as one JPG.
  expect([...entries.keys()].sort()).toEqual([
    '整包下载/LOOK1.jpg',
    '整包下载/LOOK2.png',
    '整包下载/LOOK3.jpg',
  ]);
});

test('a mistyped share link says the link is invalid, in Chinese and English', async ({ page }) => {
  await page.goto('/visitfile?code=not-a-real-code');
  await expect(page.getByTestId('visit-error')).toContainText('分享链接不存在或已被取消');
  await page.evaluate(() => window.localStorage.setItem('lang', 'en'));
  await page.reload();
  await expect(page.getByTestId('visit-error')).toContainText(
    'The share link does not exist or has been cancelled',
  );
  await snap(page, 'visit-invalid-en');
});
