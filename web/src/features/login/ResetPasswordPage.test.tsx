// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { ResetPasswordPage } from './ResetPasswordPage';

function renderAt(entry: string) {
  const router = createMemoryRouter(
    [
      { path: '/login/reset-password', element: <ResetPasswordPage /> },
      { path: '/login', element: <div>sign-in page</div> },
    ],
    { initialEntries: [entry] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const envelope = (body: object, status = 200) => new Response(JSON.stringify(body), { status });

describe('reset password page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for a link by e-mail and says it is on its way without saying whether the account exists', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValue(envelope({ success: true, result: null, errorCode: null, errorDesc: null }));
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/login/reset-password');
    await userEvent.type(screen.getByLabelText('邮箱'), 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: '发送重置链接' }));
    expect(await screen.findByText('邮箱格式不正确')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('邮箱'));
    await userEvent.type(screen.getByLabelText('邮箱'), 'li.lei@example.com');
    await userEvent.click(screen.getByRole('button', { name: '发送重置链接' }));
    expect((await screen.findByTestId('reset-mail-sent')).textContent).toContain(
      '如果 li.lei@example.com 是已注册的邮箱',
    );
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toContain('/security-api/email-reset-pwd');
    expect(JSON.parse(init.body as string)).toEqual({ email: 'li.lei@example.com' });
  });

  it('sets the new password with the link token, showing the server refusal first', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        envelope(
          { success: false, result: null, errorCode: 'SE_400', errorDesc: 'token：链接已过期或无效' },
          400,
        ),
      )
      .mockResolvedValueOnce(envelope({ success: true, result: null, errorCode: null, errorDesc: null }));
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/login/reset-password?token=abcdefghijklmnopqrstuvwxyz');
    await userEvent.type(screen.getByLabelText('新密码'), 'N3w!pass');
    await userEvent.type(screen.getByLabelText('确认新密码'), 'N3w!pasX');
    await userEvent.click(screen.getByRole('button', { name: '重置密码' }));
    expect(await screen.findByText('两次输入的新密码不一致')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('确认新密码'));
    await userEvent.type(screen.getByLabelText('确认新密码'), 'N3w!pass');
    await userEvent.click(screen.getByRole('button', { name: '重置密码' }));
    expect((await screen.findByTestId('login-error')).textContent).toBe('token：链接已过期或无效');
    await userEvent.click(screen.getByRole('button', { name: '重置密码' }));
    expect(await screen.findByTestId('reset-done')).toBeTruthy();
    const body = JSON.parse((fetchMock.mock.calls[1] as [string, RequestInit])[1].body as string);
    expect(body).toEqual({
      token: 'abcdefghijklmnopqrstuvwxyz',
      password: 'N3w!pass',
      reEnterPassword: 'N3w!pass',
    });
  });
});
