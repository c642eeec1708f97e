import { expect, type Page, test } from '@playwright/test';
import { makeJpeg } from '../../server/test/fixtures';
import {
  batchChips,
  chooseOption,
  itemCard,
  newFolderWithFiles,
  signIn,
  snap,
  switchToEnglish,
} from './support';

/** Picks a search type from the menu; the menu closes on the choice and the button names it. */
async function chooseSearchType(page: Page, label: string, shortLabel: string) {
  await page.getByTestId('search-type-button').click();
  await page.getByTestId('search-type').getByText(label, { exact: true }).click();
  await expect(page.getByTestId('search-type')).toBeHidden();
  // Ant Design spaces out a two-character Chinese label ("货 号").
  await expect(page.getByTestId('search-type-button')).toHaveText(
    new RegExp(`^${[...shortLabel].join('\\s?')}$`),
  );
}

test('searches by title, by article number and by a pasted batch of article numbers', async ({ page }) => {
  await signIn(page);
  // The dialog takes the article numbers from the file names.
  await newFolderWithFiles(page, '搜索样品', [
    { name: 'SRCH100-01.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(600, 400) },
    { name: 'SRCH200-01.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(600, 400) },
  ]);
  await expect(itemCard(page, 'SRCH100-01').locator('img')).toBeVisible({ timeout: 30_000 });
  await expect(itemCard(page, 'SRCH200-01')).toBeVisible();

  // By title: the results page is / with the search object and global=true.
  await page.getByTestId('search-input').fill('srch1');
  await page.getByTestId('search-input').press('Enter');
  await expect(page).toHaveURL(/\/\?search=.*&global=true$/);
  await expect(page.getByTestId('search-results')).toBeVisible();
  await expect(page.getByTestId('item-card')).toHaveCount(1);
  await expect(itemCard(page, 'SRCH100-01')).toBeVisible();

  // Scoped to folders, the same words find the folder only.
  await page.getByTestId('search-input').fill('搜索样');
  await chooseOption(page, page.getByTestId('search-scope'), '文件夹');
  await page.getByTestId('search-go').click();
  await expect(page.getByTestId('item-card')).toHaveCount(1);
  await expect(itemCard(page, '搜索样品')).toBeVisible();
  await chooseOption(page, page.getByTestId('search-scope'), '全部');

  // By article number, with suggestions as one types.
  await chooseSearchType(page, '按货号', '货号');
  await page.getByTestId('search-input').fill('SRCH2');
  await page.getByTestId('search-input').press('Enter');
  // The card first: a count of 1 alone would also hold for the folder result still on screen.
  await expect(itemCard(page, 'SRCH200-01')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('item-card')).toHaveCount(1);

  // A pasted batch: the bar shows the first 3 values and a count; the page names what matched nothing.
  await chooseSearchType(page, '批量货号', '批量货号');
  await page.getByTestId('search-batch-summary').click();
  await expect(page.getByTestId('search-batch-input')).toBeFocused();
  await page.getByTestId('search-batch-input').fill('SRCH100-01 SRCH200-01\nNOPE9 NOPE10');
  await expect(page.getByText('共 4 个值')).toBeVisible();
  await snap(page, 'search-batch-zh');
  await page.getByTestId('search-batch-go').click();
  // The first values as whole chips, as many as fit the box, and the rest counted: 4 in all.
  await expect(page.getByTestId('search-batch-more')).toBeVisible();
  const chips = await batchChips(page);
  expect(chips.shown).toBeGreaterThan(0);
  expect(chips.clipped).toBe(0);
  expect(chips.shown + chips.more).toBe(4);
  await expect(page.getByTestId('item-card')).toHaveCount(2);
  await expect(page.getByTestId('search-unmatched')).toContainText('2 个值没有匹配到任何文件');
  await expect(page.getByTestId('search-unmatched')).toContainText('NOPE9');
  await snap(page, 'search-results-zh');

  // Nothing found: an empty state, not a blank page.
  await chooseSearchType(page, '按标题', '标题');
  await page.getByTestId('search-input').fill('没有这种文件');
  await page.getByTestId('search-input').press('Enter');
  await expect(page.getByText('没有找到匹配的文件')).toBeVisible();
  await snap(page, 'search-empty-zh');
});

test('the search bar and results in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await page.getByTestId('search-type-button').click();
  await expect(page.getByTestId('search-type')).toContainText('Batch article numbers');
  await snap(page, 'search-types-en');
  await page.keyboard.press('Escape');
  await page.getByTestId('search-input').fill('SRCH');
  await page.getByTestId('search-input').press('Enter');
  await expect(page.getByTestId('search-results')).toContainText('Search results');
  await expect(page.getByTestId('item-card').first()).toBeVisible();
  await snap(page, 'search-results-en');
});

test('menus open without animation for someone who asked their system for less motion', async ({ page }) => {
  // The page starts with motion, as most users' do.
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await signIn(page);
  const typeMenu = page.locator('.ant-popover').filter({ has: page.getByTestId('search-type') });
  /** Opens and closes the search-type menu; whether it was animated on the way in. */
  const openTypeMenu = async () => {
    await page.evaluate(() => {
      const watched = window as unknown as { animated: boolean; observer?: MutationObserver };
      watched.animated = false;
      watched.observer?.disconnect();
      watched.observer = new MutationObserver(() => {
        // The active step is the animation itself; a prepare step (where the menu is placed) comes
        // with or without one.
        watched.animated ||=
          document.querySelector(
            '.ant-popover:is(.ant-zoom-big-appear-active, .ant-zoom-big-enter-active)',
          ) !== null;
      });
      watched.observer.observe(document.body, { subtree: true, attributes: true, childList: true });
    });
    await page.getByTestId('search-type-button').click();
    await expect(page.getByTestId('search-type')).toBeVisible();
    // Open and still: any opening animation is over.
    await expect(typeMenu).not.toHaveClass(/zoom-big-(appear|enter)/);
    const animated = await page.evaluate(() => (window as unknown as { animated: boolean }).animated);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('search-type')).toBeHidden();
    return animated;
  };
  expect(await openTypeMenu()).toBe(true);
  // With animation too, a dialog opens with its first field focused.
  await page.getByTestId('new-folder').click();
  await expect(page.getByTestId('folder-name-input')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('folder-name-input')).toBeHidden();
  // The setting is followed when it changes, without reloading the page and without mounting it
  // afresh: what was typed stays (as would uploads in progress).
  await page.getByTestId('search-input').fill('typed before the change');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await openTypeMenu()).toBe(false);
  await expect(page.getByTestId('search-input')).toHaveValue('typed before the change');
});
