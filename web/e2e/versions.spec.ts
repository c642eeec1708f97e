import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, type Response, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { makeJpeg, makePng } from '../../server/test/fixtures';
import { apiToken, finishUpload, itemCard, newFolder, signIn, snap, switchToEnglish } from './support';

/** The part number inside a local part URL's signed token (`<base64url payload>.<mac>`). */
const partNumberOf = (url: string) => {
  const token = new URL(url).searchParams.get('token') ?? '';
  return JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')).n as number;
};

test('uploads a new version of a file from the viewer under its fixed name', async ({ page }) => {
  await signIn(page);
  await newFolder(page, '新版本', { open: true });
  await page
    .getByTestId('upload-files-input')
    .setInputFiles({ name: 'SHOE303-01.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(900, 600) });
  await finishUpload(page);
  await expect(itemCard(page, 'SHOE303-01').locator('img')).toBeVisible({ timeout: 30_000 });

  await itemCard(page, 'SHOE303-01').getByRole('button', { name: 'SHOE303-01' }).click();
  await expect(page.getByTestId('info-formats')).toHaveText('JPG');
  await page
    .getByTestId('new-version-input')
    .setInputFiles({ name: 'retouched final.png', mimeType: 'image/png', buffer: await makePng(900, 600) });
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('new-version-hint') });
  await expect(dialog).toContainText('上传新版本：SHOE303-01');
  await expect(dialog.getByTestId('upload-target')).toHaveText('/新版本');
  await snap(page, 'new-version-dialog-zh');
  await dialog.getByTestId('upload-finish').click();
  // The picked name differs: the user confirms the rename first.
  await expect(page.locator('.ant-modal-confirm-title')).toContainText('所选文件名与“SHOE303-01”不同');
  await snap(page, 'new-version-confirm-zh');
  await page.getByRole('button', { name: /确\s*认/ }).click();
  // Once another journey (imports.spec.ts runs first) has imported SKU data, SHOE303-01 is not in
  // it and the upload asks before it starts: the journey uploads anyway.
  const anyway = page.getByRole('button', { name: '仍然上传' });
  const formats = page.getByTestId('info-formats');
  await expect(anyway.or(formats.filter({ hasText: ',' }))).toBeVisible({ timeout: 30_000 });
  if (await anyway.isVisible()) await anyway.click();

  // The new format joins the same file; no second file appears.
  await expect(formats).toHaveText(/^(JPG,PNG|PNG,JPG)$/, { timeout: 30_000 });
  await page.getByTestId('viewer-close').click();
  await expect(page.getByTestId('item-card')).toHaveCount(1);
});

test('after a reload, picking the same file again finishes an interrupted upload', async ({ page }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-resume-'));
  const file = path.join(dir, 'campaign-film.mov');
  // Three parts of 8 MiB: the first is stored before the reload, the rest after it.
  fs.writeFileSync(file, Buffer.alloc(20 * 1024 * 1024, 7));
  await signIn(page);
  await page.route('**/ske-api/v1_0/file-upload/part?**', async (route) => {
    // Only part 1 gets through; the others hang as on a connection that died.
    if (partNumberOf(route.request().url()) === 1) await route.continue();
  });
  // The server's own part endpoint records each part it has stored (no part-done on this driver).
  const isStoredPart = (response: Response) =>
    response.url().includes('/file-upload/part?') && response.request().method() === 'PUT' && response.ok();
  const firstStored = page.waitForResponse(isStoredPart);
  await page.getByTestId('upload-files-input').setInputFiles(file);
  await finishUpload(page);
  await firstStored;

  page.on('dialog', (d) => void d.accept());
  // What the server stores from here on.
  const storedAfterReload: number[] = [];
  page.on('response', (response) => {
    if (isStoredPart(response)) storedAfterReload.push(partNumberOf(response.url()));
  });
  await page.reload();
  // The hanging transfers died with the old page; from now on parts go through (the route
  // added last is asked first).
  await page.route('**/ske-api/v1_0/file-upload/part?**', (route) => route.continue());

  await expect(page.getByTestId('interrupted-banner')).toContainText('有 1 个上传被中断');
  await snap(page, 'interrupted-banner-zh');
  await page.getByTestId('interrupted-banner').getByRole('link').click();
  await expect(page.getByTestId('interrupted-name')).toHaveText('campaign-film.mov');
  await snap(page, 'interrupted-records-zh');
  await page.getByTestId('repick-input').setInputFiles(file);
  await expect(page.getByTestId('upload-finished-banner')).toBeVisible({ timeout: 30_000 });
  expect(storedAfterReload.sort()).toEqual([2, 3]);
  await expect(page.getByTestId('interrupted-uploads')).toHaveCount(0);
  await page.getByRole('tab', { name: /已上传/ }).click();
  await expect(page.getByTestId('history-name').filter({ hasText: 'campaign-film.mov' })).toBeVisible();
});

test('shows the interrupted uploads and the new-version dialog in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  // A folder of its own: the top level holds every earlier journey's folders, and a file uploaded
  // there may be listed past the first page.
  await newFolder(page, 'Bag versions', { open: true });
  await page
    .getByTestId('upload-files-input')
    .setInputFiles({ name: 'BAG9-02.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) });
  await finishUpload(page);
  await expect(itemCard(page, 'BAG9-02').locator('img')).toBeVisible({ timeout: 30_000 });
  await itemCard(page, 'BAG9-02').getByRole('button', { name: 'BAG9-02' }).click();
  await page
    .getByTestId('new-version-input')
    .setInputFiles({ name: 'other.png', mimeType: 'image/png', buffer: await makePng(400, 300) });
  await expect(page.locator('.ant-modal-title')).toHaveText('Upload a new version: BAG9-02');
  await snap(page, 'new-version-dialog-en');
});

/**
 * SKU data as an administrator imports it: an .xlsx uploaded under import management, checked
 * (dry run), applied, then listed on the SKU data tab.
 */
async function importSkus(page: Page, rows: Array<[string, string]>, shot?: string) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('SKU');
  sheet.addRow(['货号', '名称']);
  for (const row of rows) sheet.addRow(row);
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  await page.getByTestId('manage-entry').click();
  await page.getByRole('tab', { name: '导入管理' }).click();
  await expect(page.getByTestId('import-upload')).toBeVisible();
  await page.getByTestId('import-input').setInputFiles({
    name: 'sku.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  const current = page.getByTestId('import-current');
  await expect(current.getByTestId('import-status')).toHaveText('待应用');
  await current.getByTestId('import-apply').click();
  await expect(current.getByTestId('import-status')).toHaveText('已应用');
  await page.getByRole('tab', { name: 'SKU 数据' }).click();
  await expect(page.getByTestId('sku-page')).toBeVisible();
  // Other journeys import SKU data too: the list is searched for this import's common prefix.
  const prefix = rows
    .map(([artNum]) => artNum)
    .reduce((a, b) => {
      let n = 0;
      while (n < a.length && a[n] === b[n]) n += 1;
      return a.slice(0, n);
    });
  await page.getByTestId('sku-search').locator('input').fill(prefix);
  await page.getByTestId('sku-search').locator('input').press('Enter');
  await expect(page.getByTestId('sku-art-num')).toHaveText(rows.map(([artNum]) => artNum));
  if (shot) await snap(page, shot);
}

// Runs after the tests above: once SKU data exists, the names they upload would be flagged too.
test('flags article numbers that are not in the SKU data before the upload starts', async ({ page }) => {
  await signIn(page);
  await importSkus(
    page,
    [
      ['SHOE500-01', '疾风跑鞋 黑'],
      ['SHOE500-02', '疾风跑鞋 白'],
    ],
    'sku-import-zh',
  );
  await expect(page.getByTestId('import-summary')).toHaveText('已应用：新增 2，更新 0，0 行不变');
  await page.getByRole('link', { name: '全部文件' }).click();
  await newFolder(page, 'SKU 标记', { open: true });
  await page.getByTestId('upload-files-input').setInputFiles([
    { name: 'SHOE500-01_side.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
    { name: 'SHOE777-07_side.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
  ]);
  const dialog = page.getByRole('dialog');
  const row = (name: string) => dialog.getByRole('listitem').filter({ hasText: name });
  await expect(row('SHOE500-01_side.jpg').getByPlaceholder('货号')).toHaveValue('SHOE500-01');
  await expect(row('SHOE777-07_side.jpg').getByPlaceholder('货号')).toHaveValue('SHOE777-07');
  await expect(row('SHOE777-07_side.jpg').getByTestId('unknown-art-num')).toHaveText('不在 SKU 数据中');
  await expect(row('SHOE500-01_side.jpg').getByTestId('unknown-art-num')).toHaveCount(0);
  await expect(dialog.getByTestId('unknown-art-num-summary')).toContainText('1 个文件的货号不在 SKU 数据中');
  await snap(page, 'upload-unknown-art-num-zh');

  // Correcting the number clears the flag (checked again once typing pauses).
  await row('SHOE777-07_side.jpg').getByPlaceholder('货号').fill('SHOE500-02');
  await expect(dialog.getByTestId('unknown-art-num')).toHaveCount(0);
  await row('SHOE777-07_side.jpg').getByPlaceholder('货号').fill('SHOE777-07');
  await expect(dialog.getByTestId('unknown-art-num')).toHaveCount(1);

  // Starting asks first; cancelling keeps the dialog, confirming uploads.
  await page.getByTestId('upload-finish').click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText(
    '1 个文件的货号不在 SKU 数据中，仍然上传吗？',
  );
  await page.getByRole('button', { name: '仍然上传' }).click();
  await expect(itemCard(page, 'SHOE777-07_side')).toBeVisible({ timeout: 30_000 });
  await expect(itemCard(page, 'SHOE500-01_side')).toBeVisible();
});

test('shows the article-number flag and the SKU data screen in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await page.goto('/manage/import');
  await page.getByRole('tab', { name: 'SKU data' }).click();
  await page.getByTestId('sku-search').locator('input').fill('SHOE500');
  await page.getByTestId('sku-search').locator('input').press('Enter');
  await expect(page.getByTestId('sku-art-num')).toHaveText(['SHOE500-01', 'SHOE500-02']);
  await page.getByTestId('sku-search').locator('input').fill('500-02');
  await page.getByTestId('sku-search').locator('input').press('Enter');
  await expect(page.getByTestId('sku-art-num')).toHaveText(['SHOE500-02']);
  await snap(page, 'sku-import-en');
  await page.getByRole('link', { name: 'All files' }).click();
  await page
    .getByTestId('upload-files-input')
    .setInputFiles({ name: 'SHOE888-08.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) });
  await expect(page.getByTestId('unknown-art-num')).toHaveText('Not in the SKU data');
  await snap(page, 'upload-unknown-art-num-en');
});

// After the SKU import above: the article SHOE500-01 exists.
test('a tag manager sets an article’s tags in the SKU data, and tagging its files suggests them', async ({
  page,
}) => {
  await signIn(page);
  const token = await apiToken(page);
  const saved = await page.request.post('/ske-api/v1_0/manage/update-tag', {
    headers: { token },
    data: { dimensionName: '材质SKU', tagDTOList: [{ tagName: '网布' }, { tagName: '皮革' }] },
  });
  expect(saved.ok()).toBe(true);
  await page.goto('/manage/import');
  await page.getByRole('tab', { name: 'SKU 数据' }).click();
  const row = page.getByRole('row').filter({ hasText: 'SHOE500-01' });
  await row.getByTestId('sku-edit-tags').click();
  const mesh = page.getByTestId('add-tag-dialog').getByTestId('tag-option').filter({ hasText: '网布' });
  await mesh.click();
  // Chosen before it is saved: a click that landed while the dialog was still rendering is seen here.
  await expect(page.getByTestId('tag-chosen')).toContainText('网布');
  await page.getByTestId('tag-confirm').click();
  await expect(page.getByTestId('add-tag-dialog')).toBeHidden();
  await expect(row.getByTestId('sku-tags')).toContainText('网布');
  await snap(page, 'sku-tags-zh');

  await page.getByRole('link', { name: '全部文件' }).click();
  await page
    .getByTestId('upload-files-input')
    .setInputFiles([
      { name: 'SHOE500-01_top.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
    ]);
  await page.getByTestId('upload-group-tags-1').click();
  const dialog = page.getByTestId('add-tag-dialog');
  await expect(dialog).toContainText('SHOE500-01');
  await dialog.getByTestId('tag-apply-suggestion').click();
  await expect(dialog.getByTestId('tag-chosen')).toContainText('网布');
  await snap(page, 'add-tag-suggestion-zh');
});
