// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { MailGroupDialog } from './MailGroupDialog';

const ok = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));

const DEPARTMENTS = {
  departments: [
    { id: 1, name: '总部', parentId: null, memberCount: 1 },
    { id: 2, name: '设计部', parentId: 1, memberCount: 2 },
  ],
};
const USERS = {
  list: [
    { userId: 11, name: '王设计', email: 'wang@example.com', deptName: '设计部' },
    { userId: 12, name: '李摄影', email: null, deptName: '设计部' },
  ],
  total: 2,
  pageNo: 1,
  pageSize: 8,
};

function renderDialog(onClose = () => {}) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <App>
        <MailGroupDialog groupId={null} onClose={onClose} />
      </App>
    </QueryClientProvider>,
  );
}

describe('the mail-group dialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says what is missing or wrong before anything is sent, then sends the group', async () => {
    const bodies: unknown[] = [];
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url.includes('/mail-group/departments')) return ok(DEPARTMENTS);
      if (url.includes('/mail-group/users')) return ok(USERS);
      if (url.includes('/mail-group/create')) {
        bodies.push(JSON.parse(String(init?.body)));
        return ok({ id: 5 });
      }
      throw new Error(`unexpected call ${url}`);
    });
    vi.stubGlobal('fetch', fetchMock);
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderDialog(onClose);

    // The name is counted against its 20 characters.
    const name = screen.getByTestId('mail-group-name');
    await user.type(name, '设计部全体');
    expect(screen.getByText('5 / 20')).toBeTruthy();

    // Neither a member nor an address.
    await user.click(screen.getByTestId('mail-group-save'));
    expect(await screen.findByText('请至少选择一位成员或填写一个邮箱地址')).toBeTruthy();

    // A bad address is named.
    const addresses = within(screen.getByTestId('mail-group-emails')).getByRole('combobox');
    await user.type(addresses, 'Agency@Example.com{enter}bad@{enter}');
    expect(await screen.findByText('“bad@”不是有效的邮箱地址')).toBeTruthy();
    await user.click(screen.getByText('bad@').parentElement?.querySelector('.ant-tag-close-icon') as Element);
    await waitFor(() => expect(screen.queryByText('“bad@”不是有效的邮箱地址')).toBeNull());

    // A user ticked in the list becomes a member; one without an address is marked.
    expect(await screen.findByText('王设计')).toBeTruthy();
    expect(screen.getByText('无邮箱')).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: '王设计' }));
    expect(screen.getByTestId('member-count').textContent).toBe('已选 1 人');

    await user.click(screen.getByTestId('mail-group-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies).toEqual([
      { mailGroupName: '设计部全体', userIdList: [11], externalEmails: ['agency@example.com'] },
    ]);
  });
});
