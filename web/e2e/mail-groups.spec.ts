import { expect, type Page, test } from '@playwright/test';
import { apiToken, chooseUserMenuItem, signIn, snap, switchToEnglish } from './support';

/**
 * A department under the root with people in it, made through the accounts calls. Addresses and
 * mobile numbers get a mark of this run, so the journey can run again on the same database.
 */
async function givenTeam(page: Page, department: string, people: Array<{ name: string; email?: string }>) {
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const token = await apiToken(page);
  const tree = await page.request.post('/security-api/dept-tree', { headers: { token }, data: {} });
  const rootId = (await tree.json()).result.departments.find(
    (d: { parentId: number | null }) => d.parentId === null,
  ).id as number;
  const dept = await page.request.post('/security-api/create-dept', {
    headers: { token },
    data: { name: department, parentId: rootId },
  });
  expect(dept.ok()).toBe(true);
  const deptId = (await dept.json()).result.id as number;
  for (const person of people) {
    const user = await page.request.post('/security-api/create-user', {
      headers: { token },
      data: {
        name: person.name,
        deptId,
        ...(person.email
          ? { email: person.email.replace('@', `.${run}@`) }
          : { mobile: `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}` }),
      },
    });
    expect(user.ok(), await user.text()).toBe(true);
  }
}

// Departments are named once per run: a name is unique among its siblings.
const TEAM_ZH = `鞋类设计部 ${Date.now() % 10_000}`;
const TEAM_EN = `Footwear studio ${Date.now() % 10_000}`;

const dialog = (page: Page) =>
  page.locator('.ant-modal').filter({ has: page.getByTestId('mail-group-name') });

async function pickMembers(page: Page, department: string, names: string[]) {
  const picker = page.getByTestId('member-picker');
  await picker.getByTestId('department-node').filter({ hasText: department }).click();
  for (const name of names) {
    // Once: the department's list has replaced the whole reach's (where a namesake may be).
    await expect(picker.getByTestId('member-candidate').filter({ hasText: name })).toHaveCount(1);
    await picker.getByRole('checkbox', { name }).check();
  }
}

/** Takes an outside address off with its tag's close button. */
async function removeAddress(page: Page, address: string) {
  const tag = page.getByTestId('mail-group-emails').locator('.ant-tag').filter({ hasText: address });
  await tag.getByRole('button').click();
  await expect(tag).toHaveCount(0);
}

test('an administrator makes a mail group of two people, edits it and deletes it', async ({ page }) => {
  // A long journey (accounts set up, three saves, the log): on a busy machine it nears a minute.
  test.slow();
  await signIn(page);
  await givenTeam(page, TEAM_ZH, [
    { name: '王设计', email: 'wang.design@example.com' },
    { name: '李摄影', email: 'li.photo@example.com' },
    { name: '赵实习' },
  ]);

  // The top bar's user menu leads to the mail groups, shown among the admin area's tabs.
  await page.goto('/allfiles/all');
  await chooseUserMenuItem(page, '邮件组', page.getByTestId('mail-groups-page'));
  await expect(page).toHaveURL(/\/mail$/);
  await expect(page.getByTestId('manage-tabs').getByRole('tab', { name: /邮件组/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByText('还没有邮件组')).toBeVisible();
  await snap(page, 'mail-groups-empty-zh');

  // A new group: a name (counted), two people from the department tree, and an outside address.
  await page.getByTestId('mail-group-new').click();
  await page.getByTestId('mail-group-name').fill('鞋类新品通知');
  await expect(dialog(page).getByText('6 / 20')).toBeVisible();
  await page.getByTestId('mail-group-save').click();
  await expect(page.getByText('请至少选择一位成员或填写一个邮箱地址')).toBeVisible();
  await pickMembers(page, TEAM_ZH, ['王设计', '李摄影']);
  await expect(page.getByTestId('member-count')).toHaveText('已选 2 人');
  await expect(page.getByTestId('member-picker').getByText('无邮箱')).toBeVisible();
  const addresses = page.getByTestId('mail-group-emails').getByRole('combobox');
  await addresses.fill('agency@');
  await addresses.press('Enter');
  await expect(page.getByText('“agency@”不是有效的邮箱地址')).toBeVisible();
  await removeAddress(page, 'agency@');
  await addresses.fill('Studio@Agency.example');
  await addresses.press('Enter');
  await expect(page.getByText('“agency@”不是有效的邮箱地址')).toBeHidden();
  await snap(page, 'mail-group-dialog-zh');
  await page.getByTestId('mail-group-save').click();
  await expect(page.getByTestId('mail-group-name')).toBeHidden();

  const row = page.locator('tr', { has: page.getByTestId('mail-group-row-name') });
  await expect(row.getByTestId('mail-group-row-name')).toHaveText('鞋类新品通知');
  await expect(row.getByTestId('mail-group-row-count')).toHaveText('3');
  await expect(row.getByTestId('mail-group-row-members')).toContainText(
    '李摄影、王设计、studio@agency.example',
  );
  await snap(page, 'mail-groups-zh');

  // Edited: renamed, one person out.
  await row.getByTestId('mail-group-edit').click();
  await expect(page.getByTestId('member-tag')).toHaveCount(2);
  await page.getByTestId('mail-group-name').fill('鞋类设计通知');
  await page.getByTestId('member-picker').getByRole('button', { name: '移除 李摄影' }).click();
  await expect(page.getByTestId('member-count')).toHaveText('已选 1 人');
  await page.getByTestId('mail-group-save').click();
  await expect(page.getByTestId('mail-group-name')).toBeHidden();
  await expect(row.getByTestId('mail-group-row-name')).toHaveText('鞋类设计通知');
  await expect(row.getByTestId('mail-group-row-count')).toHaveText('2');

  // Deleted, after saying yes.
  await row.getByTestId('mail-group-delete').click();
  const confirm = page.locator('.ant-popconfirm');
  await expect(confirm).toContainText('删除邮件组“鞋类设计通知”？');
  await snap(page, 'mail-groups-delete-zh');
  await confirm.getByRole('button', { name: /删\s?除/ }).click();
  await expect(page.getByText('还没有邮件组')).toBeVisible();

  // The operation log has all three.
  await page.goto('/manage/log');
  await expect(page.getByTestId('log-operation').first()).toHaveText('删除邮件组');
  await expect(page.getByTestId('log-operation').nth(1)).toHaveText('编辑邮件组');
  await expect(page.getByTestId('log-operation').nth(2)).toHaveText('新建邮件组');
});

test('mail groups in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await givenTeam(page, TEAM_EN, [
    { name: 'Ann Design', email: 'ann.design@example.com' },
    { name: 'Bob Photo', email: 'bob.photo@example.com' },
  ]);
  await page.goto('/mail');
  await expect(page.getByText('No mail groups yet')).toBeVisible();
  await snap(page, 'mail-groups-empty-en');
  await page.getByTestId('mail-group-new').click();
  await page.getByTestId('mail-group-name').fill('Footwear launch');
  await pickMembers(page, TEAM_EN, ['Ann Design', 'Bob Photo']);
  const addresses = page.getByTestId('mail-group-emails').getByRole('combobox');
  await addresses.fill('not-an-address');
  await addresses.press('Enter');
  await expect(page.getByText('"not-an-address" is not a valid e-mail address')).toBeVisible();
  await snap(page, 'mail-group-dialog-en');
  await removeAddress(page, 'not-an-address');
  await expect(page.getByText('"not-an-address" is not a valid e-mail address')).toBeHidden();
  await page.getByTestId('mail-group-save').click();
  await expect(page.getByTestId('mail-group-name')).toBeHidden();
  const row = page.locator('tr', { has: page.getByTestId('mail-group-row-name') });
  await expect(row.getByTestId('mail-group-row-count')).toHaveText('2');
  await snap(page, 'mail-groups-en');
  await row.getByTestId('mail-group-delete').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No mail groups yet')).toBeVisible();
});
