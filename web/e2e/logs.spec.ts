import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiToken, newFolder, signIn, snap, switchToEnglish } from './support';

/** A role made and then given the share scope and the log permission, through the role calls. */
async function editRole(page: Page, name: string) {
  const token = await apiToken(page);
  const role = {
    name,
    filePermissions: { view: 'all', upload: 'dept', download: 'all', share: 'none' },
    functionCodes: [],
  };
  const created = await page.request.post('/security-api/create-role', { headers: { token }, data: role });
  expect(created.ok()).toBe(true);
  const roleId = (await created.json()).result.id as number;
  const edited = await page.request.post('/security-api/edit-role', {
    headers: { token },
    data: { ...role, roleId, filePermissions: { ...role.filePermissions, share: 'all' }, functionCodes: [5] },
  });
  expect(edited.ok()).toBe(true);
}

const FOLDER = '日志样品';

test('the operation log shows who did what, filters it and exports it', async ({ page }) => {
  await signIn(page);
  await page.goto('/allfiles/all');
  await newFolder(page, FOLDER);

  await page.goto('/manage/log');
  await expect(page.getByTestId('logs-page')).toBeVisible();
  // Newest first: the folder just made.
  await expect(page.getByTestId('log-operation').first()).toHaveText('新建文件夹');
  await expect(page.getByTestId('log-files').first()).toContainText(FOLDER);
  await snap(page, 'logs-zh');

  // Only sign-ins.
  await page.getByTestId('log-operations').click();
  // The list is long: typing narrows it, as a person would.
  await page.keyboard.type('登录');
  await page.locator('.ant-select-item-option', { hasText: /^登录$/ }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('log-search').click();
  await expect(page.getByTestId('log-operation').first()).toHaveText('登录');
  const operations = await page.getByTestId('log-operation').allTextContents();
  expect(operations.every((name) => name === '登录')).toBe(true);

  // By file name, then the export holds the same entries.
  await page.getByRole('button', { name: /重\s?置/ }).click();
  await page.getByTestId('log-file-name').fill(FOLDER);
  await page.getByTestId('log-search').click();
  await expect(page.getByTestId('log-operation')).toHaveCount(1);
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('log-export').click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const text = JSON.stringify(workbook.worksheets[0]?.getSheetValues());
  expect(text).toContain(FOLDER);
  expect(text).toContain('新建文件夹');

  // Nothing matches: an empty state.
  await page.getByTestId('log-file-name').fill('没有这个文件');
  await page.getByTestId('log-search').click();
  await expect(page.getByText('没有符合条件的操作记录')).toBeVisible();

  // A role change reads in words: scopes and permissions by name, not stored codes.
  await editRole(page, '日志角色');
  await page.reload();
  await expect(page.getByTestId('log-content').first()).toHaveText(
    '角色：日志角色，分享范围：无 → 全部；功能权限：— → 操作日志',
  );
});

test('the operation log in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await page.goto('/manage/log');
  await expect(page.getByTestId('log-operation').first()).toHaveText('Sign in');
  await editRole(page, 'log role');
  await page.reload();
  await expect(page.getByTestId('log-content').first()).toHaveText(
    'role: log role, share scope: none → all; function permissions: — → operation log',
  );
  await page.getByTestId('log-operations').click();
  await page.keyboard.type('sign');
  await expect(page.locator('.ant-select-item-group', { hasText: 'Accounts and roles' })).toBeVisible();
  await snap(page, 'logs-filter-en');
  await page.keyboard.press('Escape');
  await snap(page, 'logs-en');
});
