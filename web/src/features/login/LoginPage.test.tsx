// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { clearToken, getToken } from '../../auth/token';
import { LoginPage } from './LoginPage';

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
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('请输入手机号或邮箱')).toBeTruthy();
    expect(screen.getByText('请输入密码')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('手机号或邮箱'), '12345');
    await userEvent.type(screen.getByLabelText('密码'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('请输入 11 位手机号或正确的邮箱地址')).toBeTruthy();
    expect(screen.getByText('密码长度为 6–16 位')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
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
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        new Response(
          JSON.stringify({
            success: false,
            result: null,
            errorCode: 'SED_10',
            errorDesc: '用户名或密码错误',
          }),
          {
            status: 400,
          },
        ),
      )
      .mockResolvedValueOnce(
        new Response(
          JSON.stringify({
            success: true,
            result: { token: 'abc', expiresAt: '2030-01-01T00:00:00Z', passwordExpireFlag: false },
            errorCode: null,
            errorDesc: null,
          }),
        ),
      );
    vi.stubGlobal('fetch', fetchMock);
    const router = renderLogin();
    await userEvent.type(screen.getByLabelText('手机号或邮箱'), 'admin@example.com');
    await userEvent.type(screen.getByLabelText('密码'), 'Wrong#123');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByTestId('login-error')).toHaveProperty('textContent', '用户名或密码错误');
    await userEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getToken()).toBe('abc');
    const body = JSON.parse((fetchMock.mock.calls[1] as [string, RequestInit])[1].body as string);
    expect(body).toEqual({ userName: 'admin@example.com', password: 'Wrong#123', remember: false });
  });
});
