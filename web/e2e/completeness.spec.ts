import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { makeJpeg } from '../../server/test/fixtures';
import {
  apiToken,
  finishUpload,
  itemCard,
  newFolderWithFiles,
  signIn,
  snap,
  switchToEnglish,
} from './support';

/**
 * The SKU completeness report (issue 14): an administrator sees which expected views an article
 * number lacks, uploads the missing one from its cell, and the cell turns complete. Each journey
 * makes its own season and article numbers (unique per run), so it runs alone or after others.
 */

const run = () => `${Date.now() % 1_000_000}${Math.floor(Math.random() * 90) + 10}`;

/** SKU data of one season, imported through the SKU import call as an administrator would. */
async function importSeason(page: Page, season: string, artNums: string[]) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('SKU');
  sheet.addRow(['货号', '名称', '季节', '品类']);
  for (const artNum of artNums) sheet.addRow([artNum, `跑鞋 ${artNum}`, season, '跑步']);
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  const answer = await page.request.post('/ske-api/v1_0/sku/import', {
    headers: { token: await apiToken(page) },
    multipart: {
      file: {
        name: 'sku.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer,
      },
    },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

/** The expectation of these journeys: front, side and back as JPG. */
async function expectFrontSideBack(page: Page) {
  const answer = await page.request.post('/ske-api/v1_0/manage/completeness/config', {
    headers: { token: await apiToken(page) },
    data: {
      views: [
        { name: '正面', code: 'front', formats: ['jpg'] },
        { name: '侧面', code: 'side', formats: ['jpg'] },
        { name: '背面', code: 'back', formats: ['jpg'] },
      ],
      defaultFolderId: null,
    },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

const jpeg = async (name: string) => ({ name, mimeType: 'image/jpeg', buffer: await makeJpeg(320, 240) });
const cell = (page: Page, artNum: string, key: string) => page.getByTestId(`cell-${artNum}-${key}`);

/** The report opens on the season added last: the journey's own, imported just before. */
async function openReport(page: Page, season: string) {
  await page.goto('/manage/completeness');
  await expect(page.getByTestId('completeness-page')).toBeVisible();
  await expect(page.getByTestId('completeness-seasons')).toContainText(season);
}

test('the report shows a missing view, its cell uploads it and turns complete', async ({ page }) => {
  test.slow();
  const id = run();
  const season = `26SS-${id}`;
  const full = `CPA${id}-01`;
  const partial = `CPB${id}-01`;
  const folder = `完整度 ${id}`;
  await signIn(page);
  await importSeason(page, season, [full, partial]);
  await expectFrontSideBack(page);
  await newFolderWithFiles(page, folder, [
    await jpeg(`${full}_front.jpg`),
    await jpeg(`${full}_side.jpg`),
    await jpeg(`${full}_back.jpg`),
    await jpeg(`${partial}_front.jpg`),
  ]);
  // All four live before the report is read (the upload runs on after the dialog has closed).
  for (const name of [`${full}_front`, `${full}_side`, `${full}_back`, `${partial}_front`])
    await expect(itemCard(page, name)).toBeVisible({ timeout: 30_000 });

  // The admin area's tab of the report, for holders of code 6.
  await page.getByTestId('manage-entry').click();
  await page
    .getByTestId('manage-tabs')
    .getByRole('tab', { name: /货号完整度/ })
    .click();
  await expect(page).toHaveURL(/\/manage\/completeness$/);
  await openReport(page, season);
  const table = page.getByTestId('completeness-table');
  await expect(table.getByTestId('completeness-art-num')).toHaveText([full, partial]);
  await expect(cell(page, full, 'side-jpg')).toHaveAttribute('data-state', 'present');
  await expect(cell(page, partial, 'front-jpg')).toHaveAttribute('data-state', 'present');
  await expect(cell(page, partial, 'side-jpg')).toHaveAttribute('data-state', 'missing');
  await expect(cell(page, partial, 'back-jpg')).toHaveAttribute('data-state', 'missing');
  const seasonRow = page
    .getByTestId('completeness-seasons-table')
    .getByRole('row')
    .filter({ hasText: season });
  await expect(seasonRow).toContainText('4 / 6');
  await snap(page, 'completeness-zh');

  // Only the incomplete ones.
  await page.getByTestId('completeness-status').getByText('不完整').click();
  await expect(table.getByTestId('completeness-art-num')).toHaveText([partial]);

  // The missing side view: the cell opens the file chooser, then the upload dialog with the
  // article's folder, its number, and the file named for the view.
  const chooser = page.waitForEvent('filechooser');
  await cell(page, partial, 'side-jpg').click();
  await (await chooser).setFiles(await jpeg('IMG_0042.jpg'));
  const dialog = page.getByRole('dialog');
  await expect(page.getByTestId('upload-target')).toHaveText(`/${folder}`);
  await expect(dialog.getByText(`${partial}_side.jpg`)).toBeVisible();
  await expect(
    dialog
      .getByRole('listitem')
      .filter({ hasText: `${partial}_side.jpg` })
      .getByPlaceholder('货号'),
  ).toHaveValue(partial);
  await snap(page, 'completeness-upload-dialog-zh');
  await finishUpload(page);

  // Once the upload has finished the cell is complete.
  await page.getByTestId('completeness-status').getByText('全部').click();
  await expect(cell(page, partial, 'side-jpg')).toHaveAttribute('data-state', 'present', { timeout: 30_000 });
  await expect(cell(page, partial, 'back-jpg')).toHaveAttribute('data-state', 'missing');
  await expect(seasonRow).toContainText('5 / 6');

  // The list to act on, as a workbook.
  const download = page.waitForEvent('download');
  await page.getByTestId('completeness-export').click();
  const file = await (await download).path();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(fs.readFileSync(file) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
  expect(sheet.getRow(1).getCell(1).value).toBe('货号');
  expect(sheet.getRow(3).getCell(1).value).toBe(partial);
  expect(sheet.getRow(3).getCell(7).value).toBe('缺');

  // The expectation, as an administrator edits it.
  await page.getByTestId('completeness-expectation').click();
  await expect(page.getByTestId('view-code-1')).toHaveValue('side');
  await snap(page, 'completeness-expectation-zh');
});

test('the report in English, and a bad expectation refused with its reason', async ({ page }) => {
  const id = run();
  const season = `26FW-${id}`;
  const artNum = `CPE${id}-02`;
  await switchToEnglish(page);
  await signIn(page);
  await importSeason(page, season, [artNum]);
  await expectFrontSideBack(page);
  await newFolderWithFiles(page, `Completeness ${id}`, [await jpeg(`${artNum}_back.jpg`)]);
  // Live before the report is read (the upload runs on after the dialog has closed).
  await expect(itemCard(page, `${artNum}_back`)).toBeVisible({ timeout: 30_000 });

  await openReport(page, season);
  await expect(page.getByTestId('completeness-table').getByTestId('completeness-art-num')).toHaveText([
    artNum,
  ]);
  await expect(cell(page, artNum, 'back-jpg')).toHaveAttribute('data-state', 'present');
  await expect(cell(page, artNum, 'front-jpg')).toHaveAttribute('data-state', 'missing');
  await expect(page.getByText('By season')).toBeVisible();
  await snap(page, 'completeness-en');

  await page.getByTestId('completeness-expectation').click();
  await expect(page.getByTestId('expectation-dialog')).toBeVisible();
  await page.getByTestId('view-code-1').fill('Side View!');
  await page.getByTestId('expectation-save').click();
  await expect(page.getByTestId('expectation-problem')).toContainText(
    'views.1.code: only letters (of any script) and digits',
  );
  await snap(page, 'completeness-expectation-en');
  await page.getByRole('button', { name: 'Cancel' }).click();
  // Nothing changed: the side view is still expected.
  await expect(cell(page, artNum, 'side-jpg')).toHaveAttribute('data-state', 'missing');
});
