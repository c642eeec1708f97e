import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { makePdf } from '../../server/test/fixtures';
import {
  apiToken,
  finishUpload,
  newFolder,
  newFolderWithFiles,
  signIn,
  snap,
  switchToEnglish,
  uploadsFinished,
} from './support';

/**
 * Issue 39 items 7 and 8, as a person uploading a season's batch meets them: the near-duplicate
 * check after upload survives the server saying "too many requests" (it waits and asks again,
 * batched, and nothing is skipped), and season codes in file names are not taken for article numbers.
 */

/** A picture of coloured discs placed by `seed`: each seed a different picture, stable across sizes. */
function discs(seed: number, width: number, height: number): Promise<Buffer> {
  let state = seed * 7919 + 17;
  const next = () => {
    state = (state * 48_271) % 2_147_483_647;
    return state / 2_147_483_647;
  };
  const shapes = Array.from({ length: 6 }, () => {
    const [x, y, r] = [next() * 400, next() * 300, 20 + next() * 60];
    const hue = Math.round(next() * 360);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${hue} 70% 50%)"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">
    <rect width="400" height="300" fill="hsl(${(seed * 47) % 360} 30% 85%)"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg)).resize(width, height).tiff().toBuffer();
}

const tiff = (name: string, buffer: Buffer) => ({ name, mimeType: 'image/tiff', buffer });

/** The browser's own errors: a refused call the page handles still shows as "Failed to load resource". */
function appErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(message.text());
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function bulkUploadJourney(page: Page, lang: 'zh' | 'en', count: number) {
  // 31 uploads and their media jobs on the embedded database.
  test.setTimeout(300_000);
  const errors = appErrors(page);
  const seed = lang === 'zh' ? 3900 : 3950;
  await signIn(page);
  const originalName = `batch-original-${seed}`;
  await newFolderWithFiles(page, lang === 'zh' ? `批量上传-${seed}` : `Bulk upload ${seed}`, [
    tiff(`${originalName}.tif`, await discs(seed, 800, 600)),
  ]);

  // The first near-duplicate call of the batch is refused as the server refuses a person over
  // their lookup budget: 429 with Retry-After. Every later call goes through to the server.
  const calls: number[][] = [];
  await page.route('**/file-upload/similar-after', async (route) => {
    calls.push((route.request().postDataJSON() as { idList: number[] }).idList);
    if (calls.length === 1) {
      await route.fulfill({
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '2' },
        body: JSON.stringify({ success: false, result: null, errorCode: 'SE_429', errorDesc: 'too many' }),
      });
      return;
    }
    await route.continue();
  });

  // TIFFs (the browser cannot compare them: all are checked after upload), one a smaller copy.
  const batch = [tiff(`batch-copy-${seed}.tif`, await discs(seed, 400, 300))];
  for (let i = 1; i < count; i++) batch.push(tiff(`batch-${seed}-${i}.tif`, await discs(seed + i, 320, 240)));
  await page.getByTestId('upload-files-input').setInputFiles(batch);
  await finishUpload(page);

  const panel = page.getByTestId('upload-panel');
  const copyRow = panel.locator(`[data-testid="upload-panel-row"][data-name="batch-copy-${seed}.tif"]`);
  await expect(copyRow.getByTestId('upload-panel-similar')).toBeVisible({ timeout: 90_000 });
  await snap(page, `bulk-upload-similar-${lang}`);
  // Refused once, asked again: the refused uploads and every other one are asked about after the
  // 429; uploads finishing together share a call, and an answered upload is not asked again (before,
  // each call asked about every upload of the page so far: 1 + 2 + … + 31 ids).
  const askedAfter = () => new Set(calls.slice(1).flat());
  await expect
    .poll(
      () => {
        const asked = askedAfter();
        const done = (calls[0] ?? []).every((id) => asked.has(id)) && asked.size >= count;
        return done ? 'all asked' : JSON.stringify(calls);
      },
      { timeout: 150_000 },
    )
    .toBe('all asked');
  expect(calls[0]?.length).toBeGreaterThan(0);
  expect(calls.slice(1).flat().length).toBeLessThanOrEqual(2 * (count + 1));
  await expect(panel.getByTestId('upload-panel-similar-not-done')).toHaveCount(0);
  expect(errors).toEqual([]);
}

test('bulk upload: a refused near-duplicate check is asked again after Retry-After, never dropped', async ({
  page,
}) => {
  await bulkUploadJourney(page, 'zh', 30);
});

test('bulk upload in English: the check survives a 429', async ({ page }) => {
  await switchToEnglish(page);
  await bulkUploadJourney(page, 'en', 12);
});

/** A check the server keeps failing is tried a few times, then the panel says it was not done. */
async function checkNotDoneJourney(page: Page, lang: 'zh' | 'en') {
  const errors = appErrors(page);
  const seed = lang === 'zh' ? 3990 : 3995;
  await signIn(page);
  await page.route('**/file-upload/similar-after', (route) =>
    route.fulfill({ status: 503, headers: { 'content-type': 'text/plain' }, body: 'unavailable' }),
  );
  await newFolderWithFiles(page, lang === 'zh' ? `检查失败-${seed}` : `Check failing ${seed}`, [
    tiff(`unchecked-${seed}.tif`, await discs(seed, 320, 240)),
  ]);
  const row = page.locator(`[data-testid="upload-panel-row"][data-name="unchecked-${seed}.tif"]`);
  await expect(row.getByTestId('upload-panel-similar-not-done')).toHaveText(
    lang === 'zh'
      ? '未完成相似检查（服务器未应答）'
      : 'Near-duplicate check not done (the server did not answer)',
    { timeout: 60_000 },
  );
  await snap(page, `upload-panel-check-not-done-${lang}`);
  expect(errors).toEqual([]);
}

test('a near-duplicate check the server keeps failing is shown as not done', async ({ page }) => {
  await checkNotDoneJourney(page, 'zh');
});

test('a failing near-duplicate check, in English', async ({ page }) => {
  await switchToEnglish(page);
  await checkNotDoneJourney(page, 'en');
});

/** SKU data naming `artNum`, imported as an administrator would. */
async function importSku(page: Page, artNum: string) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('SKU');
  sheet.addRow(['货号', '名称', '季节', '品类']);
  sheet.addRow([artNum, `跑鞋 ${artNum}`, '2026春夏', '跑步']);
  const answer = await page.request.post('/ske-api/v1_0/sku/import', {
    headers: { token: await apiToken(page) },
    multipart: {
      file: {
        name: 'sku.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(await workbook.xlsx.writeBuffer()),
      },
    },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

async function seasonCodeJourney(page: Page, lang: 'zh' | 'en') {
  await signIn(page);
  const artNum = lang === 'zh' ? 'QS4711' : 'QS4712';
  await importSku(page, artNum);
  await page.goto('/allfiles/all');
  await newFolder(page, lang === 'zh' ? `季度画册-${artNum}` : `Season lookbook ${artNum}`, { open: true });
  // The names' article numbers come from the server: slowed here, Finish waits for them rather than
  // sending the files without (before, a quick Finish uploaded them with no article number).
  await page.route('**/sku/file-tag-info', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await route.continue();
  });
  const created = page.waitForRequest('**/file-upload/upload');
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();
  await page.getByTestId('upload-files-input').setInputFiles([
    { name: 'SS26_lookbook_3pages.pdf', mimeType: 'application/pdf', buffer: makePdf(3) },
    { name: 'FW25-campaign.jpg', mimeType: 'image/jpeg', buffer: jpeg },
    { name: `${artNum}_SS26_front.jpg`, mimeType: 'image/jpeg', buffer: jpeg },
  ]);
  const row = (name: string) => page.locator('.ant-list-item').filter({ hasText: name });
  const artNumOf = (name: string) => row(name).getByPlaceholder(/货号|Article/);
  // Season codes are not article numbers: nothing filled in, nothing flagged as unknown.
  await expect(artNumOf(`${artNum}_SS26_front.jpg`)).toHaveValue(artNum);
  await expect(artNumOf('SS26_lookbook_3pages.pdf')).toHaveValue('');
  await expect(artNumOf('FW25-campaign.jpg')).toHaveValue('');
  await expect(page.getByTestId('unknown-art-num')).toHaveCount(0);
  await snap(page, `season-codes-${lang}`);
  await finishUpload(page);
  const sent = (await created).postDataJSON() as {
    uploadDetailDTOS: { fileName: string; artNum?: string }[];
  };
  const artNumSent = (name: string) => sent.uploadDetailDTOS.find((entry) => entry.fileName === name)?.artNum;
  expect(artNumSent(`${artNum}_SS26_front.jpg`)).toBe(artNum);
  expect(artNumSent('SS26_lookbook_3pages.pdf') ?? '').toBe('');
  await uploadsFinished(page, 3);
}

test('a quick Finish waits for the article numbers read from the names', async ({ page }) => {
  await signIn(page);
  const artNum = 'QS4713';
  await importSku(page, artNum);
  await page.goto('/allfiles/all');
  await newFolder(page, `快速完成-${artNum}`, { open: true });
  await page.route('**/sku/file-tag-info', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await route.continue();
  });
  const created = page.waitForRequest('**/file-upload/upload');
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#aa3366' } })
    .jpeg()
    .toBuffer();
  await page
    .getByTestId('upload-files-input')
    .setInputFiles([{ name: `${artNum}_front.jpg`, mimeType: 'image/jpeg', buffer: jpeg }]);
  // Clicked at once: the button waits for the names' answer, then the upload carries the number.
  await finishUpload(page);
  const sent = (await created).postDataJSON() as {
    uploadDetailDTOS: { fileName: string; artNum?: string }[];
  };
  expect(sent.uploadDetailDTOS[0]?.artNum).toBe(artNum);
  await uploadsFinished(page, 1);
});

test('season codes in file names are not read as article numbers', async ({ page }) => {
  await seasonCodeJourney(page, 'zh');
});

test('season codes are not article numbers, in English', async ({ page }) => {
  await switchToEnglish(page);
  await seasonCodeJourney(page, 'en');
});
