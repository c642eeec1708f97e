import { expect, type Page, test } from '@playwright/test';
import { writeWithExiftool } from '../../server/test/exiftool-cli';
import { makeJpeg } from '../../server/test/fixtures';
import { expectAccessible } from './axe';
import { itemCard, newFolderWithFiles, signIn, snapBothSizes, switchToEnglish } from './support';

/**
 * Issue 42 item 2: files whose creator, keywords and capture dates Debian's ExifTool wrote, found
 * by the search bar's metadata popover (creator, then a range of capture days), the active filters
 * shown as chips on the results page, one removed. Other journeys share the database: every value
 * carries this run's mark, and the capture days are a year no other journey writes.
 */
const WORDS = {
  zh: { folder: '元数据搜索', creator: '作者：', captured: '拍摄日期：', year: '2011' },
  en: { folder: 'Metadata search', creator: 'Creator: ', captured: 'Capture date: ', year: '2012' },
} as const;

async function metadataSearchJourney(page: Page, lang: 'zh' | 'en') {
  // Three uploads through the media job and screenshots at two sizes.
  test.setTimeout(240_000);
  const w = WORDS[lang];
  await signIn(page);
  const mark = `${lang}${Date.now().toString(36)}`;
  const photo = async (creator: string, day: string, keyword: string) =>
    writeWithExiftool(await makeJpeg(640, 480), 'jpg', [
      `-XMP-dc:Creator=${creator}`,
      `-XMP-dc:Subject=${keyword}`,
      `-DateTimeOriginal=${w.year}:03:${day} 10:00:00`,
    ]);
  const files = {
    annEarly: await photo(`Ann ${mark}`, '02', `sneaker-${mark}`),
    bobEarly: await photo(`Bob ${mark}`, '05', `boot-${mark}`),
    annLate: await photo(`Ann ${mark}`, '20', `boot-${mark}`),
  };
  const names = Object.keys(files).map((key) => `${mark}-${key}`);
  await newFolderWithFiles(
    page,
    `${w.folder} ${mark}`,
    Object.entries(files).map(([key, buffer]) => ({
      name: `${mark}-${key}.jpg`,
      mimeType: 'image/jpeg',
      buffer,
    })),
  );
  for (const name of names)
    await expect(itemCard(page, name).locator('img')).toBeVisible({ timeout: 60_000 });
  const shown = async (expected: string[]) => {
    for (const name of names)
      await expect(itemCard(page, name)).toHaveCount(expected.includes(name) ? 1 : 0, { timeout: 30_000 });
  };

  // By creator: the popover opens with its first field focused; Escape closes it and nothing else.
  await page.getByTestId('search-metadata').click();
  const creator = page.getByTestId('search-metadata-creator');
  await expect(creator).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('search-metadata-panel')).toBeHidden();
  await expect(page.getByTestId('current-folder')).toBeVisible();
  await page.getByTestId('search-metadata').click();
  await creator.fill(`ann ${mark}`);
  await page.waitForLoadState('networkidle');
  // No tooltip of a button the pointer last crossed over the popover.
  await page.mouse.move(700, 700);
  await snapBothSizes(page, `metadata-search-popover-${lang}`);
  await page.getByTestId('search-metadata-go').click();
  await page.waitForURL(/global=true.*creator=/);
  await shown([`${mark}-annEarly`, `${mark}-annLate`]);
  await expect(page.getByTestId('search-chip-creator')).toHaveText(`${w.creator}ann ${mark}`);

  // And capture days 1–10 March: the early Ann only. Then the creator's chip removed: both early files.
  await page.getByTestId('search-metadata').click();
  const range = page.getByTestId('search-metadata-panel').locator('.ant-picker-range input');
  // Typed, as a keyboard user would (Enter would search at once: the form's submit).
  await range.first().click();
  await page.keyboard.type(`${w.year}-03-01`);
  await range.nth(1).click();
  await page.keyboard.type(`${w.year}-03-10`);
  await page.keyboard.press('Tab');
  await expect(range.first()).toHaveValue(`${w.year}-03-01`);
  await expect(range.nth(1)).toHaveValue(`${w.year}-03-10`);
  // An open calendar closes on Escape; the popover stays.
  await range.first().click();
  await expect(page.locator('.ant-picker-dropdown:visible')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-picker-dropdown:visible')).toHaveCount(0);
  await expect(page.getByTestId('search-metadata-panel')).toBeVisible();
  await page.getByTestId('search-metadata-go').click();
  await page.waitForURL(/capturedTo=/);
  await shown([`${mark}-annEarly`]);
  const chip = page.getByTestId('search-chip-captured');
  await expect(chip).toHaveText(`${w.captured}${w.year}-03-01 – ${w.year}-03-10`);
  await page.mouse.move(0, 0);
  await page.waitForLoadState('networkidle');
  await expectAccessible(page, `${lang} search results with metadata filters`);
  await snapBothSizes(page, `metadata-search-results-${lang}`);

  await page.getByTestId('search-chip-creator').getByRole('button').click();
  await expect(page.getByTestId('search-chip-creator')).toHaveCount(0);
  await shown([`${mark}-annEarly`, `${mark}-bobEarly`]);
  await expect(page).not.toHaveURL(/creator=/);

  // A keyword in the viewer's metadata section searches for itself.
  const early = `${mark}-annEarly`;
  await itemCard(page, early).getByRole('button', { name: early }).click();
  await expect(page.getByTestId('viewer-title')).toHaveText(early);
  await page.getByTestId('metadata-section').getByTestId('metadata-search-keyword').click();
  await page.waitForURL(/keyword=sneaker/);
  await expect(page.getByTestId('viewer-title')).toHaveCount(0);
  await shown([early]);
  await expect(page.getByTestId('search-chip-keyword')).toBeVisible();
}

test('the search bar finds files by creator and capture days, and a filter chip is removed', async ({
  page,
}) => {
  await metadataSearchJourney(page, 'zh');
});

test('metadata search in English', async ({ page }) => {
  await switchToEnglish(page);
  await metadataSearchJourney(page, 'en');
});
