// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { clearToken, getToken } from '../../auth/token';
import { OAuthPage } from './OAuthPage';

function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/oauth', element: <OAuthPage /> },
      { path: '/login', element: <div>login page</div> },
      { path: '/myCollect', element: <div>favourites page</div> },
    ],
    { initialEntries: [url] },
  );
  // Strict mode runs the page's effect twice, as in development: the callback must go once.
  render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  return router;
}

const envelope = (body: object, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('single sign-on return page (/oauth)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    clearToken();
  });

  it('hands the callback to the server once, keeps the session and opens the page asked for', async () => {
    const fetchMock = vi.fn().mockResolvedValue(
      envelope({
        success: true,
        result: {
          token: 'sso-token',
          expiresAt: '2030-01-01T00:00:00Z',
          passwordExpireFlag: false,
          redirect: '/myCollect',
        },
        errorCode: null,
        errorDesc: null,
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const router = renderAt('/oauth?code=abc&state=xyz&iss=https%3A%2F%2Fid.example.com');
    await waitFor(() => expect(router.state.location.pathname).toBe('/myCollect'));
    expect(await screen.findByText('favourites page')).toBeTruthy();
    expect(getToken()).toBe('sso-token');
    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/security-api/oauth-callback');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({
      callbackUrl: '/oauth?code=abc&state=xyz&iss=https%3A%2F%2Fid.example.com',
    });
  });

  it('explains a refusal in the interface language and leads back to /login', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(
          envelope({ success: false, result: null, errorCode: 'SED_02', errorDesc: '用户名不存在' }, 404),
        ),
    );
    const router = renderAt('/oauth?code=abc&state=xyz');
    expect((await screen.findByTestId('sso-error')).textContent).toBe(
      '没有与该企业账号匹配的用户，请联系管理员为您开通账号。',
    );
    expect(getToken()).toBeUndefined();
    await userEvent.click(screen.getByRole('link', { name: '返回登录页' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('says a used or expired sign-in is over', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(
          envelope(
            { success: false, result: null, errorCode: 'SE_400', errorDesc: '参数错误：state: …' },
            400,
          ),
        ),
    );
    renderAt('/oauth?code=abc&state=used');
    expect((await screen.findByTestId('sso-error')).textContent).toBe(
      '本次登录已失效（已使用或已超时），请返回登录页重新登录。',
    );
  });

  it('explains, without calling the server, a provider that could not be reached', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/oauth?error=SE_503');
    expect((await screen.findByTestId('sso-error')).textContent).toBe(
      '企业统一认证服务暂时无法访问，请稍后再试。',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('explains, without calling the server, a page to open afterwards that login_sso refused', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/oauth?error=SE_400');
    expect((await screen.findByTestId('sso-error')).textContent).toBe(
      '登录后要打开的页面不是本系统的页面，请返回登录页重新登录。',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('explains, without calling the server, a sign-in the provider did not complete', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/oauth?error=access_denied&state=xyz');
    expect((await screen.findByTestId('sso-error')).textContent).toBe(
      '企业统一认证未完成登录（access_denied）。',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
