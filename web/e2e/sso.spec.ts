import { expect, test } from '@playwright/test';
import { SSO_ACCOUNTS, SSO_ISSUER } from './sso-peer';
import { hoverUserMenu, snap } from './support';

/**
 * Company single sign-on (issue 13) against the real OpenID provider web/e2e/peers.ts starts
 * (sso-peer.ts): the company-account tab, the provider's sign-in page, back through /oauth to the page
 * asked for; sign-out ends the provider's session too and comes back to /login.
 */
test('a user signs in with the company account and signs out of the provider too', async ({ page }) => {
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  const person = SSO_ACCOUNTS.admin;

  // Asked for a page while signed out: the sign-in page remembers it.
  await page.goto('/myCollect');
  await expect(page).toHaveURL(/\/login\?redirect=%2FmyCollect$/);
  await page.getByTestId('login-tab-sso').click();
  await expect(page.getByTestId('sso-submit')).toHaveText('使用企业账号登录');
  await snap(page, 'login-sso-zh');

  // The provider's own sign-in page.
  await page.getByTestId('sso-submit').click();
  await expect(page).toHaveURL((url) => url.href.startsWith(`${SSO_ISSUER}/interaction/`));
  await page.getByLabel('Login').fill(person.sub);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // Back through /oauth, signed in, on the page asked for.
  await page.waitForURL((url) => url.pathname === '/myCollect');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  expect((await page.context().cookies()).some((cookie) => cookie.name === 'skToken')).toBe(true);

  // Signing out ends the provider's session as well, then comes back to /login.
  await expect(async () => {
    await hoverUserMenu(page);
    await page.getByRole('menuitem', { name: /退出登录|Sign out/ }).click({ timeout: 2_000 });
  }).toPass();
  await expect(page.getByRole('heading', { name: 'Sign out of the test identity provider?' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.context().cookies()).some((cookie) => cookie.name === 'skToken')).toBe(false);

  // The provider's session is over: the company account must sign in there again.
  await page.getByTestId('login-tab-sso').click();
  await page.getByTestId('sso-submit').click();
  await expect(page.getByLabel('Login')).toBeVisible();
});

test('the return page explains a sign-in the server cannot finish, and leads back', async ({ page }) => {
  await page.goto('/oauth?code=forged&state=forged');
  await expect(page.getByTestId('sso-error')).toHaveText(
    '本次登录已失效（已使用或已超时），请返回登录页重新登录。',
  );
  await page.getByTestId('sso-back').click();
  await expect(page).toHaveURL(/\/login$/);
});
