import { expect, type Page, test } from '@playwright/test';
import { makeVideo } from '../../server/test/fixtures';
import { itemCard, newFolderWithFiles, signIn, snap, switchToEnglish } from './support';

/** Opens the file's viewer and waits until its video is ready to play (a rendition may be in the making). */
async function openVideo(page: Page, name: string, checkAgain: RegExp) {
  await expect(itemCard(page, name).locator('img')).toBeVisible({ timeout: 30_000 });
  await itemCard(page, name).getByRole('button', { name }).click();
  const video = page.getByTestId('viewer-video');
  await expect(async () => {
    if (await page.getByTestId('viewer-video-pending').isVisible()) {
      await page.getByRole('button', { name: checkAgain }).click();
    }
    await expect(video).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  return video;
}

/** Plays (muted, as autoplay rules allow) and answers the playback position after a moment. */
async function playedSeconds(page: Page): Promise<number> {
  const video = page.getByTestId('viewer-video');
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
  });
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.5);
  return video.evaluate((element: HTMLVideoElement) => element.currentTime);
}

test('a MOV from a camera plays in the viewer', async ({ page }) => {
  await signIn(page);
  await newFolderWithFiles(page, '视频样片', [
    { name: 'runway.mov', mimeType: 'video/quicktime', buffer: makeVideo('mov', 4) },
  ]);
  await openVideo(page, 'runway', /重新检查/);
  expect(await playedSeconds(page)).toBeGreaterThan(0.5);
  await snap(page, 'video-viewer-zh');
});

test('an AVI plays in the viewer, in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await newFolderWithFiles(page, 'video samples', [
    { name: 'backstage.avi', mimeType: 'video/x-msvideo', buffer: makeVideo('avi', 4) },
  ]);
  await openVideo(page, 'backstage', /Check again/);
  expect(await playedSeconds(page)).toBeGreaterThan(0.5);
  await snap(page, 'video-viewer-en');
});
