import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { makeJpeg, makePng } from '../../server/test/fixtures';
import { readZip } from '../../server/test/zip';
import { chooseOption, itemCard, newFolderWithFiles, signIn, snap, switchToEnglish } from './support';

const FOLDER = '渠道图';

async function choosePreset(page: Page, name: string) {
  await chooseOption(page, page.getByRole('dialog').last().getByTestId('download-preset'), name);
}

/** Two product images named by their article numbers (TM100, TM200). */
async function productImages() {
  return [
    { name: 'TM100.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(1200, 800) },
    { name: 'TM200.png', mimeType: 'image/png', buffer: await makePng(800, 800) },
  ];
}

async function zipOf(page: Page, start: () => Promise<void>) {
  const downloadPromise = page.waitForEvent('download');
  await start();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^download-\d{14}\.zip$/);
  return readZip(await download.path());
}

test('an administrator defines a preset and downloads a selection and article numbers with it', async ({
  page,
  context,
}) => {
  await signIn(page);
  // The manage entry leads to the first tab the administrator may see; presets are a tab further.
  await page.getByTestId('manage-entry').click();
  await expect(page).toHaveURL(/\/manage\/users$/);
  await page.getByTestId('manage-tabs').getByText('下载预设').click();
  await expect(page).toHaveURL(/\/manage\/download-presets$/);
  await expect(page.getByTestId('presets-page')).toBeVisible();

  await page.getByTestId('preset-new').click();
  await page.getByTestId('preset-name').fill('天猫主图');
  await page.getByTestId('preset-long-side').fill('400');
  await page.getByTestId('preset-template').fill('{sku}_{index}.jpg');
  await expect(page.getByText('未知的占位符 {sku}')).toBeVisible();
  await page.getByTestId('preset-template').fill('{artNum}_{index}_{width}x{height}.jpg');
  await expect(page.getByTestId('preset-example')).toHaveText('示例：SHOE123_1_400x300.jpg');
  await snap(page, 'preset-dialog-zh');
  await page.getByTestId('preset-save').click();
  await expect(page.getByRole('cell', { name: '天猫主图' })).toBeVisible();
  await snap(page, 'presets-zh');

  // Two product images in a folder, with their article numbers.
  await newFolderWithFiles(page, FOLDER, await productImages());
  await expect(itemCard(page, 'TM100').locator('img')).toBeVisible({ timeout: 30_000 });
  await expect(itemCard(page, 'TM200').locator('img')).toBeVisible({ timeout: 30_000 });
  const token = (await context.cookies()).find((c) => c.name === 'skToken')?.value ?? '';
  const folderId = new URL(page.url()).pathname.split('/').pop();
  const listing = await page.request.get(
    `/ske-api/v1_0/file/all-file-v2?folderDataId=${folderId}&pageNo=1&pageSize=60&rankStatus=0`,
    { headers: { token } },
  );
  const items = (await listing.json()).result.list as Array<{ id: number; name: string }>;
  for (const item of items) {
    const edited = await page.request.post('/ske-api/v1_0/file/edit', {
      headers: { token },
      data: { folderDataId: item.id, artNum: item.name.replace('TM', 'TM-') },
    });
    expect(edited.ok()).toBe(true);
  }

  // The selection, converted per the preset.
  await itemCard(page, 'TM100').getByRole('checkbox').check();
  await itemCard(page, 'TM200').getByRole('checkbox').check();
  await page.getByTestId('selection-download').click();
  await choosePreset(page, '天猫主图');
  await expect(page.getByTestId('download-preset-summary')).toHaveText(
    'JPG · 400 px · {artNum}_{index}_{width}x{height}.jpg',
  );
  await expect(page.getByTestId('download-scaling')).toBeDisabled();
  await snap(page, 'download-dialog-preset-zh');
  const selection = await zipOf(page, () => page.getByTestId('download-submit').click());
  expect([...selection.keys()].sort()).toEqual(['TM-100_1_400x267.jpg', 'TM-200_1_400x400.jpg']);
  expect(await sharp(selection.get('TM-100_1_400x267.jpg')).metadata()).toMatchObject({
    format: 'jpeg',
    width: 400,
    height: 267,
  });

  // By article numbers, from the top bar: a folder each, and the numbers that matched nothing.
  await page.getByTestId('art-num-download').click();
  // The numbers can be pasted at once: the dialog opens with its box focused.
  await expect(page.getByTestId('art-num-input')).toBeFocused();
  await page.getByTestId('art-num-input').fill('TM-100\nTM-200, NOPE-1 tm-100');
  await expect(page.getByTestId('art-num-count')).toHaveText('共 3 个货号');
  await choosePreset(page, '天猫主图');
  await snap(page, 'art-num-dialog-zh');
  const byArtNum = await zipOf(page, () => page.getByTestId('art-num-download-submit').click());
  expect([...byArtNum.keys()].sort()).toEqual([
    'TM-100/TM-100_1_400x267.jpg',
    'TM-200/TM-200_1_400x400.jpg',
    '_unmatched-article-numbers.txt',
  ]);
  expect(byArtNum.get('_unmatched-article-numbers.txt')?.toString()).toBe('NOPE-1\n');

  // Nothing matched: a clear message, no download.
  await page.getByTestId('art-num-download').click();
  await page.getByTestId('art-num-input').fill('NOPE-2');
  await page.getByTestId('art-num-download-submit').click();
  await expect(page.getByText('没有找到与这些货号匹配且您可以下载的文件')).toBeVisible();
});

test('shows the preset screen and the download dialogs in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  // Its own preset and folder: the journey passes alone as well as after the one above.
  const preset = 'Tmall main';
  await page.goto('/manage/download-presets');
  await page.getByTestId('preset-new').click();
  await page.getByTestId('preset-name').fill(preset);
  await page.getByTestId('preset-long-side').fill('400');
  await page.getByTestId('preset-template').fill('{artNum}_{index}_{width}x{height}.jpg');
  await expect(page.getByTestId('preset-example')).toHaveText('Example: SHOE123_1_400x300.jpg');
  await snap(page, 'preset-dialog-en');
  await page.getByTestId('preset-save').click();
  await expect(page.getByRole('cell', { name: preset })).toBeVisible();
  await snap(page, 'presets-en');

  await newFolderWithFiles(page, 'Channel images', await productImages());
  await expect(itemCard(page, 'TM100').locator('img')).toBeVisible({ timeout: 30_000 });
  await itemCard(page, 'TM100').getByRole('checkbox').check();
  await page.getByTestId('selection-download').click();
  await choosePreset(page, preset);
  await expect(page.getByRole('dialog')).toContainText('Download preset');
  await snap(page, 'download-dialog-preset-en');
  await page.getByTestId('open-art-num-download').click();
  await page.getByTestId('art-num-input').fill('TM-100 TM-200');
  await expect(page.getByTestId('art-num-count')).toHaveText('2 article numbers');
  await snap(page, 'art-num-dialog-en');
});
