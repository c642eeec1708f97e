// @vitest-environment jsdom
import type { MakerArticle, MakerPlan, MakerStatus, TemplateDetail } from '@dam/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { currentUserKey } from '../../auth/useCurrentUser';
import { ComposePage } from './ComposePage';

const answer = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));

const DETAIL: TemplateDetail = {
  template: {
    id: 3,
    name: '鞋类详情页',
    status: 1,
    currentVersion: 2,
    width: 790,
    blockTypes: ['image', 'image'],
    sliceMaxHeight: 1500,
    updatedAt: '2026-11-26T10:00:00.000Z',
    updatedByName: '设计',
    missingFonts: [],
  },
  version: 2,
  spec: {
    width: 790,
    background: '#ffffff',
    blocks: [
      {
        id: 'front',
        type: 'image',
        label: '正面',
        rule: { kind: 'view', code: 'front' },
        required: true,
        height: 600,
        padding: { top: 0, right: 0, bottom: 0, left: 0 },
        fit: 'cover',
        position: 'centre',
        background: null,
      },
      {
        id: 'sole',
        type: 'image',
        label: '鞋底',
        rule: { kind: 'view', code: 'sole' },
        required: true,
        height: 600,
        padding: { top: 0, right: 0, bottom: 0, left: 0 },
        fit: 'cover',
        position: 'centre',
        background: null,
      },
    ],
    output: { sliceMaxHeight: 1500, quality: 85, stem: '详情页', page: true, slices: true, tagIds: [] },
  },
  versions: [{ version: 2, createdAt: '2026-11-26T10:00:00.000Z', createdByName: '设计' }],
  assets: [],
};

const PLAN: MakerPlan = {
  templateId: 3,
  version: 2,
  articles: [
    { artNum: 'AB1', skuName: '跑鞋', complete: true, missing: [], chosen: [] },
    {
      artNum: 'CD2',
      skuName: null,
      complete: false,
      missing: [{ slot: 'sole', label: '鞋底', rule: { kind: 'view', code: 'sole' }, viewName: '鞋底' }],
      chosen: [],
    },
  ],
  unmatched: ['ZZ9'],
};

const ARTICLE: MakerArticle = {
  artNum: 'AB1',
  fields: { artNum: 'AB1', name: '跑鞋' },
  slots: [
    { slot: 'front', label: '正面', rule: { kind: 'view', code: 'front' }, required: true, chosen: 11 },
    { slot: 'sole', label: '鞋底', rule: { kind: 'view', code: 'sole' }, required: true, chosen: 12 },
  ],
  candidates: [11, 12, 13].map((itemId) => ({
    itemId,
    name: `AB1_${itemId}.jpg`,
    viewCode: null,
    tagIds: [],
    width: 800,
    height: 800,
    thumbUrl: `/thumb/${itemId}.jpg`,
    previewUrl: null,
  })),
};

const STATUS: MakerStatus = {
  job: {
    id: 5,
    templateId: 3,
    templateName: '鞋类详情页',
    version: 2,
    status: 'done',
    articleCount: 2,
    counts: { pending: 0, rendering: 0, done: 1, missing: 1, failed: 0, cancelled: 0 },
    percent: 100,
    targetFolderId: 40,
    targetFolderName: '详情页输出',
    retryOf: null,
    createdAt: '2026-11-26T10:00:00.000Z',
    finishedAt: '2026-11-26T10:01:00.000Z',
  },
  articles: [
    {
      id: 1,
      position: 0,
      artNum: 'AB1',
      status: 'done',
      missing: [],
      warnings: [{ code: 'upscaled', slot: 'front', detail: 'AB1_11.jpg' }],
      error: null,
      pageHeight: 1200,
      sliceCount: 1,
      durationMs: 900,
      outputs: [],
    },
    {
      id: 2,
      position: 1,
      artNum: 'CD2',
      status: 'missing',
      missing: PLAN.articles[1]?.missing ?? [],
      warnings: [],
      error: null,
      pageHeight: null,
      sliceCount: null,
      durationMs: null,
      outputs: [],
    },
  ],
};

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserKey, {
    id: 1,
    username: 'u',
    name: '用户',
    mobile: null,
    email: null,
    deptId: null,
    deptname: null,
    avatar: null,
    loginNum: 1,
    passwordExpireFlag: false,
    resourcesList: [{ resourceType: 3, resourceId: 6 }],
    filePermissions: {},
  });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/composite" element={<ComposePage />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

describe('the compose screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('checks the articles, links a missing view to the completeness report and keeps a swap', async () => {
    const bodies: Record<string, unknown> = {};
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const path = url.split('?')[0] ?? '';
        if (init?.body) bodies[path] = JSON.parse(String(init.body));
        if (path.endsWith('/getTemplateList')) return answer([DETAIL.template]);
        if (path.endsWith('/template/detail')) return answer(DETAIL);
        if (path.endsWith('/makerPlan')) return answer(PLAN);
        if (path.endsWith('/makerArticle')) return answer(ARTICLE);
        throw new Error(`unexpected call ${url}`);
      }),
    );
    const user = userEvent.setup();
    renderAt('/composite');
    expect(await screen.findByText('鞋类详情页')).toBeTruthy();
    await user.click(screen.getByTestId('compose-art-nums'));
    await user.paste('AB1, CD2\nZZ9');
    expect(screen.getByTestId('compose-count').textContent).toContain('3 / 500');
    await user.click(screen.getByTestId('compose-check'));
    await waitFor(() => expect(screen.getByTestId('compose-plan')).toBeTruthy());
    expect(Object.entries(bodies).find(([path]) => path.endsWith('/makerPlan'))?.[1]).toEqual({
      templateId: 3,
      version: 2,
      artNums: ['AB1', 'CD2', 'ZZ9'],
    });
    expect(screen.getByTestId('compose-unmatched').textContent).toContain('ZZ9');
    expect(screen.getAllByTestId('plan-complete')).toHaveLength(1);
    const link = screen.getByRole('link', { name: '鞋底' });
    expect(link.getAttribute('href')).toBe('/manage/completeness?artNum=CD2');

    // Expand AB1 and swap its front slot for another of its files.
    await user.click(screen.getAllByRole('button', { name: /展开行|expand row/i })[0] as HTMLElement);
    const preview = await screen.findByTestId('article-preview');
    await waitFor(() => expect(preview.querySelector('img[src="/thumb/11.jpg"]')).toBeTruthy());
    await user.click(within(preview).getAllByTestId('preview-box')[0] as HTMLElement);
    const candidates = await screen.findAllByTestId('swap-candidate');
    await user.click(candidates[2] as HTMLElement);
    await waitFor(() => expect(preview.querySelector('img[src="/thumb/13.jpg"]')).toBeTruthy());
    expect(screen.getByText('已手动替换 1 处')).toBeTruthy();
  });

  it('shows a job’s articles with their missing views and warnings', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.includes('/checkMakerImageStatus')) return answer(STATUS);
        if (url.includes('/template/detail?id=3&version=2')) return answer(DETAIL);
        throw new Error(`unexpected call ${url}`);
      }),
    );
    renderAt('/composite?job=5');
    expect(await screen.findByTestId('job-progress')).toBeTruthy();
    expect(screen.getByTestId('job-status').dataset.status).toBe('done');
    expect(screen.getAllByTestId('article-status').map((tag) => tag.dataset.status)).toEqual([
      'done',
      'missing',
    ]);
    // Warnings name the slot by its label in the version the job rendered.
    expect(await screen.findByText('正面 的图片小于区块，已放大')).toBeTruthy();
    expect(screen.getByTestId('job-again').textContent).toContain('1');
    expect(screen.getByTestId('job-open-folder')).toBeTruthy();
  });
});
