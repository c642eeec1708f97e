import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { makeJpeg } from '../../server/test/fixtures';
import { apiToken, itemCard, newFolderWithFiles, signIn, snap, switchToEnglish } from './support';

test('tags go out as a workbook and come back through a checked preview', async ({ page }) => {
  await signIn(page);
  const token = await apiToken(page);
  const saved = await page.request.post('/ske-api/v1_0/manage/update-tag', {
    headers: { token },
    data: { dimensionName: '颜色XL', tagDTOList: [{ tagName: '黑' }, { tagName: '白' }] },
  });
  expect(saved.ok()).toBe(true);
  await newFolderWithFiles(page, '标签表', [
    { name: 'XL1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
    { name: 'XL2.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
  ]);
  for (const name of ['XL1', 'XL2']) await expect(itemCard(page, name)).toBeVisible({ timeout: 30_000 });

  // Export the selection's tags.
  await itemCard(page, 'XL1').getByRole('checkbox').check();
  await itemCard(page, 'XL2').getByRole('checkbox').check();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('selection-more').click();
  await page.getByTestId('selection-export-tags').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await download.path());
  const sheet = book.worksheets[0] as ExcelJS.Worksheet;
  const header = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
  const colour = header.indexOf('颜色XL');
  const nameColumn = header.indexOf('名称');
  expect(colour).toBeGreaterThan(0);
  const rowOf = (name: string) => {
    let found = 0;
    sheet.eachRow((row, number) => {
      if (row.getCell(nameColumn).value === name) found = number;
    });
    return sheet.getRow(found);
  };
  // XL1 becomes 黑; XL2 gets a colour that does not exist: a problem the preview names.
  rowOf('XL1').getCell(colour).value = '黑';
  rowOf('XL2').getCell(colour).value = '紫';
  const withProblem = Buffer.from(await book.xlsx.writeBuffer());
  rowOf('XL2').getCell(colour).value = '白';
  const fixed = Buffer.from(await book.xlsx.writeBuffer());

  await page.goto('/manage/tag');
  await page.getByTestId('tag-import-open').click();
  const mime = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  await page
    .getByTestId('tag-import-input')
    .setInputFiles({ name: 'tags.xlsx', mimeType: mime, buffer: withProblem });
  await expect(page.getByTestId('tag-import-summary')).toContainText('1 处问题');
  await expect(page.getByTestId('tag-import-problem')).toContainText('紫');
  await expect(page.getByTestId('tag-import-apply')).toBeDisabled();
  await snap(page, 'tag-import-problem-zh');

  await page
    .getByTestId('tag-import-input')
    .setInputFiles({ name: 'tags.xlsx', mimeType: mime, buffer: fixed });
  await expect(page.getByTestId('tag-import-summary')).toContainText('2 个文件的标签将改变');
  await expect(page.getByTestId('tag-import-change')).toHaveCount(2);
  await snap(page, 'tag-import-preview-zh');
  await page.getByTestId('tag-import-apply').click();
  await expect(page.getByText('已更新 2 个文件的标签')).toBeVisible();

  // The files carry the imported tags.
  await page.goto('/allfiles/all');
  await itemCard(page, '标签表').getByRole('button', { name: '标签表' }).click();
  await itemCard(page, 'XL2').getByRole('button', { name: 'XL2' }).click();
  await expect(page.getByTestId('file-tags')).toContainText('颜色XL：白');
});

test('the tag import dialog in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await page.goto('/manage/tag');
  await page.getByTestId('tag-import-open').click();
  await expect(page.getByTestId('tag-import-dialog')).toContainText('It is checked first');
  await expect(page.getByTestId('tag-import-apply')).toBeDisabled();
  await snap(page, 'tag-import-en');
});
