// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { filesKeys } from '../../api/items';
import { currentUserKey } from '../../auth/useCurrentUser';
import { compositeKeys } from './compositeApi';
import { TemplateEditorPage } from './TemplateEditorPage';

const answer = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));
const refusal = (status: number, errorCode: string, errorDesc: string) =>
  new Response(JSON.stringify({ success: false, result: null, errorCode, errorDesc }), { status });

function renderEditor() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserKey, {
    id: 1,
    username: 'admin',
    name: '管理员',
    mobile: null,
    email: null,
    deptId: null,
    deptname: null,
    avatar: null,
    loginNum: 1,
    passwordExpireFlag: false,
    resourcesList: [{ resourceType: 3, resourceId: 9 }],
    filePermissions: {},
  });
  client.setQueryData(compositeKeys.fonts, [
    { id: 'wqy-zenhei', family: 'WenQuanYi Zen Hei', cjk: true, bold: false, available: true },
  ]);
  client.setQueryData(filesKeys.tagSelector, []);
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/templates/new']}>
          <Routes>
            <Route path="/templates/:id" element={<TemplateEditorPage />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

describe('the template editor', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('adds blocks to the live preview, checks the draft before saving and shows the server’s refusal under its field', async () => {
    const saved: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.endsWith('/template/save')) {
          saved.push(JSON.parse(String(init?.body)));
          return refusal(400, 'SE_400', '参数错误：spec.output.sliceMaxHeight: 不能小于 200');
        }
        if (url.endsWith('/template/preview'))
          return new Response(new Blob(['jpeg']), { headers: { 'content-type': 'image/jpeg' } });
        return answer(null);
      }),
    );
    const user = userEvent.setup();
    renderEditor();

    await user.click(screen.getByTestId('add-block'));
    await user.click(await screen.findByText('文字'));
    await waitFor(() => expect(screen.getAllByTestId('block-row')).toHaveLength(1));
    expect(within(screen.getByTestId('page-preview')).getAllByTestId('preview-box')).toHaveLength(1);
    expect(within(screen.getByTestId('page-preview')).getByText('{artNum} {name}')).toBeTruthy();

    // No name yet: nothing is sent, the field says why.
    await user.click(screen.getByTestId('template-save'));
    expect(saved).toEqual([]);
    expect(within(screen.getByTestId('field-name')).getByText('必填')).toBeTruthy();

    await user.click(screen.getByTestId('template-name'));
    await user.paste('新品详情页');
    await user.click(screen.getByTestId('template-save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({
      name: '新品详情页',
      status: 1,
      spec: { width: 790, blocks: [{ type: 'text', fontId: 'wqy-zenhei', text: '{artNum} {name}' }] },
    });
    expect(
      await within(screen.getByTestId('field-spec.output.sliceMaxHeight')).findByText('不能小于 200'),
    ).toBeTruthy();
  });
});
