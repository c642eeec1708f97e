// @vitest-environment jsdom
import type { ApiEnterprise } from '@dam/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { AccessDialog } from './AccessDialog';

const answer = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));
const refusal = (status: number, errorCode: string, errorDesc: string) =>
  new Response(JSON.stringify({ success: false, result: null, errorCode, errorDesc }), { status });

const ENTERPRISES: ApiEnterprise[] = [
  {
    enterpriseId: 'erp',
    name: '企业资源计划',
    ratePerMinute: 600,
    apiCodes: ['assets.get'],
    accessCount: 0,
    updatedAt: '2026-11-26T00:00:00.000Z',
  },
];

describe('the API access dialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names what SPEC §5 requires before sending, shows a server refusal under its field, and hands the secret on once', async () => {
    const bodies: unknown[] = [];
    let refuse = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (!url.endsWith('/open/addOpenApi')) throw new Error(`unexpected call ${url}`);
        bodies.push(JSON.parse(String(init?.body)));
        if (refuse) {
          refuse = false;
          return refusal(400, 'SED_12', '邮箱未注册');
        }
        return answer({ id: 4, keyId: 'dak_ABCDEFGHIJKLMNOPQRST', secret: 'dsk_secret' });
      }),
    );
    const onCreated = vi.fn();
    const onClose = vi.fn();
    const user = userEvent.setup();
    // Pasted rather than typed: an Ant Design form typed into through jsdom is slow.
    const fill = async (input: HTMLElement, text: string) => {
      await user.click(input);
      await user.paste(text);
    };
    render(
      <QueryClientProvider client={new QueryClient()}>
        <App>
          <AccessDialog
            record={null}
            enterprises={ENTERPRISES}
            defaultMail=""
            onClose={onClose}
            onCreated={onCreated}
          />
        </App>
      </QueryClientProvider>,
    );

    // Nothing filled: name, description, enterprise and mail are each named, nothing is sent.
    await user.click(screen.getByTestId('api-access-save'));
    await waitFor(() => expect(screen.getAllByText('必填')).toHaveLength(4));
    expect(bodies).toEqual([]);

    await fill(screen.getByTestId('api-access-name'), 'ERP 同步');
    await fill(screen.getByTestId('api-access-description'), '每晚同步商品图');
    await user.click(within(screen.getByTestId('api-access-enterprise')).getByRole('combobox'));
    await user.click(await screen.findByText('企业资源计划 (erp)'));
    await fill(screen.getByTestId('api-access-mail'), 'nobody@');
    await user.click(screen.getByTestId('api-access-save'));
    expect(await screen.findByText('请输入有效的邮箱地址')).toBeTruthy();
    expect(bodies).toEqual([]);

    // The server does not know the mail (SED_12): said under the mail field, the dialog stays.
    await user.clear(screen.getByTestId('api-access-mail'));
    await fill(screen.getByTestId('api-access-mail'), 'Nobody@Example.com');
    await user.click(screen.getByTestId('api-access-save'));
    expect(await screen.findByText('邮箱未注册')).toBeTruthy();
    expect(bodies).toEqual([
      {
        name: 'ERP 同步',
        description: '每晚同步商品图',
        enterpriseId: 'erp',
        userMail: 'nobody@example.com',
        status: 1,
      },
    ]);
    expect(onClose).not.toHaveBeenCalled();

    // Saved: the new key and its secret go to the page once, and the dialog closes.
    await user.click(screen.getByTestId('api-access-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onCreated).toHaveBeenCalledTimes(1);
    expect(onCreated).toHaveBeenCalledWith(
      { id: 4, keyId: 'dak_ABCDEFGHIJKLMNOPQRST', secret: 'dsk_secret' },
      'ERP 同步',
    );
  });
});
