import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { makeJpeg, makePng, makePsd } from '../../server/test/fixtures';
import { readZip } from '../../server/test/zip';
import { itemCard, newFolderWithFiles, signIn, snap, switchToEnglish } from './support';

test('opens a file full screen: zoom, rotate, previous/next, edit name and validity, hide a format', async ({
  page,
}) => {
  await signIn(page);
  await newFolderWithFiles(page, '看图', [
    { name: 'BOOT1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(1200, 900) },
    { name: 'BOOT1.psd', mimeType: 'image/vnd.adobe.photoshop', buffer: await makePsd(600, 450) },
    { name: 'BOOT2.png', mimeType: 'image/png', buffer: await makePng(800, 800) },
  ]);
  await expect(itemCard(page, 'BOOT1').locator('img')).toBeVisible({ timeout: 30_000 });
  await expect(itemCard(page, 'BOOT2').locator('img')).toBeVisible({ timeout: 30_000 });

  // The uploads finish side by side, so either file may be listed first: start from the first.
  const names = await page
    .getByTestId('item-card')
    .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-name')));
  const [first, second] = names as [string, string];
  await itemCard(page, first).getByRole('button', { name: first }).click();
  const viewer = page.getByTestId('file-viewer');
  await expect(page.getByTestId('viewer-title')).toHaveText(first);
  const image = page.getByTestId('viewer-image');
  await expect(image).toBeVisible();
  await page.getByTestId('zoom-in').click();
  await expect(image).toHaveAttribute('data-zoom', '1.1');
  await page.getByTestId('rotate').click();
  await expect(image).toHaveAttribute('data-angle', '90');
  await snap(page, 'viewer-zh');

  await page.keyboard.press('ArrowLeft');
  await expect(page.getByText('已经是第一个了')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('viewer-title')).toHaveText(second);
  await page.getByTestId('viewer-next').click();
  await expect(page.getByText('已经是最后一个了')).toBeVisible();
  await page.getByTestId('viewer-prev').click();
  await expect(page.getByTestId('viewer-title')).toHaveText(first);
  if (first !== 'BOOT1') await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('viewer-title')).toHaveText('BOOT1');
  // Formats are listed in the order they arrived; the two uploads ran side by side.
  await expect(page.getByTestId('info-formats')).toHaveText(/^(JPG,PSD|PSD,JPG)$/);
  await snap(page, 'viewer-info-zh');

  // Edit: rename, validity, hide a format.
  await page.getByTestId('viewer-edit').click();
  await snap(page, 'viewer-edit-zh');
  await page.getByTestId('hide-psd').click();
  await page.getByTestId('edit-name').fill('BOOT1-侧面');
  const form = page.getByTestId('edit-form');
  await form.getByPlaceholder('开始日期').click();
  await form.getByPlaceholder('开始日期').fill('2026-01-01');
  await form.getByPlaceholder('结束日期').click();
  await form.getByPlaceholder('结束日期').fill('2030-12-31');
  // Enter confirms the date and, like any form, submits it — once.
  let edits = 0;
  page.on('request', (request) => {
    if (request.url().includes('/v1_0/file/edit')) edits += 1;
  });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('viewer-title')).toHaveText('BOOT1-侧面');
  expect(edits).toBe(1);
  await expect(page.getByTestId('info-validity')).toHaveText('2026-01-01 ~ 2030-12-31');
  await expect(page.getByTestId('info-formats')).toHaveText('JPG');

  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect(itemCard(page, 'BOOT1-侧面')).toBeVisible();

  // Download both files as one zip, BOOT2 also converted to JPG, scaled to 300 px on the long side.
  await itemCard(page, 'BOOT1-侧面').getByRole('checkbox').check();
  await itemCard(page, 'BOOT2').getByRole('checkbox').check();
  await page.getByTestId('selection-download').click();
  await expect(page.getByTestId('download-item')).toHaveCount(2);
  await page.getByRole('dialog').getByRole('checkbox', { name: 'JPG' }).last().check();
  await page.getByTestId('download-scaling').click();
  await page.getByTestId('download-px').fill('300');
  await snap(page, 'download-dialog-zh');
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('download-submit').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^download-\d{14}\.zip$/);
  const entries = await readZip(await download.path());
  expect([...entries.keys()].sort()).toEqual(['BOOT1-侧面.jpg', 'BOOT2.jpg', 'BOOT2.png']);
  const scaled = await sharp(entries.get('BOOT2.jpg')).metadata();
  expect(Math.max(scaled.width ?? 0, scaled.height ?? 0)).toBe(300);
});

test('shows the viewer in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await itemCard(page, '看图').getByRole('button', { name: '看图' }).click();
  await itemCard(page, 'BOOT2').getByRole('button', { name: 'BOOT2' }).click();
  await expect(page.getByTestId('info-panel')).toContainText('Uploaded by');
  await snap(page, 'viewer-info-en');
  await page.getByTestId('viewer-edit').click();
  await snap(page, 'viewer-edit-en');
  await page.keyboard.press('Escape');
  await itemCard(page, 'BOOT2').getByRole('checkbox').check();
  await page.getByTestId('selection-download').click();
  await expect(page.getByRole('dialog')).toContainText('Equal scaling');
  await snap(page, 'download-dialog-en');
});
