import { expect, type Page, test } from '@playwright/test';
import { makeJpeg } from '../../server/test/fixtures';
import {
  apiToken,
  chooseOption,
  finishUpload,
  itemCard,
  newFolder,
  newFolderWithFiles,
  signIn,
  snap,
  switchToEnglish,
} from './support';

/** A dimension of tags, and one under it, made through the tag management call (code 4). */
async function givenDimensions(page: Page, suffix: string) {
  const token = await apiToken(page);
  const save = async (body: object) => {
    const answer = await page.request.post('/ske-api/v1_0/manage/update-tag', {
      headers: { token },
      data: body,
    });
    expect(answer.ok()).toBe(true);
    return (await answer.json()).result as { id: number; tagDTOList: Array<{ id: number; tagName: string }> };
  };
  const series = await save({
    dimensionName: `系列${suffix}`,
    tagDTOList: [{ tagName: `跑步${suffix}` }, { tagName: `篮球${suffix}` }],
  });
  const running = series.tagDTOList.find((tag) => tag.tagName === `跑步${suffix}`)?.id;
  await save({
    dimensionName: `场景${suffix}`,
    parentDimensionId: series.id,
    tagDTOList: [{ tagName: `越野${suffix}`, parentTagId: running }],
  });
}

async function chooseTags(page: Page, names: string[]) {
  const dialog = page.getByTestId('add-tag-dialog');
  for (const name of names) await dialog.getByTestId('tag-option').filter({ hasText: name }).click();
}

async function filterByTag(page: Page, name: string) {
  await page.getByTestId('filter-button').click();
  await page.getByTestId('filter-tags').click();
  await page.keyboard.type(name);
  await page.locator('.ant-select-item-option', { hasText: name }).click();
  await page.keyboard.press('Escape');
  await page
    .locator('.ant-popover')
    .getByRole('button', { name: /确\s?定|Apply|OK/ })
    .click();
}

test('tags set at upload, in the viewer’s edit mode and from the selection bar show and filter', async ({
  page,
}) => {
  await signIn(page);
  await givenDimensions(page, '');
  await page.goto('/allfiles/all');
  await newFolder(page, '打标签', { open: true });
  await page.getByText('这个文件夹还是空的').waitFor();

  // (a) At upload: the image group gets 篮球.
  await page.getByTestId('upload-files-input').setInputFiles([
    { name: 'UP1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
    { name: 'A1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
    { name: 'B1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
  ]);
  await page.getByTestId('upload-group-tags-1').click();
  await chooseTags(page, ['篮球']);
  await snap(page, 'add-tag-dialog-upload-zh');
  await page.getByTestId('tag-confirm').click();
  await expect(page.getByTestId('upload-group-tags-1')).toHaveText('已选 1 个标签');
  await finishUpload(page);
  for (const name of ['UP1', 'A1', 'B1']) await expect(itemCard(page, name)).toBeVisible({ timeout: 30_000 });
  await itemCard(page, 'UP1').getByRole('button', { name: 'UP1' }).click();
  await expect(page.getByTestId('file-tags')).toContainText('系列：篮球');
  await page.keyboard.press('Escape');

  // (b) Viewer edit mode: A1 becomes 跑步 + 越野 (越野 shows once 跑步, its superior, is chosen).
  await itemCard(page, 'A1').getByRole('button', { name: 'A1' }).click();
  await page.getByTestId('viewer-edit').click();
  await page.getByTestId('edit-tags').click();
  const dialog = page.getByTestId('add-tag-dialog');
  await expect(dialog.getByTestId('tag-option').filter({ hasText: '越野' })).toHaveCount(0);
  await dialog.getByTestId('tag-option').filter({ hasText: '篮球' }).click(); // drop the upload's tag
  await chooseTags(page, ['跑步', '越野']);
  await snap(page, 'add-tag-dialog-viewer-zh');
  await page.getByTestId('tag-confirm').click();
  await expect(page.getByTestId('file-tags')).toContainText('系列：跑步');
  await expect(page.getByTestId('file-tags')).toContainText('场景：越野');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('file-viewer')).toHaveCount(0);

  // (c) The selection bar: B1 and A1 get 篮球 added to what they have.
  await itemCard(page, 'B1').getByRole('checkbox').check();
  await itemCard(page, 'A1').getByRole('checkbox').check();
  await page.getByTestId('selection-tag').click();
  await expect(page.getByTestId('tag-mode')).toBeVisible();
  await chooseTags(page, ['篮球']);
  await snap(page, 'add-tag-dialog-selection-zh');
  await page.getByTestId('tag-confirm').click();
  await expect(page.getByText('已为 2 项打标签')).toBeVisible();

  // The tag filter finds what was tagged where.
  await filterByTag(page, '越野');
  await expect(page.getByTestId('item-card')).toHaveCount(1);
  await expect(itemCard(page, 'A1')).toBeVisible();
  await page.reload();
  await filterByTag(page, '篮球');
  await expect(page.getByTestId('item-card')).toHaveCount(3);
  // And A1 kept its own tags beside the added one.
  await itemCard(page, 'A1').getByRole('button', { name: 'A1' }).click();
  await expect(page.getByTestId('file-tags')).toContainText('跑步');
  await expect(page.getByTestId('file-tags')).toContainText('篮球');
});

test('the batch tagging screen tags the untagged files of a folder and shows what changed', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/allfiles/all');
  await newFolder(page, '批量样品', { open: true });
  await page.getByText('这个文件夹还是空的').waitFor();
  await page.getByTestId('upload-files-input').setInputFiles([
    { name: 'BT1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
    { name: 'BT2.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
  ]);
  await finishUpload(page);
  await expect(itemCard(page, 'BT2')).toBeVisible({ timeout: 30_000 });

  // (d) The screen: pick the folder, only the untagged, select all, tag.
  await page.getByTestId('side-tabs').getByText('批量打标签').click();
  await page.getByTestId('folder-tree').getByText('批量样品').click();
  await expect(page.getByTestId('batch-row')).toHaveCount(2);
  await page.getByTestId('batch-show').getByText('仅未打标签').click();
  await expect(page.getByTestId('batch-row')).toHaveCount(2);
  await page.locator('.ant-table-thead .ant-checkbox-input').check();
  await page.getByTestId('batch-tag').click();
  await chooseTags(page, ['跑步']);
  await page.getByTestId('tag-confirm').click();
  await expect(page.getByText('已为 2 项打标签')).toBeVisible();
  // What changed is marked; the untagged view is now empty.
  await page.getByTestId('batch-show').getByText('全部文件').click();
  await expect(page.getByTestId('batch-changed')).toHaveCount(2);
  await expect(page.getByTestId('batch-tags').first()).toContainText('系列：跑步');
  await snap(page, 'batch-tagging-zh');
  await page.getByTestId('batch-show').getByText('仅未打标签').click();
  await expect(page.getByTestId('batch-row')).toHaveCount(0);

  // The info panel shows it, and the folder's tag filter finds both.
  await page.getByTestId('side-tabs').getByText('全部文件').click();
  await itemCard(page, '批量样品').getByRole('button', { name: '批量样品' }).click();
  await filterByTag(page, '跑步');
  await expect(page.getByTestId('item-card')).toHaveCount(2);
  await itemCard(page, 'BT1').getByRole('button', { name: 'BT1' }).click();
  await expect(page.getByTestId('file-tags')).toContainText('系列：跑步');
});

test('the files of a search result are tagged on the batch tagging screen', async ({ page }) => {
  await signIn(page);
  await givenDimensions(page, 'Q');
  await newFolderWithFiles(page, '搜索打标', [
    { name: 'BTQ700-01.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
    { name: 'BTQ700-02.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
    { name: 'BTQ800-01.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
  ]);
  await expect(itemCard(page, 'BTQ800-01')).toBeVisible({ timeout: 30_000 });

  // From the results page of a top-bar search, straight to tagging what it found.
  await page.getByTestId('search-type-button').click();
  await page.getByTestId('search-type').getByText('按货号', { exact: true }).click();
  await expect(page.getByTestId('search-type-button')).toHaveText(/^货\s?号$/);
  await page.getByTestId('search-input').fill('BTQ700');
  await page.getByTestId('search-go').click();
  await expect(itemCard(page, 'BTQ700-02')).toBeVisible();
  await page.getByTestId('search-batch-tag').click();
  await expect(page).toHaveURL(/\/batch-tag\?search=/);
  await expect(page.getByTestId('batch-row')).toHaveCount(2);
  await page.locator('.ant-table-thead .ant-checkbox-input').check();
  await page.getByTestId('batch-tag').click();
  await chooseTags(page, ['篮球Q']);
  await page.getByTestId('tag-confirm').click();
  await expect(page.getByText('已为 2 项打标签')).toBeVisible();
  await expect(page.getByTestId('batch-changed')).toHaveCount(2);

  // A pasted batch on the screen itself finds the third, still untagged.
  await chooseOption(page, page.getByTestId('batch-search-type'), '批量货号');
  await page.getByTestId('batch-search-input').fill('BTQ700-01\nBTQ800-01');
  await page.getByTestId('batch-search-go').click();
  // The new search's rows, not the two of the last one (a new search starts the table afresh).
  await expect(page.locator('[data-testid="batch-row"][data-name="BTQ800-01"]')).toBeVisible();
  await expect(page.getByTestId('batch-row')).toHaveCount(2);
  await page.getByTestId('batch-show').getByText('仅未打标签').click();
  await expect(page.getByTestId('batch-row')).toHaveCount(1);
  await expect(page.getByTestId('batch-row')).toHaveAttribute('data-name', 'BTQ800-01');
  await snap(page, 'batch-tagging-search-zh');

  // The tag filter of the folder finds the two tagged from the search.
  await page.getByTestId('side-tabs').getByText('全部文件').click();
  await itemCard(page, '搜索打标').getByRole('button', { name: '搜索打标' }).click();
  await filterByTag(page, '篮球Q');
  await expect(page.getByTestId('item-card')).toHaveCount(2);
});

test('the add-tag dialog in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await givenDimensions(page, ' EN');
  await page.goto('/allfiles/all');
  await newFolder(page, 'tagging en', { open: true });
  await page.getByText('This folder is empty').waitFor();
  await page
    .getByTestId('upload-files-input')
    .setInputFiles([{ name: 'EN1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) }]);
  await finishUpload(page);
  await expect(itemCard(page, 'EN1')).toBeVisible({ timeout: 30_000 });
  await itemCard(page, 'EN1').getByRole('checkbox').check();
  await page.getByTestId('selection-tag').click();
  await expect(page.getByTestId('add-tag-dialog')).toContainText('Add to their tags');
  await chooseTags(page, ['跑步 EN']);
  await snap(page, 'add-tag-dialog-en');
  await page.getByTestId('tag-confirm').click();
  await expect(page.getByText('Items tagged: 1')).toBeVisible();
  await page.getByTestId('side-tabs').getByText('Batch tagging').click();
  await page.getByTestId('folder-tree').getByText('tagging en').click();
  await expect(page.getByTestId('batch-row')).toHaveCount(1);
  await expect(page.getByTestId('batch-tags')).toContainText('跑步 EN');
  await snap(page, 'batch-tagging-en');
  await page.getByTestId('batch-source').getByText('Search', { exact: true }).click();
  await expect(
    page.getByText('Search by title or article number; the files found are listed here'),
  ).toBeVisible();
  await chooseOption(page, page.getByTestId('batch-search-type'), 'By title');
  await page.getByTestId('batch-search-input').fill('EN1');
  await page.getByTestId('batch-search-input').press('Enter');
  await expect(page.locator('[data-testid="batch-row"][data-name="EN1"]')).toBeVisible();
  await snap(page, 'batch-tagging-search-en');
});
