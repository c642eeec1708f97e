import { expect, test } from '@playwright/test';
import { makeJpeg } from '../../server/test/fixtures';
import { itemCard, newFolder, newFolderWithFiles, signIn, snap, switchToEnglish } from './support';

test('organises a folder tree: create, browse by breadcrumb, switch views, move, delete, restore, favourite, recent', async ({
  page,
}) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/allfiles\/all$/);
  await expect(page.getByText('还没有文件夹，先新建一个吧')).toBeVisible();
  await snap(page, 'allfiles-empty-zh');

  // Refused names say why and create nothing.
  await page.getByTestId('new-folder').click();
  await page.getByTestId('folder-name-input').fill('季度|样品');
  await page.getByTestId('folder-dialog-ok').click();
  await expect(page.getByText('名称不能包含字符 |')).toBeVisible();
  await snap(page, 'folder-dialog-error-zh');
  await page.getByRole('button', { name: /取\s*消/ }).click();

  await newFolder(page, '2027 春夏');
  await newFolder(page, '样品间');
  await itemCard(page, '2027 春夏').getByRole('button', { name: '2027 春夏' }).click();
  await expect(page.getByTestId('current-folder')).toHaveText('2027 春夏');
  await newFolder(page, '跑鞋');
  await itemCard(page, '跑鞋').getByRole('button', { name: '跑鞋' }).click();
  await newFolder(page, '越野');
  await expect(page.getByTestId('breadcrumb')).toContainText('全部文件');
  await expect(page.getByTestId('breadcrumb')).toContainText('2027 春夏');
  await snap(page, 'allfiles-nested-zh');

  // Back up two levels by the breadcrumb.
  await page.getByTestId('breadcrumb').getByRole('link', { name: '2027 春夏' }).click();
  await expect(page.getByTestId('current-folder')).toHaveText('2027 春夏');
  await expect(itemCard(page, '跑鞋')).toBeVisible();

  // Views: waterfall hides the latest-shares tab at once (SPEC §2) and is remembered across reloads.
  const latestShares = page.getByTestId('side-tabs').getByText('最新分享');
  await expect(latestShares).toBeVisible();
  await page.getByTestId('view-toggle').getByText('瀑布流').click();
  await expect(latestShares).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('view-toggle').locator('.ant-segmented-item-selected')).toContainText(
    '瀑布流',
  );
  await snap(page, 'allfiles-waterfall-zh');
  await page.getByTestId('view-toggle').getByText('网格').click();
  await expect(latestShares).toBeVisible();

  // Sort toggle cycles normal → up → down → normal.
  const sort = page.getByTestId('sort-toggle');
  await expect(sort).toHaveAttribute('data-sort', '0');
  await sort.click();
  await expect(sort).toHaveAttribute('data-sort', '1');
  await sort.click();
  await expect(sort).toHaveAttribute('data-sort', '2');
  await sort.click();
  await expect(sort).toHaveAttribute('data-sort', '0');

  // Move 跑鞋 to the top level with the folder picker.
  await itemCard(page, '跑鞋').getByTestId('item-menu').click();
  await page.getByRole('menuitem', { name: '移动', exact: true }).click();
  await expect(page.getByTestId('folder-tree')).toBeVisible();
  await page.getByTestId('move-confirm').click();
  await expect(page.getByText('未选择文件夹')).toBeVisible();
  await page.getByTestId('folder-tree').getByText('全部文件').click();
  await snap(page, 'move-dialog-zh');
  await page.getByTestId('move-confirm').click();
  await expect(itemCard(page, '跑鞋')).toHaveCount(0);
  await page.getByTestId('breadcrumb').getByRole('link', { name: '全部文件' }).click();
  await expect(itemCard(page, '跑鞋')).toBeVisible();

  // Delete it (with its subfolder), find it in the recycle bin, restore it.
  await itemCard(page, '跑鞋').getByRole('checkbox').check();
  await expect(page.getByTestId('selection-bar')).toContainText('已选 1 项');
  // The count stays on one line beside every action at 1366 px.
  const count = page.getByTestId('selection-bar').getByText('已选 1 项');
  expect((await count.boundingBox())?.height).toBeLessThan(30);
  await snap(page, 'allfiles-selection-zh');
  await page.getByTestId('selection-delete').click();
  await page
    .getByRole('button', { name: /删\s*除/ })
    .last()
    .click();
  await expect(itemCard(page, '跑鞋')).toHaveCount(0);
  await page.getByTestId('side-tabs').getByText('回收站').click();
  await expect(page.getByTestId('recycle-name')).toHaveText(['跑鞋']);
  await snap(page, 'recycle-zh');
  await page.getByRole('row', { name: /跑鞋/ }).getByRole('checkbox').check();
  await page.getByTestId('recycle-restore').click();
  await page.getByRole('button', { name: /确\s*认/ }).click();
  await expect(page.getByText('回收站是空的')).toBeVisible();
  await page.getByTestId('side-tabs').getByText('全部文件').click();
  await expect(itemCard(page, '跑鞋')).toBeVisible();

  // Favourite it; it shows in favourites, and the folders opened show in recent.
  await itemCard(page, '跑鞋').getByTestId('item-menu').click();
  await page.getByRole('menuitem', { name: '收藏', exact: true }).click();
  await page.getByTestId('side-tabs').getByText('我的收藏').click();
  await expect(itemCard(page, '跑鞋')).toBeVisible();
  await snap(page, 'favourites-zh');
  await page.getByTestId('side-tabs').getByText('最近浏览').click();
  await expect(itemCard(page, '跑鞋')).toBeVisible();
  await expect(itemCard(page, '2027 春夏')).toBeVisible();
  await snap(page, 'recent-zh');
  await page.getByTestId('side-tabs').getByText('我的上传').click();
  await expect(page.getByText('还没有上传过文件')).toBeVisible();
  await snap(page, 'uploads-empty-zh');
});

test('shows the file screens in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await expect(page.getByTestId('new-folder')).toHaveText(/New folder/);
  await snap(page, 'allfiles-en');
  await itemCard(page, '2027 春夏').getByRole('button', { name: '2027 春夏' }).click();
  await expect(page.getByTestId('breadcrumb')).toContainText('All files');
  await snap(page, 'allfiles-folder-en');
  await page.getByTestId('side-tabs').getByText('Recycle bin').click();
  await expect(page.getByText('The recycle bin is empty')).toBeVisible();
  await snap(page, 'recycle-en');
  await page.getByTestId('side-tabs').getByText('My favourites').click();
  await snap(page, 'favourites-en');
  await page.getByTestId('side-tabs').getByText('My uploads').click();
  await expect(page.getByText('You have not uploaded anything yet')).toBeVisible();
  await snap(page, 'uploads-empty-en');
  await page.getByTestId('side-tabs').getByText('Recently viewed').click();
  await expect(itemCard(page, '2027 春夏')).toBeVisible();
  await snap(page, 'recent-en');
  await page.getByTestId('side-tabs').getByText('All files').click();
  await itemCard(page, '样品间').getByTestId('item-menu').click();
  await page.getByRole('menuitem', { name: 'Move', exact: true }).click();
  await expect(page.getByTestId('folder-tree')).toBeVisible();
  await snap(page, 'move-dialog-en');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByTestId('new-folder').click();
  await snap(page, 'folder-dialog-en');
  await page.keyboard.press('Escape');
  // Waterfall hides the latest-shares tab at once.
  const latestShares = page.getByTestId('side-tabs').getByText('Latest shares');
  await expect(latestShares).toBeVisible();
  await page.getByTestId('view-toggle').getByText('Waterfall').click();
  await expect(latestShares).toHaveCount(0);
  await page.getByTestId('view-toggle').getByText('Grid').click();
  await expect(latestShares).toBeVisible();
});

test('opens a folder by its address with its first items and thumbnails in the page itself, asking for neither', async ({
  browser,
  page: uploader,
}) => {
  await signIn(uploader);
  const run = Date.now();
  await newFolderWithFiles(uploader, `首屏-${run}`, [
    { name: `FIRST-${run}.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(640, 480) },
  ]);
  const folderUrl = uploader.url();
  const folderId = /\/allfiles\/(\d+)$/.exec(folderUrl)?.[1];
  const uploaded = itemCard(uploader, `FIRST-${run}`).locator('img');
  // The upload ends first (a reload at once would interrupt it: the upload panel loads with it now).
  await expect(itemCard(uploader, `FIRST-${run}`)).toBeVisible({ timeout: 30_000 });
  // The thumbnail is made in the background: reload until the card shows it.
  await expect(async () => {
    await uploader.reload();
    await expect(uploaded).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  // A fresh open of the address, in a browser that has not seen the thumbnail (this one has it in its
  // cache, and a cached image is taken without the preload): the server answers the page's first
  // calls inside it (issue 12 goal 4).
  const fresh = await browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 1366, height: 820 },
    storageState: await uploader.context().storageState(),
  });
  const page = await fresh.newPage();
  const thumbnail = itemCard(page, `FIRST-${run}`).locator('img');
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (url.includes('/security-api/user-info') || url.includes(`folderDataId=${folderId}&pageNo=1&`))
      asked.push(url);
  });
  await page.goto(folderUrl);
  await expect(thumbnail).toBeVisible();
  await expect
    .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);
  // The card's thumbnail was fetched by the page's preload, not by the card once drawn.
  const source = await thumbnail.getAttribute('src');
  const fetchedBy = await page.evaluate(
    (url) =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name === url)
        .map((entry) => (entry as PerformanceResourceTiming).initiatorType),
    new URL(source as string, page.url()).href,
  );
  await expect(page.getByTestId('current-folder')).toHaveText(`首屏-${run}`);
  await expect(page.getByTestId('user-menu')).toContainText(/\S/);
  // The answers came inside the page (else the preloads were left out with them)…
  expect(asked).toEqual([]);
  // …and so did the thumbnail's preload.
  expect(fetchedBy).toEqual(['link']);
  await fresh.close();
});
