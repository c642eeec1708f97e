import { expect, test } from '@playwright/test';
import { makeJpeg } from '../../server/test/fixtures';
import { itemCard, newFolderWithFiles, signIn, snap, switchToEnglish } from './support';

const FOLDER = '标签样品';

test('an administrator defines a tag dimension; a file shows its tags by dimension and channel tags', async ({
  page,
  context,
}) => {
  await signIn(page);
  await page.goto('/manage/tag');
  await page.getByTestId('dimension-add').click();
  await page.getByTestId('dimension-name').fill('季节');
  await page.getByTestId('tag-name').first().fill('春夏');
  await page.getByTestId('tag-add').click();
  await page.getByTestId('tag-name').nth(1).fill('秋冬');
  await snap(page, 'tag-dimension-dialog-zh');
  await page.getByTestId('dimension-save').click();
  // Exactly this dimension: the import journey makes 季节<run> with 春夏<run>.
  const dimension = page
    .getByTestId('dimension-card')
    .filter({ has: page.getByText('季节', { exact: true }) });
  await expect(dimension).toContainText('春夏');
  await expect(dimension).toContainText('秋冬');
  await snap(page, 'tags-zh');

  // A file, tagged 春夏 through file/modify-tag (batch tagging's call).
  await newFolderWithFiles(page, FOLDER, [
    { name: 'tagged-look.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(600, 400) },
  ]);
  await expect(itemCard(page, 'tagged-look').locator('img')).toBeVisible({ timeout: 30_000 });
  const token = (await context.cookies()).find((c) => c.name === 'skToken')?.value ?? '';
  const folderId = new URL(page.url()).pathname.split('/').pop();
  const listing = await page.request.get(
    `/ske-api/v1_0/file/all-file-v2?folderDataId=${folderId}&pageNo=1&pageSize=60&rankStatus=0`,
    { headers: { token } },
  );
  const fileId = (await listing.json()).result.list[0].id as number;
  const selector = await page.request.get('/ske-api/selector/tags', { headers: { token } });
  const season = (
    (await selector.json()).result as Array<{
      dimensionName: string;
      tagDTOList: Array<{ id: number; tagName: string }>;
    }>
  ).find((d) => d.dimensionName === '季节');
  const spring = season?.tagDTOList.find((tag) => tag.tagName === '春夏')?.id;
  const tagged = await page.request.post('/ske-api/v1_0/file/modify-tag', {
    headers: { token },
    data: { folderDataId: fileId, tagIdList: [spring] },
  });
  expect(tagged.ok()).toBe(true);

  // The info panel: tags by dimension, and channel tags added and removed in place.
  await itemCard(page, 'tagged-look').getByRole('button', { name: 'tagged-look' }).click();
  await expect(page.getByTestId('file-tags')).toContainText('季节：春夏');
  await page.getByTestId('channel-tag-add').click();
  await page.getByTestId('channel-tag-input').fill('天猫');
  await page.getByTestId('channel-tag-input').press('Enter');
  await expect(page.getByTestId('channel-tags')).toContainText('天猫');
  // The same channel twice is refused with the server's reason.
  await page.getByTestId('channel-tag-add').click();
  await page.getByTestId('channel-tag-input').fill('天猫');
  await page.getByTestId('channel-tag-input').press('Enter');
  await expect(page.locator('.ant-message')).toBeVisible();
  await snap(page, 'info-panel-tags-zh');

  // The filter panel: at the top level no untagged folder is 春夏; inside, the tagged file is.
  await page.getByTestId('viewer-close').click();
  await page.getByTestId('filter-button').click();
  await page.getByTestId('filter-tags').click();
  // Other journeys add dimensions too: typing narrows the list, as a person would.
  await page.keyboard.type('春夏');
  // Exactly this tag: other journeys make tags whose names begin the same (春夏C8A133).
  await page.locator('.ant-select-item-option[title="春夏"]').click();
  await page.keyboard.press('Escape');
  await page
    .locator('.ant-popover')
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(itemCard(page, 'tagged-look')).toBeVisible();
  await expect(page.getByTestId('item-card')).toHaveCount(1);
  await page.getByTestId('side-tabs').getByRole('link', { name: '全部文件' }).click();
  await page.getByTestId('filter-button').click();
  await page.getByTestId('filter-tags').click();
  // Other journeys add dimensions too: typing narrows the list, as a person would.
  await page.keyboard.type('春夏');
  // Exactly this tag: other journeys make tags whose names begin the same (春夏C8A133).
  await page.locator('.ant-select-item-option[title="春夏"]').click();
  await page.keyboard.press('Escape');
  await page
    .locator('.ant-popover')
    .getByRole('button', { name: /确\s?定/ })
    .click();
  await expect(page.getByTestId('item-card')).toHaveCount(0);

  // Listing by tag: the filter of the folder finds the tagged file.
  const filtered = await page.request.get(
    `/ske-api/v1_0/file/all-file-v2?folderDataId=${folderId}&pageNo=1&pageSize=60&rankStatus=0&tagIdList=${spring}`,
    { headers: { token } },
  );
  expect(((await filtered.json()).result.list as Array<{ name: string }>).map((i) => i.name)).toEqual([
    'tagged-look',
  ]);
});

test('the tag screen in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await page.goto('/manage/tag');
  await expect(page.getByTestId('dimension-card').first()).toBeVisible();
  await snap(page, 'tags-en');
  await page.getByTestId('dimension-add').click();
  await expect(page.getByText('Tags (at most 15)')).toBeVisible();
  await snap(page, 'tag-dimension-dialog-en');
});
