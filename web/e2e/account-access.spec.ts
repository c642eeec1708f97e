import { expect, type Page, test } from '@playwright/test';
import { PEERS_URL } from './peer-ports';
import { ADMIN, chooseUserMenuItem, lastMailTo, signIn, snap, switchToEnglish } from './support';

/**
 * The other ways in (issue 13): an SMS code read from the journeys' SMS gateway, a password reset
 * through the link the journeys' SMTP server received, and a change of mobile number in My info.
 */

let counter = 0;
/** An 11-digit number no other journey of this run uses. */
function freshMobile(): string {
  counter += 1;
  return `137${String(Date.now() % 1_000_000).padStart(6, '0')}${String(counter).padStart(2, '0')}`;
}

const PASSWORD = 'Journey#26';

/**
 * A new account made by the administrator through the API, with its password then chosen by its
 * owner (so no forced change waits at sign-in). Leaves the page signed out.
 */
async function givenAccount(page: Page, who: { email?: string; mobile?: string }): Promise<void> {
  const login = await page.request.post('/security-api/login', {
    data: { userName: ADMIN.email, password: ADMIN.password },
  });
  const adminToken = (await login.json()).result.token as string;
  const tree = await page.request.post('/security-api/dept-tree', { headers: { token: adminToken } });
  const deptId = (await tree.json()).result.departments[0].id as number;
  const created = await page.request.post('/security-api/create-user', {
    headers: { token: adminToken },
    data: { name: `旅程用户${counter}`, deptId, ...who },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const issued = (await created.json()).result.password as string;
  const own = await page.request.post('/security-api/login', {
    data: { userName: who.email ?? who.mobile, password: issued },
  });
  const ownToken = (await own.json()).result.token as string;
  const changed = await page.request.post('/security-api/self-reset-pwd', {
    headers: { token: ownToken },
    data: { password: issued, newPassword: PASSWORD, reEnterPassword: PASSWORD },
  });
  expect(changed.ok(), await changed.text()).toBe(true);
}

/** The code the journeys' SMS gateway last received for `mobile`, as the phone would show it. */
async function smsCodeTo(page: Page, mobile: string): Promise<string> {
  let code = '';
  await expect(async () => {
    const answer = await page.request.get(`${PEERS_URL}/sms/last-code?mobile=${mobile}`);
    expect(answer.ok()).toBe(true);
    code = (await answer.json()).code as string;
  }).toPass({ timeout: 10_000 });
  return code;
}

test('signs in with a code sent by SMS', async ({ page }) => {
  const mobile = freshMobile();
  await givenAccount(page, { mobile });
  await page.goto('/login');
  await expect(page.getByTestId('login-tab-password')).toHaveAttribute('aria-selected', 'true');
  await snap(page, 'login-password-tab');
  await page.getByTestId('login-tab-sms').click();
  await page.getByTestId('sms-send').click();
  await expect(page.getByText('手机号格式不正确').or(page.getByText('请输入手机号'))).toBeVisible();
  await page.getByTestId('sms-mobile').fill(mobile);
  await page.getByTestId('sms-send').click();
  await expect(page.getByTestId('sms-notice')).toHaveText('验证码已发送，5 分钟内有效');
  await expect(page.getByTestId('sms-send')).toBeDisabled();
  await expect(page.getByTestId('sms-send')).toContainText('秒后重新获取');
  await snap(page, 'login-sms-tab');

  // A wrong code is refused with the server's reason; the code from the phone signs in.
  const code = await smsCodeTo(page, mobile);
  await page.getByTestId('sms-code').fill(code === '000000' ? '111111' : '000000');
  await page.getByTestId('sms-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('验证码错误');
  await page.getByTestId('sms-code').fill(code);
  await page.getByTestId('sms-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await expect(page.getByTestId('user-menu')).toContainText('旅程用户');
});

test('resets a forgotten password with the link sent by mail', async ({ page }) => {
  const email = `journey-${Date.now()}@example.com`;
  await givenAccount(page, { email });
  await page.goto('/login');
  await page.getByTestId('login-forgot').click();
  await page.waitForURL('**/login/reset-password');
  await expect(page.getByTestId('reset-tab-email')).toHaveAttribute('aria-selected', 'true');
  await snap(page, 'reset-request');
  await page.getByTestId('reset-email').fill(email);
  await page.getByTestId('reset-send-link').click();
  await expect(page.getByTestId('reset-mail-sent')).toContainText(email);
  await snap(page, 'reset-mail-sent');

  const mail = await lastMailTo(page, email);
  expect(mail.subject).toBe('【智能图档管理中台】重置密码');
  const link = /http\S+\/login\/reset-password\?token=[\w-]+/.exec(mail.text)?.[0] ?? '';
  expect(link).not.toBe('');
  await page.goto(link);
  await page.getByTestId('reset-password').fill('short');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByText('密码须为 6–16 位，且包含字母、数字和特殊字符')).toBeVisible();
  await snap(page, 'reset-choose-password');
  await page.getByTestId('reset-password').fill('Reset#2026');
  await page.getByTestId('reset-password-again').fill('Reset#2026');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-done')).toBeVisible();

  // The link worked once; the new password signs in.
  await page.goto(link);
  await page.getByTestId('reset-password').fill('Again#2026');
  await page.getByTestId('reset-password-again').fill('Again#2026');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('login-error')).toContainText('链接已过期或无效');
  await page.goto('/login');
  await page.getByTestId('login-identifier').fill(email);
  await page.getByTestId('login-password').fill('Reset#2026');
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
});

test('changes the mobile number in My info with a code sent to the new one', async ({ page }) => {
  const before = freshMobile();
  await givenAccount(page, { mobile: before });
  await signIn(page, before, PASSWORD);

  await chooseUserMenuItem(page, '我的信息', page.getByTestId('my-mobile'));
  await expect(page.getByTestId('my-mobile')).toHaveText(before);
  await snap(page, 'my-info-account');
  await page.getByTestId('open-change-mobile').click();
  const after = freshMobile();
  await page.getByTestId('new-mobile').fill(after);
  await page.getByTestId('send-mobile-code').click();
  await expect(page.getByTestId('send-mobile-code')).toBeDisabled();
  await page.getByTestId('mobile-code').fill(await smsCodeTo(page, after));
  await snap(page, 'change-mobile');
  await page.getByTestId('save-mobile').click();
  await expect(page.getByText('手机号已修改')).toBeVisible();
  await expect(page.getByTestId('my-mobile')).toHaveText(after);
});

test('changes the e-mail address with the link mailed to the new one', async ({ page }) => {
  const mobile = freshMobile();
  await givenAccount(page, { mobile });
  await signIn(page, mobile, PASSWORD);

  await chooseUserMenuItem(page, '我的信息', page.getByTestId('my-email'));
  await page.getByTestId('open-change-email').click();
  const email = `moved-${Date.now()}@example.com`;
  await page.getByTestId('new-email').fill(email);
  await page.getByTestId('send-email-link').click();
  // The confirmation mail goes out through the mail job; the form follows it until it went.
  await expect(page.getByTestId('email-link-sent')).toHaveAttribute('data-state', 'sent', {
    timeout: 20_000,
  });
  await expect(page.getByTestId('email-link-sent')).toContainText(email);
  await snap(page, 'change-email');

  const mail = await lastMailTo(page, email);
  expect(mail.subject).toBe('【智能图档管理中台】确认新邮箱');
  const link = /http\S+\/login\/confirm-email\?token=[\w-]+/.exec(mail.text)?.[0] ?? '';
  await page.goto(link);
  await expect(page.getByTestId('email-confirmed')).toBeVisible();
  await snap(page, 'email-confirmed');
  await page.goto('/');
  await chooseUserMenuItem(page, '我的信息', page.getByTestId('my-email'));
  await expect(page.getByTestId('my-email')).toHaveText(email);
});

test('the sign-in, reset and My info screens in English', async ({ page }) => {
  await switchToEnglish(page);
  const mobile = freshMobile();
  await givenAccount(page, { mobile });
  await page.goto('/login');
  await expect(page.getByTestId('login-tab-sms')).toHaveText('SMS code');
  await snap(page, 'login-password-tab-en');
  await page.getByTestId('login-tab-sms').click();
  await page.getByTestId('sms-mobile').fill('123');
  await page.getByTestId('sms-send').click();
  await expect(page.getByText('Wrong phone format')).toBeVisible();
  await snap(page, 'login-sms-tab-en');
  await page.getByTestId('login-tab-sso').click();
  await expect(page.getByTestId('sso-submit')).toBeVisible();
  await snap(page, 'login-sso-tab-en');
  await page.goto('/login/reset-password');
  await page.getByTestId('reset-tab-mobile').click();
  await expect(page.getByTestId('reset-send-code')).toHaveText('Get code');
  await snap(page, 'reset-request-en');
  await page.goto('/login/reset-password?token=not-a-real-token-at-all');
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await snap(page, 'reset-choose-password-en');

  await signIn(page, mobile, PASSWORD);
  await chooseUserMenuItem(page, 'My info', page.getByTestId('my-mobile'));
  await snap(page, 'my-info-account-en');
  await page.getByTestId('open-change-mobile').click();
  await expect(page.getByText('New mobile number')).toBeVisible();
  await snap(page, 'change-mobile-en');
});
