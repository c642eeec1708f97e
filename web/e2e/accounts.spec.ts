import { expect, type Page, test } from '@playwright/test';
import { hoverUserMenu, signIn, snap, switchToEnglish } from './support';

const DESIGNER = { name: '王设计', email: 'designer@example.com', newPassword: 'Design#2026' };

async function signOut(page: Page): Promise<void> {
  await expect(async () => {
    await hoverUserMenu(page);
    await page.getByRole('menuitem', { name: /退出登录|Sign out/ }).click({ timeout: 2_000 });
  }).toPass();
  await expect(page).toHaveURL(/\/login$/);
}

test('an administrator builds a department, a role and a user; the user signs in with the issued password', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/manage');
  // The first tab the administrator may see is the users screen, on the root department.
  await expect(page).toHaveURL(/\/manage\/users$/);
  await expect(page.getByTestId('department-node').first()).toBeVisible();
  await expect(page.getByTestId('user-row-name').first()).toBeVisible();

  // A department under the root.
  await page.getByTestId('department-add').click();
  await page.getByTestId('department-name').fill('设计部');
  await page.getByTestId('department-save').click();
  await expect(page.getByTestId('department-node').filter({ hasText: '设计部' })).toBeVisible();

  // A role: view, upload and download in its own department, and the import function.
  await page.getByTestId('manage-tabs').getByText('角色管理').click();
  await expect(page.getByTestId('roles-page')).toBeVisible();
  await snap(page, 'roles-zh');
  await page.getByTestId('role-add').click();
  await page.getByTestId('role-name').fill('设计师');
  await page.getByTestId('role-codes').getByText('导入管理').click();
  await snap(page, 'role-modify-zh');
  await page.getByTestId('role-save').click();
  await expect(page).toHaveURL(/\/manage\/role$/);
  const row = page.locator('tr', { has: page.getByTestId('role-row-name').filter({ hasText: '设计师' }) });
  await expect(row).toContainText('导入管理');
  await expect(row).toContainText('查看: 本部门及下级');

  // A person in the new department holding that role; the server issues the first password.
  await page.getByTestId('manage-tabs').getByText('用户管理').click();
  await page.getByTestId('department-node').filter({ hasText: '设计部' }).click();
  await expect(page.getByText('该部门暂无用户')).toBeVisible();
  await page.getByTestId('user-add').click();
  await page.getByTestId('user-name').fill(DESIGNER.name);
  // Neither e-mail nor phone: the form says one is needed to sign in.
  await page.getByTestId('user-save').click();
  await expect(page.getByText('邮箱和手机号至少填写一项（用于登录）')).toBeVisible();
  await page.getByTestId('user-email').fill(DESIGNER.email);
  await page.getByTestId('user-roles').click();
  await page.locator('.ant-select-item-option', { hasText: '设计师' }).click();
  await page.keyboard.press('Escape');
  await snap(page, 'user-dialog-zh');
  await page.getByTestId('user-save').click();
  const issued = page.getByTestId('issued-password');
  await expect(issued).toBeVisible();
  await snap(page, 'issued-password-zh');
  const password = (await issued.textContent())?.trim() ?? '';
  expect(password.length).toBeGreaterThanOrEqual(6);
  await page.getByTestId('issued-password-close').click();
  await expect(page.getByTestId('user-row-name').filter({ hasText: DESIGNER.name })).toBeVisible();
  await expect(page.getByTestId('department-node').filter({ hasText: '设计部' })).toContainText('1');
  await snap(page, 'users-zh');

  // A second person with the same e-mail is refused next to the field, and nothing is added.
  await page.getByTestId('user-add').click();
  await page.getByTestId('user-name').fill('重复');
  await page.getByTestId('user-email').fill(DESIGNER.email);
  await page.getByTestId('user-save').click();
  await expect(page.getByText('邮箱已被注册')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('user-row-name')).toHaveCount(1);

  // The department cannot be deleted while it has a member.
  await page.getByTestId('department-delete').click();
  await page.getByRole('button', { name: /^删\s?除$/ }).click();
  await expect(page.getByText('部门下还有子部门或成员，不能删除')).toBeVisible();

  await signOut(page);

  // The new person signs in with the issued password and must choose their own first.
  await signIn(page, DESIGNER.email, password);
  const modal = page.getByRole('dialog');
  await expect(modal).toBeVisible();
  // Nothing behind the dialog asks the server for what it refuses until the password is changed.
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('没有访问权限')).toHaveCount(0);
  await snap(page, 'forced-password-change-zh');
  await modal.getByLabel('原密码').fill(password);
  await modal.getByLabel('新密码', { exact: true }).fill(DESIGNER.newPassword);
  await modal.getByLabel('确认新密码').fill(DESIGNER.newPassword);
  await modal.getByRole('button', { name: /^保\s?存$/ }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, DESIGNER.email, DESIGNER.newPassword);
  await expect(page.getByTestId('side-tabs')).toBeVisible();

  // The role grants the import function only: that is the one tab of the admin area.
  await page.goto('/manage');
  await expect(page).toHaveURL(/\/manage\/import$/);
  await expect(page.getByTestId('manage-tabs').getByRole('tab')).toHaveCount(1);
  await page.goto('/manage/users');
  await expect(page.getByText('没有访问权限')).toBeVisible();
});

test('the users and roles screens in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await page.goto('/manage/users');
  await expect(page.getByTestId('users-page')).toContainText('Departments');
  await expect(page.getByTestId('user-row-name').first()).toBeVisible();
  await snap(page, 'users-en');
  await page.getByTestId('user-edit').first().click();
  await expect(page.getByTestId('user-form')).toBeVisible();
  await snap(page, 'user-dialog-en');
  await page.keyboard.press('Escape');

  await page.goto('/manage/role');
  await expect(page.getByTestId('role-row-name').first()).toBeVisible();
  await snap(page, 'roles-en');
  await page.getByTestId('role-edit').first().click();
  await expect(page.getByTestId('role-modify')).toContainText('The administrator role');
  await snap(page, 'role-modify-en');
});
