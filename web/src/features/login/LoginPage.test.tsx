// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { clearToken, getToken } from '../../auth/token';
import { LoginPage } from './LoginPage';

const ok = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));

/**
 * The server as the page sees it: iam-on-off answered here (single sign-on off unless `sso`), every
 * other call answered from `answers` in order. Answers the calls made, iam-on-off left out.
 */
function fakeServer(answers: Response[], { sso = false } = {}) {
  const calls: Array<[string, RequestInit]> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (String(url).includes('/iam-on-off')) return ok({ enabled: sso });
      calls.push([String(url), init]);
      const next = answers.shift();
      if (!next) throw new Error(`unexpected call ${url}`);
      return next;
    }),
  );
  return calls;
}

function renderLogin() {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/', element: <div>home page</div> },
    ],
    { initialEntries: ['/login'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('login screen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    clearToken();
  });

  it('explains what is wrong before calling the server', async () => {
    const calls = fakeServer([]);
    renderLogin();
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('请输入手机号或邮箱')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('手机号或邮箱'), '12345');
    await userEvent.type(screen.getByLabelText('密码'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('请输入 11 位手机号或正确的邮箱地址')).toBeTruthy();
    expect(screen.getByText('密码长度为 6–16 位')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('shows the password on request, and hides it again', async () => {
    renderLogin();
    const password = screen.getByLabelText('密码');
    await userEvent.type(password, 'Secret#1');
    expect(password.getAttribute('type')).toBe('password');
    await userEvent.click(screen.getByRole('button', { name: '显示密码' }));
    expect(password.getAttribute('type')).toBe('text');
    await userEvent.click(screen.getByRole('button', { name: '隐藏密码' }));
    expect(password.getAttribute('type')).toBe('password');
  });

  it('shows the server’s reason when sign-in fails, and signs in otherwise', async () => {
    const calls = fakeServer([
      new Response(
        JSON.stringify({ success: false, result: null, errorCode: 'SED_10', errorDesc: '用户名或密码错误' }),
        { status: 400 },
      ),
      ok({ token: 'abc', expiresAt: '2030-01-01T00:00:00Z', passwordExpireFlag: false }),
    ]);
    const router = renderLogin();
    await userEvent.type(screen.getByLabelText('手机号或邮箱'), 'admin@example.com');
    await userEvent.type(screen.getByLabelText('密码'), 'Wrong#123');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByTestId('login-error')).toHaveProperty('textContent', '用户名或密码错误');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getToken()).toBe('abc');
    const body = JSON.parse(calls[1]?.[1].body as string);
    expect(body).toEqual({ userName: 'admin@example.com', password: 'Wrong#123', remember: false });
  });

  it('signs in with an SMS code: asks for it, counts down, then sends mobile and code', async () => {
    const calls = fakeServer([
      ok({ resendAfterSeconds: 60 }),
      ok({ token: 'sms-token', expiresAt: '2030-01-01T00:00:00Z', passwordExpireFlag: false }),
    ]);
    const router = renderLogin();
    await userEvent.click(screen.getByRole('tab', { name: '短信登录' }));
    await userEvent.click(await screen.findByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('请输入手机号')).toBeTruthy();
    expect(calls).toEqual([]);

    await userEvent.type(screen.getByLabelText('手机号'), '13800138000');
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('验证码已发送，5 分钟内有效')).toBeTruthy();
    expect(calls[0]?.[0]).toContain('/security-api/send-code');
    expect(JSON.parse(calls[0]?.[1].body as string)).toEqual({ mobile: '13800138000', purpose: 'signIn' });
    const again = screen.getByTestId('sms-send');
    expect(again.textContent).toBe('60 秒后重新获取');
    expect(again).toHaveProperty('disabled', true);

    await userEvent.type(screen.getByLabelText('验证码'), '12345');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('验证码为 6 位数字')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('验证码'), '6');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getToken()).toBe('sms-token');
    const login = JSON.parse(calls[1]?.[1].body as string);
    expect(login).toEqual({ mobile: '13800138000', messageCode: '123456', remember: false });
  });

  it('offers the company account only when single sign-on is on', async () => {
    fakeServer([]);
    renderLogin();
    expect(await screen.findByRole('tab', { name: '短信登录' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('tab')).toHaveLength(2));
    cleanup();
    fakeServer([], { sso: true });
    renderLogin();
    await userEvent.click(await screen.findByRole('tab', { name: '企业账号' }));
    expect(await screen.findByTestId('sso-submit')).toBeTruthy();
  });
});
