import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { newFolderWithFiles, signIn, slowParts, snap, switchToEnglish } from './support';

/**
 * A large file on disk: the browser reads it from there, where a buffer would be copied into it
 * through the DevTools protocol (20 s for 40 MiB on a slow day, most of a journey's time).
 */
const bigFile = (name: string, mib: number) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dam-panel-')), name);
  fs.writeFileSync(file, Buffer.alloc(mib * 1024 * 1024, 7));
  return file;
};

test('the upload panel shows progress on the folder page; pause, resume, done, close', async ({ page }) => {
  await signIn(page);
  await slowParts(page, 1500);
  await newFolderWithFiles(page, '大文件上传', [bigFile('campaign-film.mp4', 40)]);
  const panel = page.getByTestId('upload-panel');
  // The user stays on the folder: the panel is there, with the file and its progress.
  await expect(panel).toBeVisible();
  await expect(page).toHaveURL(/\/allfiles\/\d+$/);
  await expect(panel.getByTestId('upload-panel-title')).toHaveText('正在上传 1 个文件');
  await expect(panel.getByTestId('upload-panel-row')).toHaveAttribute('data-name', 'campaign-film.mp4');
  await expect
    .poll(async () => Number(await panel.getByTestId('upload-panel-progress').getAttribute('data-percent')), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  await expect(panel.getByTestId('upload-panel-facts')).toContainText('/ 40.0 MB');
  await snap(page, 'upload-panel-uploading-zh');

  await panel.getByTestId('upload-panel-pause').click();
  await expect(panel.getByTestId('upload-panel-state')).toContainText('已暂停');
  await snap(page, 'upload-panel-paused-zh');
  await panel.getByTestId('upload-panel-resume').click();
  await expect(panel.getByTestId('upload-panel-title')).toHaveText('已上传 1 个文件', { timeout: 60_000 });
  await expect(panel).toContainText('已完成');
  // Finished, it was never "interrupted".
  await expect(page.getByTestId('interrupted-banner')).toHaveCount(0);
  await snap(page, 'upload-panel-done-zh');
  await panel.getByTestId('upload-panel-close').click();
  await expect(panel).toHaveCount(0);
});

test('cancelling everything from the panel leaves no "interrupted" uploads behind', async ({ page }) => {
  await signIn(page);
  await slowParts(page, 4000);
  await newFolderWithFiles(page, '全部取消', [bigFile('a.mp4', 20), bigFile('b.mp4', 20)]);
  const panel = page.getByTestId('upload-panel');
  await expect(panel.getByTestId('upload-panel-title')).toHaveText('正在上传 2 个文件');
  await panel.getByRole('button', { name: /全部取消/ }).click();
  await page.getByRole('button', { name: /确\s*认/ }).click();
  await expect(panel).toHaveCount(0);
  // The records are read again a little later; nothing of this page is listed as interrupted.
  await page.reload();
  await expect(page.getByTestId('item-card')).toHaveCount(0);
  await expect(page.getByTestId('interrupted-banner')).toHaveCount(0);
});

test('the upload panel in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await slowParts(page, 1500);
  await newFolderWithFiles(page, 'big uploads', [bigFile('lookbook-film.mp4', 24)]);
  const panel = page.getByTestId('upload-panel');
  await expect(panel.getByTestId('upload-panel-title')).toHaveText('Files uploading: 1');
  await expect
    .poll(async () => Number(await panel.getByTestId('upload-panel-progress').getAttribute('data-percent')), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  await snap(page, 'upload-panel-uploading-en');
  await expect(panel.getByTestId('upload-panel-title')).toHaveText('Files uploaded: 1', { timeout: 60_000 });
  await snap(page, 'upload-panel-done-en');
});
