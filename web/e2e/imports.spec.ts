import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiToken, signIn, snap, switchToEnglish } from './support';

/**
 * Import management (issue 14, /manage/import): a workbook is checked first (dry run: what would
 * change, problems by row and column, nothing changed), applied whole, and kept in the history;
 * a file with bad rows applies nothing and gives an error report to download.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function openImports(page: Page, tabName: string) {
  await page.getByTestId('manage-entry').click();
  await page.getByRole('tab', { name: tabName }).click();
  await expect(page.getByTestId('import-upload')).toBeVisible();
}

async function upload(page: Page, name: string, buffer: Buffer, mimeType = XLSX) {
  await page.getByTestId('import-input').setInputFiles({ name, mimeType, buffer });
}

test('an administrator dry-runs, applies and reviews imports of SKU data and article tags', async ({
  page,
}) => {
  const id = randomBytes(3).toString('hex').toUpperCase();
  const art = (n: number) => `IMP${id}-${n}`;
  await signIn(page);
  await openImports(page, '导入管理');
  const current = page.getByTestId('import-current');
  const status = current.getByTestId('import-status');

  // Not a workbook: refused at once, with the reason; nothing is kept.
  await upload(page, 'notes.csv', Buffer.from('货号,名称\nA,B\n'), 'text/csv');
  await expect(page.getByTestId('import-refused')).toContainText('文件不是可读取的 Excel（.xlsx）工作簿');

  // Bad rows: the check names each row and column, nothing can be applied, the report downloads.
  await upload(
    page,
    `bad-${id}.xlsx`,
    await xlsx([
      ['货号', '名称', '颜色'],
      [art(1), '跑鞋', '黑'],
      [art(2), '', '白'],
      [art(1), '重复', ''],
    ]),
  );
  await expect(status).toHaveText('有错误');
  await expect(current.getByTestId('import-summary')).toContainText('发现 2 个问题，没有应用任何数据');
  await expect(current.getByTestId('import-problems').locator('tbody tr')).toHaveText([
    /^3B \(名称\)不能为空$/,
    new RegExp(`^4A \\(货号\\)货号 ${art(1)} 已在第 2 行出现$`),
  ]);
  await expect(current.getByTestId('import-apply')).toHaveCount(0);
  await expect(current.getByTestId('import-progress')).toHaveAttribute('aria-valuenow', '100');
  await snap(page, 'imports-rejected-zh');
  const download = page.waitForEvent('download');
  await current.getByTestId('import-report').click();
  const report = await download;
  expect(report.suggestedFilename()).toMatch(/^导入错误报告-\d+\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(fs.readFileSync(await report.path()) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  expect(sheet?.getRow(1).values).toEqual([undefined, '行', '列', '问题', '货号', '名称', '颜色']);
  expect([2, 3].map((n) => [sheet?.getCell(n, 1).value, sheet?.getCell(n, 2).value])).toEqual([
    [3, 'B (名称)'],
    [4, 'A (货号)'],
  ]);

  // A good file: what would change, nothing changed yet; applied whole.
  await upload(
    page,
    `sku-${id}.xlsx`,
    await xlsx([
      ['货号', '名称', '颜色'],
      [art(1), '疾风跑鞋', '黑'],
      [art(2), '疾风跑鞋 二代', '白'],
    ]),
  );
  await expect(status).toHaveText('待应用');
  await expect(current.getByTestId('import-summary')).toContainText(
    '检查通过：共 2 行，将新增 2，更新 0，0 行不变',
  );
  await expect(current.getByTestId('import-change-art-num')).toHaveText([art(1), art(2)]);
  await snap(page, 'imports-dry-run-zh');
  await page.getByRole('tab', { name: 'SKU 数据' }).click();
  await page.getByTestId('sku-search').locator('input').fill(`IMP${id}`);
  await page.getByTestId('sku-search').locator('input').press('Enter');
  await expect(page.getByTestId('sku-page')).toContainText('没有匹配的货号');
  await page.getByRole('tab', { name: '导入任务' }).click();
  await current.getByTestId('import-apply').click();
  await expect(status).toHaveText('已应用');
  await expect(current.getByTestId('import-summary')).toHaveText('已应用：新增 2，更新 0，0 行不变');
  const history = page.getByTestId('import-history');
  const row = (file: string) => history.locator('tbody tr').filter({ hasText: file });
  await expect(row(`sku-${id}.xlsx`).getByTestId('import-status')).toHaveText('已应用');
  await expect(row(`sku-${id}.xlsx`)).toContainText('新增 2，更新 0，不变 0');
  await expect(row(`bad-${id}.xlsx`)).toContainText('2 个问题');
  await snap(page, 'imports-applied-zh');
  await history.scrollIntoViewIfNeeded();
  await snap(page, 'imports-history-zh');

  // Article tags: a dimension made by the tag manager, its tags assigned by article number.
  const dimension = `季节${id}`;
  const saved = await page.request.post('/ske-api/v1_0/manage/update-tag', {
    headers: { token: await apiToken(page) },
    data: { dimensionName: dimension, tagDTOList: [{ tagName: `春夏${id}` }, { tagName: `秋冬${id}` }] },
  });
  expect(saved.ok()).toBe(true);
  await page.getByTestId('import-kind').getByText('货号标签').click();
  await upload(
    page,
    `tags-${id}.xlsx`,
    await xlsx([
      ['货号', dimension],
      [art(1), `春夏${id}`],
      [art(2), `春夏${id}，秋冬${id}`],
    ]),
  );
  await expect(status).toHaveText('待应用');
  await expect(current.getByTestId('import-changes')).toContainText(`${dimension}：（空） → 春夏${id}`);
  await snap(page, 'imports-tags-dry-run-zh');
  await current.getByTestId('import-apply').click();
  await expect(status).toHaveText('已应用');
  await page.getByRole('tab', { name: 'SKU 数据' }).click();
  await page.getByTestId('sku-search').locator('input').fill(`IMP${id}`);
  await page.getByTestId('sku-search').locator('input').press('Enter');
  await expect(page.getByTestId('sku-art-num')).toHaveText([art(1), art(2)]);
  await expect(page.getByTestId('sku-tags').nth(0)).toContainText(`春夏${id}`);
  await expect(page.getByTestId('sku-tags').nth(1)).toContainText(`春夏${id}秋冬${id}`);
});

test('shows import management in English', async ({ page }) => {
  const id = randomBytes(3).toString('hex').toUpperCase();
  await switchToEnglish(page);
  await signIn(page);
  await openImports(page, 'Import management');
  await upload(page, `empty-${id}.xlsx`, await xlsx([['Article number', 'Name']]));
  await expect(page.getByTestId('import-refused')).toContainText(
    'The file has no data rows: the first row is the header, data starts on the second',
  );
  await upload(
    page,
    `bad-${id}.xlsx`,
    await xlsx([
      ['Article number', 'Name'],
      [`EN${id}-1`, 'x'.repeat(201)],
      [`EN${id}-2`, 'Runner'],
    ]),
  );
  const current = page.getByTestId('import-current');
  await expect(current.getByTestId('import-status')).toHaveText('Has errors');
  await expect(current.getByTestId('import-problem')).toHaveText(['must be at most 200 characters']);
  await expect(current.getByTestId('import-summary')).toContainText('Problems found: 1; nothing was applied');
  await snap(page, 'imports-en');
  const history = page.getByTestId('import-history');
  await expect(history.locator('tbody tr').filter({ hasText: `bad-${id}.xlsx` })).toContainText(
    'Problems: 1',
  );
  await history.scrollIntoViewIfNeeded();
  await snap(page, 'imports-history-en');
});
