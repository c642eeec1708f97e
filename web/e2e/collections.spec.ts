import { expect, test } from '@playwright/test';
import { makeJpeg } from '../../server/test/fixtures';
import { expectAccessible } from './axe';
import { addToCollection, COLLEAGUE_PASSWORD, givenColleague } from './colleagues';
import { apiToken, itemCard, newFolderWithFiles, signIn, snapBothSizes } from './support';

/**
 * Issue 43: a campaign collection gathered from three folders without moving anything: each
 * folder's picture added through the selection bar (the first into a new collection named in the
 * dialog), ordered on the collection's page, and a colleague of a sibling department let in as a
 * viewer, who sees the collection, none of the pictures (not theirs to see) and how many are hidden.
 */
const WORDS = {
  zh: { tab: '合集', hidden: /^另有 3 项你无权查看或已在回收站，未显示$/, viewer: '仅查看', add: '加入合集' },
  en: {
    tab: 'Collections',
    hidden: /^3 more items are not shown: you may not see them, or they are in the recycle bin$/,
    viewer: 'Can view',
    add: 'Add to collection',
  },
} as const;

for (const lang of ['zh', 'en'] as const) {
  test(`a campaign collection from three folders, shared with a colleague who sees only the count (${lang})`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const w = WORDS[lang];
    const stamp = `${lang}${Date.now() % 1_000_000}`;
    const collection = `SS27 上新 ${stamp}`;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await signIn(page);
    const colleague = await givenColleague(page.request, await apiToken(page), { stamp, label: '同事' });

    const files = ['hero', 'detail', 'lifestyle'].map((view) => `${view}-${stamp}`);
    for (const [i, file] of files.entries()) {
      await newFolderWithFiles(page, `campaign-${i}-${stamp}`, [
        { name: `${file}.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(640, 480) },
      ]);
      await expect(itemCard(page, file)).toBeVisible({ timeout: 30_000 });
      await addToCollection(page, file, collection, i === 0, w.add);
    }

    await page.getByTestId('side-tabs').getByText(w.tab, { exact: true }).click();
    const card = page.locator(`[data-testid="collection-card"][data-collection="${collection}"]`);
    await expect(card).toContainText(lang === 'zh' ? '3 项' : '3 items');
    await snapBothSizes(page, `collections-${lang}`);
    await expectAccessible(page, `collections list (${lang})`);
    await card.getByTestId('collection-open').click();
    await expect(page.getByTestId('collection-title')).toHaveText(collection);
    const names = () =>
      page.getByTestId('item-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-name')));
    await expect.poll(names).toEqual(files);
    // The last one to the front.
    await itemCard(page, files[2] as string)
      .getByRole('checkbox')
      .check();
    // Here "delete" (the files themselves, to the recycle bin) would read as "remove": not offered.
    await expect(page.getByTestId('selection-bar')).toBeVisible();
    await expect(page.getByTestId('selection-delete')).toHaveCount(0);
    await page.getByTestId('selection-more').click();
    await page.getByTestId('selection-collection-first').click();
    await expect.poll(names).toEqual([files[2], files[0], files[1]]);
    await snapBothSizes(page, `collection-page-${lang}`);
    await expectAccessible(page, `collection page (${lang})`);

    // The colleague let in as a viewer.
    await page.getByTestId('collection-members').click();
    const search = page.getByTestId('collection-member-search');
    await search.click();
    await page.keyboard.type(colleague.name);
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
        hasText: colleague.name,
      })
      .click();
    await expect(page.getByTestId('collection-member')).toContainText(colleague.name);
    await expectAccessible(page, `collection members (${lang})`);
    await page.getByTestId('collection-members-save').click();
    await expect(page.getByTestId('collection-member-list')).toBeHidden();

    const other = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await other.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await signIn(other, colleague.email, COLLEAGUE_PASSWORD);
    await other.goto('/collections');
    const theirs = other.locator(`[data-testid="collection-card"][data-collection="${collection}"]`);
    await expect(theirs).toContainText(w.viewer);
    await theirs.getByTestId('collection-open').click();
    await expect(other.getByTestId('collection-hidden')).toHaveText(w.hidden);
    await expect(other.getByTestId('item-card')).toHaveCount(0);
    await snapBothSizes(other, `collection-hidden-${lang}`);
    await other.close();
  });
}
