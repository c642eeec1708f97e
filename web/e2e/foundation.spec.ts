import { expect, test } from '@playwright/test';
import { ADMIN, CLIENT_LINKS, chooseUserMenuItem, signIn, snap, switchToEnglish } from './support';

test('signs in as the administrator, sees the layout, switches to English and signs out', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: '登录' })).toBeVisible();
  await snap(page, 'login-zh');

  await page.getByTestId('login-identifier').fill(ADMIN.email);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('side-tabs')).toBeVisible();
  await expect(page.getByTestId('user-menu')).toContainText('管理员');
  await expect(page.getByText('智能图档管理中台').first()).toBeVisible();
  await snap(page, 'layout-zh');

  await page.getByTestId('language-switch').hover();
  await expect(page.getByRole('menuitemradio', { name: '中文' })).toHaveAttribute('aria-checked', 'true');
  await snap(page, 'language-menu-zh');
  await page.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(page.getByTestId('language-switch')).toContainText('English');
  await expect(page.getByText('Image Archive Platform').first()).toBeVisible();
  await snap(page, 'layout-en');

  await page.getByTestId('user-menu').hover();
  await page.getByRole('menuitem', { name: 'My info' }).click();
  await expect(page.getByRole('dialog')).toContainText('admin@example.com');
  await snap(page, 'my-info-en');
  await page.getByTestId('open-change-password').click();
  await expect(page.getByTestId('change-password-form')).toBeVisible();
  await snap(page, 'change-password-en');
  await page.keyboard.press('Escape');

  await page.getByTestId('user-menu').hover();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await snap(page, 'login-en');

  // The old session is gone: a protected page sends us back to sign in.
  await page.goto('/about');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fabout$/);
});

test('shows the localised reason for a wrong password', async ({ page }) => {
  await page.goto('/login');
  // Nothing filled in: each field says what it needs, and nothing is sent.
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('请输入手机号或邮箱')).toBeVisible();
  await expect(page.getByText('请输入密码', { exact: true })).toBeVisible();
  await expect(page.getByTestId('login-error')).toBeHidden();
  await snap(page, 'login-problems-zh');
  await page.getByTestId('login-identifier').fill(ADMIN.email);
  await page.getByTestId('login-password').fill('Wrong#123');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('用户名或密码错误');
  await snap(page, 'login-error-zh');
});

test('returns to the page asked for after signing in', async ({ page }) => {
  await page.goto('/about');
  await expect(page).toHaveURL(/redirect=%2Fabout/);
  await page.getByTestId('login-identifier').fill(ADMIN.email);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/about$/);
  // The about page: what the product is, the server's version, and readable permission names.
  await expect(page.getByText('面向鞋服品牌的数字资产管理平台', { exact: false })).toBeVisible();
  await expect(page.getByText(/^\d+\.\d+\.\d+/)).toBeVisible();
  await expect(page.getByText('用户管理', { exact: true })).toBeVisible();
  await snap(page, 'about-zh');
});

test('a signed-in page with a code parameter but no session goes to sign in, not a spinner', async ({
  page,
}) => {
  await page.goto('/myCollect?code=abc');
  await expect(page).toHaveURL(/\/login\?redirect=%2FmyCollect%3Fcode%3Dabc$/);
  await expect(page.getByRole('heading', { name: '登录' })).toBeVisible();
  await page.getByTestId('login-identifier').fill(ADMIN.email);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/myCollect\?code=abc$/);
  await expect(page.getByTestId('side-tabs')).toBeVisible();
});

test('the same, in English', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('lang', 'en'));
  await page.goto('/rencent?code=xyz');
  await expect(page).toHaveURL(/\/login\?redirect=%2Frencent%3Fcode%3Dxyz$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test('offers the desktop client for Windows and macOS from the user menu', async ({ page }) => {
  await signIn(page);
  const dialog = page.getByRole('dialog', { name: '下载客户端' });
  await chooseUserMenuItem(page, '下载客户端', dialog);
  await expect(dialog.getByTestId('client-download-windows')).toHaveAttribute('href', CLIENT_LINKS.windows);
  await expect(dialog.getByTestId('client-download-mac')).toHaveAttribute('href', CLIENT_LINKS.mac);
  await expect(dialog.getByTestId('client-download-windows')).toContainText('Windows 版');
  await snap(page, 'download-client-zh');
});

test('the download-client dialog in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  const dialog = page.getByRole('dialog', { name: 'Download the desktop client' });
  await chooseUserMenuItem(page, 'Download client', dialog);
  await expect(dialog.getByTestId('client-download-mac')).toContainText('For macOS');
  await snap(page, 'download-client-en');
});
