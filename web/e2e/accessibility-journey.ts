import { expect, type Page, test } from '@playwright/test';
import { makeJpeg } from '../../server/test/fixtures';
import { expectAccessible } from './axe';
import { itemCard, newFolderWithFiles, signIn, snap, switchToEnglish } from './support';

/**
 * Issue 39: axe-core on every signed-in page of SPEC §2 (and the pages features added), as an
 * administrator, in Chinese and English: no critical node, at most 5 serious ones a page. The two
 * languages are two files (zz-accessibility-zh/-en.spec.ts), so that journey shards may take one
 * each; named to run last: its folder and upload would otherwise be there before the journeys that
 * begin on an empty archive (browse.spec.ts), and the pages are checked as they look after a day's
 * use.
 */
const PAGES = [
  '/rencent',
  '/myCollect',
  '/myUpload',
  '/myshare',
  '/recycle',
  '/newShare',
  '/composite',
  '/templates',
  '/batch-tag',
  '/mail',
  '/manage/users',
  '/manage/role',
  '/manage/tag',
  '/manage/download-presets',
  '/manage/log',
  '/manage/data-table',
  '/manage/api',
  '/manage/import',
  '/manage/completeness',
  '/manage/duplicates',
  '/manage/jobs',
  '/upload-record/current',
  '/upload-record/await',
  '/upload-record/history',
  '/about',
];

/** Waits until the page has drawn its data: no request in flight, no spinner or skeleton left. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0, { timeout: 15_000 });
  await page.waitForTimeout(300);
}

async function checkEveryPage(page: Page, folder: string, lang: string): Promise<void> {
  const folderUrl = page.url();
  await settled(page);
  await expectAccessible(page, `${lang} ${folder} (folder listing)`);
  await snap(page, `axe-listing-${lang}`);
  await page.goto('/allfiles/all');
  await settled(page);
  await expectAccessible(page, `${lang} /allfiles/all`);
  for (const path of PAGES) {
    await page.goto(path);
    await settled(page);
    await expectAccessible(page, `${lang} ${path}`);
  }
  // The viewer over the listing (the folder by its address: after a day's journeys the top level
  // may list it past the first page).
  await page.goto(folderUrl);
  await itemCard(page, 'AXE1').getByTestId('item-name').click();
  await expect(page.getByTestId('viewer-title')).toHaveText('AXE1');
  // With its info panel's metadata section (issue 42), open at first, checked once it has its answer.
  await expect(page.getByTestId('metadata-body')).toBeVisible();
  await settled(page);
  await expectAccessible(page, `${lang} viewer`);
}

/** The journey for one language: sign-in page, then every signed-in page and the viewer. */
export function everyPagePassesAxe(lang: 'zh' | 'en'): void {
  const { name, folder } = LANGUAGES[lang];
  test(`every signed-in page passes axe-core in ${name}`, async ({ page }) => {
    test.setTimeout(600_000);
    if (lang === 'en') await switchToEnglish(page);
    await page.goto('/login');
    await settled(page);
    await expectAccessible(page, `${lang} /login`);
    await signIn(page);
    await newFolderWithFiles(page, folder, [
      { name: 'AXE1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(640, 480) },
    ]);
    await expect(itemCard(page, 'AXE1')).toBeVisible({ timeout: 30_000 });
    await checkEveryPage(page, folder, lang);
  });
}

const LANGUAGES = {
  zh: { name: 'Chinese', folder: '无障碍检查' },
  en: { name: 'English', folder: 'accessibility check' },
} as const;
