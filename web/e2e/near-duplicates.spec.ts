import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { finishUpload, itemCard, newFolderWithFiles, signIn, snap, switchToEnglish } from './support';

/**
 * Issue 17 (docs/plans/issue-17-near-duplicates.md §10): a resized copy of an image already in the
 * archive is flagged in the upload dialog with the original's thumbnail; "similar images" in the
 * viewer lists the original; a third copy added as a new version joins the original; the colour
 * filter and the colour search find red, not blue.
 */

/** A product shot on white: a shoe-like shape in `colour` with a darker sole and laces. */
async function productShot(colour: string, width: number, height: number, variant = 0): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900" viewBox="0 0 1200 900">
    <rect width="1200" height="900" fill="#ffffff"/>
    <path d="M ${180 + variant * 40} 560 C 260 ${380 - variant * 30} 420 300 560 330 C 680 360 720 450 860 470
      C 980 490 1040 540 1030 610 L 1020 640 L 190 640 Z" fill="${colour}"/>
    <rect x="170" y="640" width="870" height="60" rx="20" fill="#2b2b2b"/>
    ${[0, 1, 2, 3]
      .map(
        (i) =>
          `<line x1="${520 + i * 50}" y1="${350 + i * 12}" x2="${560 + i * 50}" y2="${420 + i * 12}" stroke="#ffffff" stroke-width="10"/>`,
      )
      .join('')}
    <circle cx="${300 + variant * 80}" cy="200" r="${50 + variant * 20}" fill="#d9d9d9"/>
  </svg>`;
  return sharp(Buffer.from(svg)).resize(width, height).jpeg({ quality: 90 }).toBuffer();
}

const jpeg = (name: string, buffer: Buffer) => ({ name, mimeType: 'image/jpeg', buffer });

/** Opens a file of the listing in the viewer and its "similar images" section. */
async function openSimilar(page: Page, name: string) {
  await itemCard(page, name).getByRole('button', { name }).click();
  await expect(page.getByTestId('viewer-title')).toHaveText(name);
  await page.getByTestId('similar-section').getByRole('button').first().click();
}

async function nearDuplicateJourney(page: Page, lang: 'zh' | 'en') {
  const tag = lang === 'zh' ? 'AB9001' : 'AB9101';
  const original = `${tag}-red`;
  const copy = `${tag}-red-small`;
  const blue = `${tag}-blue`;
  await signIn(page);

  // 1. The original, and its thumbnail (the server's fingerprint is made with it).
  await newFolderWithFiles(page, lang === 'zh' ? `近似图片-${tag}` : `Near duplicates ${tag}`, [
    jpeg(`${original}.jpg`, await productShot('#cc0000', 1200, 900)),
  ]);
  const originalThumb = itemCard(page, original).locator('img');
  await expect(originalThumb).toBeVisible({ timeout: 30_000 });
  const thumbnailUrl = (await originalThumb.getAttribute('src')) as string;
  expect(thumbnailUrl).toBeTruthy();

  // 2. The same picture at 50 %: the dialog warns, with the original's thumbnail; keep both.
  await page
    .getByTestId('upload-files-input')
    .setInputFiles(jpeg(`${copy}.jpg`, await productShot('#cc0000', 600, 450)));
  const warning = page.getByTestId('similar-warning');
  await expect(warning).toBeVisible({ timeout: 30_000 });
  // (The other journey's copies of the same picture may be listed too: only the original counts here.)
  const match = warning
    .getByTestId('similar-match')
    .filter({ has: page.locator(`img[src="${thumbnailUrl}"]`) });
  await expect(match).toBeVisible();
  await expect(match).toContainText(original);
  await expect(page.getByTestId('similar-tag')).toBeVisible();
  await snap(page, `near-duplicates-${lang}`);
  await expect(warning.getByRole('radio').first()).toBeChecked();
  await finishUpload(page);
  await expect(itemCard(page, copy).locator('img')).toBeVisible({ timeout: 30_000 });
  await expect(itemCard(page, original)).toBeVisible();

  // 3. The copy's "similar images" lists the original (its fingerprint may still be on its way).
  await openSimilar(page, copy);
  const near = page.getByTestId('similar-near');
  await expect(near).toBeVisible({ timeout: 30_000 });
  const listed = near.getByTestId('similar-item').filter({ hasText: new RegExp(`^${original}(\\.jpg)?`) });
  await expect(listed).toBeVisible();
  await expect(listed.locator('img')).toHaveAttribute('src', thumbnailUrl);
  await snap(page, `similar-${lang}`);
  // Clicking it opens it in the viewer.
  await listed.click();
  await expect(page.getByTestId('viewer-title')).toHaveText(original);
  await page.getByTestId('viewer-close').click();

  // 4. A third copy, added as a new version of the original: it joins it, no new file appears.
  const third = `${tag}-red-third`;
  await page
    .getByTestId('upload-files-input')
    .setInputFiles(jpeg(`${third}.jpg`, await productShot('#cc0000', 900, 675)));
  const entry = page.locator(`[data-testid="similar-entry"][data-file="${third}.jpg"]`);
  await expect(entry).toBeVisible({ timeout: 30_000 });
  await entry.getByText(lang === 'zh' ? '添加为新版本' : 'Add as new version', { exact: true }).click();
  const targets = entry.getByTestId('similar-version-target');
  // The copy of step 2 is a match too: the original is picked among them.
  await expect(targets).toBeVisible();
  await targets.getByText(original, { exact: true }).first().click();
  await expect(entry.getByTestId('similar-version-path')).toContainText(`/${original}.jpg`);
  await snap(page, `near-duplicates-version-${lang}`);
  await finishUpload(page);
  const panel = page.getByTestId('upload-panel');
  await expect
    .poll(async () => Number(await panel.getByTestId('upload-panel-progress').getAttribute('data-percent')), {
      timeout: 30_000,
    })
    .toBe(100);
  await page.reload();
  await expect(itemCard(page, original)).toBeVisible({ timeout: 30_000 });
  await expect(itemCard(page, third)).toHaveCount(0);
  await itemCard(page, original).getByRole('button', { name: original }).click();
  await expect(page.getByTestId('viewer-title')).toHaveText(original);
  await expect(page.getByTestId('info-records').locator('.ant-list-item')).toHaveCount(2, {
    timeout: 30_000,
  });
  await page.getByTestId('viewer-close').click();

  // 5. A TIFF copy, which the browser cannot compare: the upload panel finds it similar once the
  // server has its fingerprint, and adds it as a new version of the original from there.
  const tiff = `${tag}-red-scan`;
  const tiffBytes = await sharp(await productShot('#cc0000', 800, 600))
    .tiff()
    .toBuffer();
  await page
    .getByTestId('upload-files-input')
    .setInputFiles({ name: `${tiff}.tif`, mimeType: 'image/tiff', buffer: tiffBytes });
  await expect(page.getByTestId('similar-warning')).toHaveCount(0);
  await finishUpload(page);
  const note = panel
    .locator(`[data-testid="upload-panel-row"][data-name="${tiff}.tif"]`)
    .getByTestId('upload-panel-similar');
  await expect(note).toBeVisible({ timeout: 60_000 });
  // (The third copy of step 4, smaller than the original, was kept behind it: the dialog proposes
  // keeping the larger current, issue 39 item 9.)
  await expect(note.getByTestId('upload-panel-similar-item').first()).toBeVisible();
  await snap(page, `upload-panel-similar-${lang}`);
  await note.getByTestId('upload-panel-similar-version').click();
  // The original and the copy of step 2 both match: the original is picked by its path.
  await page.getByRole('menuitem', { name: new RegExp(`/${original}$`) }).click();
  await expect(note).toHaveCount(0);
  await expect(itemCard(page, tiff)).toHaveCount(0, { timeout: 30_000 });
  await itemCard(page, original).getByRole('button', { name: original }).click();
  await expect(page.getByTestId('info-records').locator('.ant-list-item')).toHaveCount(3, {
    timeout: 30_000,
  });
  await page.getByTestId('viewer-close').click();

  // 6. A blue picture; the folder filtered by red lists the red files and not the blue one.
  await page
    .getByTestId('upload-files-input')
    .setInputFiles(jpeg(`${blue}.jpg`, await productShot('#0033cc', 1200, 900, 1)));
  await expect(page.getByTestId('similar-warning')).toHaveCount(0);
  await finishUpload(page);
  await expect(itemCard(page, blue).locator('img')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('filter-button').click();
  await page.getByTestId('colour-preset-red').click();
  await expect(page.getByTestId('colour-tolerance')).toBeVisible();
  await snap(page, `colour-filter-${lang}`);
  await page.getByTestId('filter-apply').click();
  await expect(itemCard(page, original)).toBeVisible();
  await expect(itemCard(page, copy)).toBeVisible();
  await expect(itemCard(page, blue)).toHaveCount(0);

  // The same from the search bar: a colour alone is a search.
  await page.getByTestId('search-colour').click();
  await page.getByTestId('search-colour-panel').getByTestId('colour-preset-red').click();
  await snap(page, `colour-search-${lang}`);
  await page.getByTestId('search-colour-go').click();
  await page.waitForURL(/colour=%23cc0000/);
  await expect(page.getByTestId('search-results-colour')).toBeVisible();
  await expect(itemCard(page, original)).toBeVisible();
  await expect(itemCard(page, blue)).toHaveCount(0);
}

test('a resized copy is flagged at upload, listed as similar, and colour search finds red not blue', async ({
  page,
}) => {
  await nearDuplicateJourney(page, 'zh');
});

test('shows the near-duplicate warning and similar images in English', async ({ page }) => {
  await switchToEnglish(page);
  await nearDuplicateJourney(page, 'en');
});
