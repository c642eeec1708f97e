import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { makeJpeg } from '../../server/test/fixtures';
import {
  apiToken,
  itemCard,
  newFolderWithFiles,
  reportFigureShown,
  settledReport,
  signIn,
  snap,
  switchToEnglish,
} from './support';

/** The total of one figure as the report screen shows it. */
async function total(page: Page, figure: string): Promise<number> {
  const text = (await page.getByTestId(`report-total-${figure}`).textContent()) ?? '';
  expect(text).toMatch(/^[\d,]+$/);
  return Number(text.replace(/,/g, ''));
}

/** Waits for the report of what is on screen to have been answered for the server's business days, and shown. */
async function reportAnswered(page: Page) {
  const settled = await settledReport(page);
  await reportFigureShown(page, settled, 'uploads');
  return settled;
}

test('an administrator reads a data report as charts and a table, and exports it', async ({ page }) => {
  await signIn(page);
  let answered = reportAnswered(page);
  await page.goto('/manage/data-table');
  expect((await answered).ok()).toBe(true);
  await expect(page.getByRole('tab', { name: '数据报表' })).toHaveAttribute('aria-selected', 'true');
  const uploadsBefore = await total(page, 'uploads');
  const sharesBefore = await total(page, 'shares');
  const visitsBefore = await total(page, 'shareVisits');
  const downloadsBefore = await total(page, 'downloads');

  // What the report will count: two uploads, a download, a share link and one visit to it.
  await newFolderWithFiles(page, '报表样品', [
    { name: 'RPT100-01.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(320, 240) },
    { name: 'RPT100-02.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(320, 240) },
  ]);
  // Both went live (the upload runs on after the dialog has closed).
  for (const name of ['RPT100-01', 'RPT100-02'])
    await expect(itemCard(page, name)).toBeVisible({ timeout: 30_000 });
  const token = await apiToken(page);
  const folderId = Number(new URL(page.url()).pathname.split('/').pop());
  const listing = await page.request.get(
    `/ske-api/v1_0/file/all-file-v2?folderDataId=${folderId}&pageNo=1&pageSize=60&rankStatus=0`,
    { headers: { token } },
  );
  const ids = ((await listing.json()).result.list as { id: number }[]).map((f) => f.id);
  expect(ids).toHaveLength(2);
  const zip = await page.request.post('/ske-api/v1_0/file/batch-download', {
    headers: { token },
    data: { folderDataIdList: ids },
  });
  expect(zip.ok()).toBe(true);
  const share = await page.request.post('/ske-api/v1_0/user/share/produce-random-code', {
    headers: { token },
    data: { needPassword: 0, expireTime: '7d', folderIds: ids },
  });
  const code = (await share.json()).result.code as string;
  expect((await page.request.get(`/ske-api/v1_0/user/share/random/${code}`)).ok()).toBe(true);

  answered = reportAnswered(page);
  await page.goto('/manage/data-table');
  await answered;
  await expect(page.getByTestId('report-total-uploads')).toHaveText(String(uploadsBefore + 2));
  expect(await total(page, 'downloads')).toBe(downloadsBefore + 1);
  expect(await total(page, 'shares')).toBe(sharesBefore + 1);
  expect(await total(page, 'shareVisits')).toBe(visitsBefore + 1);
  // The charts are drawn (canvas), and the table lists the department with its figures.
  await expect(page.getByTestId('report-trend-chart').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('report-breakdown-chart').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('report-table').locator('.ant-table-row').first()).toBeVisible();
  await snap(page, 'data-report-zh');

  // By file type: the doughnut and the images row.
  answered = reportAnswered(page);
  await page.getByTestId('report-dimension').getByText('文件类型').click();
  await answered;
  const images = page.getByTestId('report-table').locator('.ant-table-row', { hasText: '图片' });
  await expect(images).toBeVisible();
  await expect(page.getByTestId('report-breakdown-chart').locator('canvas')).toBeVisible();
  // The table sorts by a column a person clicks.
  await page.getByTestId('report-table').getByRole('columnheader', { name: '分享访问' }).click();
  await snap(page, 'data-report-file-types-zh');

  // Export: the workbook holds the same figures.
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('report-export').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^数据报表-\d{8}_\d{8}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  expect(workbook.worksheets.map((w) => w.name)).toEqual(['概览', '明细', '趋势']);
  const summary = new Map<string, unknown>();
  workbook.getWorksheet('概览')?.eachRow((row) => {
    summary.set(String(row.getCell(1).value), row.getCell(2).value);
  });
  expect(summary.get('上传数')).toBe(uploadsBefore + 2);
  expect(summary.get('分享访问数')).toBe(visitsBefore + 1);
  const table = JSON.stringify(workbook.getWorksheet('明细')?.getSheetValues());
  expect(table).toContain('文件类型');
  expect(table).toContain('图片');

  // A period longer than a year is refused with a clear message, and nothing is asked or exported.
  const range = page.locator('.ant-picker-range', { has: page.getByPlaceholder(/开始日期/) });
  await range.locator('input').first().click();
  await range.locator('input').first().fill('2024-01-01');
  await range.locator('input').first().press('Enter');
  await range.locator('input').nth(1).fill('2025-06-30');
  await range.locator('input').nth(1).press('Enter');
  await expect(page.getByTestId('report-period-error')).toHaveText('报表时间段不能超过 366 天，请缩短时间段');
  await expect(page.getByTestId('report-export')).toBeDisabled();
  // The figures of the earlier period are not left on screen under it.
  await expect(page.getByTestId('report-total-uploads')).toHaveText('–');
  // The server says the same to a caller that asks anyway.
  const refused = await page.request.post('/ske-api/v1_0/data-report/query', {
    headers: { token, lang: 'zh' },
    data: { startDate: '2024-01-01', endDate: '2025-06-30' },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).errorDesc).toContain('报表时间段不能超过 366 天');
  await snap(page, 'data-report-period-error-zh');
});

test('the data report in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  const answered = reportAnswered(page);
  await page.goto('/manage/data-table');
  await answered;
  await expect(page.getByRole('tab', { name: 'Data reports' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('report-scope')).toHaveText('Scope: all departments');
  await expect(page.getByTestId('report-trend-chart').locator('canvas')).toBeVisible();
  await expect(
    page.getByTestId('report-table').getByRole('columnheader', { name: 'Share visits' }),
  ).toBeVisible();
  await expect(page.getByTestId('report-footnote')).toContainText('Asia/Shanghai');
  await snap(page, 'data-report-en');
});
