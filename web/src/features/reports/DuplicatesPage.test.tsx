// @vitest-environment jsdom
import type { DuplicateMember, DuplicateReport } from '@dam/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { similarItem } from '../../test/similarFixtures';
import { DuplicatesPage } from './DuplicatesPage';

const answer = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));
const refuse = (errorDesc: string) =>
  new Response(JSON.stringify({ success: false, result: null, errorCode: 'SE_400', errorDesc }), {
    status: 400,
  });

const member = (over: Partial<DuplicateMember>): DuplicateMember => ({
  ...similarItem({}),
  keep: false,
  deptName: '鞋类',
  ...over,
});

const REPORT: DuplicateReport = {
  progress: null,
  maxDistance: 8,
  totals: { clusters: 1, items: 3, bytesFreeable: 2048 },
  list: [
    {
      clusterId: 1,
      bytesFreeable: 2048,
      members: [
        member({ id: 11, name: 'keeper.jpg', keep: true, width: 4000, height: 3000, distance: 0 }),
        member({ id: 12, name: 'copy.jpg', width: 1200, height: 900, fileSize: 1024, distance: 3 }),
        member({ id: 13, name: 'crop.jpg', width: 800, height: 600, fileSize: 1024, distance: 6 }),
      ],
    },
  ],
  hasMore: false,
};

/** Serves the page's calls; records every duplicate report asked for (its body) and deletion. */
function serve(reply: (body: Record<string, unknown>) => Response, deleted: unknown[] = []) {
  const asked: Array<Record<string, unknown>> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url.includes('/file/batch-del')) {
        deleted.push(JSON.parse(String(init?.body ?? '{}')));
        return answer(null);
      }
      if (url.includes('/report/duplicates')) {
        const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
        asked.push(body);
        return reply(body);
      }
      if (url.includes('/completeness/'))
        return answer({
          seasons: [],
          latestSeason: null,
          categories: [],
          departments: [{ id: 2, name: '鞋类', parentId: null }],
        });
      return answer(null);
    }),
  );
  return asked;
}

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <DuplicatesPage />
      </App>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the near-duplicate report page', () => {
  it('shows the clusters with the kept member marked, and the totals', async () => {
    const asked = serve(() => answer(REPORT));
    renderPage();
    const cluster = await screen.findByTestId('duplicate-cluster');
    const members = within(cluster).getAllByTestId('duplicate-member');
    expect(members).toHaveLength(3);
    expect(members.map((m) => m.getAttribute('data-keep'))).toEqual(['true', 'false', 'false']);
    expect(within(members[0] as HTMLElement).getByTestId('duplicate-kept')).toBeTruthy();
    expect(within(members[1] as HTMLElement).queryByTestId('duplicate-kept')).toBeNull();
    expect(
      within(members[0] as HTMLElement)
        .getByRole('img')
        .getAttribute('src'),
    ).toBe('/thumbs/1.jpg');
    expect(members[0]?.textContent).toContain('keeper.jpg');
    expect(members[0]?.textContent).toContain('4000 × 3000');
    expect(members[1]?.textContent).toContain('1.0 KB');
    expect(screen.getByTestId('duplicates-total-clusters').textContent).toContain('1');
    expect(screen.getByTestId('duplicates-total-files').textContent).toContain('3');
    expect(screen.getByTestId('duplicates-total-bytes').textContent).toContain('2.0 KB');
    // The first call leaves the threshold to the server; the slider shows what it used.
    expect(asked[0]).toEqual({});
    expect(screen.getByRole('slider').getAttribute('aria-valuenow')).toBe('8');
    expect(screen.queryByTestId('duplicates-progress')).toBeNull();
  });

  it('moves the copies of a cluster, never the kept image, to the recycle bin and asks again', async () => {
    const deleted: unknown[] = [];
    // A fourth member joined through a chain (never compared with the kept image) stays.
    const chained = member({ id: 14, name: 'chained.jpg', distance: null });
    const [cluster0] = REPORT.list;
    const report = { ...REPORT, list: [{ ...cluster0!, members: [...cluster0!.members, chained] }] };
    const asked = serve(() => answer(report), deleted);
    renderPage();
    const cluster = await screen.findByTestId('duplicate-cluster');
    fireEvent.click(within(cluster).getByTestId('duplicate-remove-copies'));
    fireEvent.click(await screen.findByRole('button', { name: '副本移到回收站' }));
    await waitFor(() => expect(deleted).toEqual([{ idList: [12, 13], folderIdList: [] }]));
    await waitFor(() => expect(asked.length).toBe(2));
    expect(await screen.findByText('已把 2 个副本移到回收站')).toBeTruthy();
  });

  it('asks again when the threshold changes', async () => {
    const asked = serve((body) =>
      answer({ ...REPORT, maxDistance: typeof body.maxDistance === 'number' ? body.maxDistance : 8 }),
    );
    renderPage();
    await screen.findByTestId('duplicate-cluster');
    const handle = screen.getByRole('slider');
    // A step with the keyboard: the report is asked for when the key is let go.
    fireEvent.keyDown(handle, { key: 'ArrowRight', keyCode: 39 });
    fireEvent.keyUp(handle, { key: 'ArrowRight', keyCode: 39 });
    await waitFor(() => expect(asked.some((body) => body.maxDistance === 9)).toBe(true));
    await waitFor(() => expect(screen.getByRole('slider').getAttribute('aria-valuenow')).toBe('9'));
  });

  it('shows an empty state, and how far the fingerprints are', async () => {
    serve(() =>
      answer({
        ...REPORT,
        progress: { done: 62, total: 100 },
        totals: { clusters: 0, items: 0, bytesFreeable: 0 },
        list: [],
      }),
    );
    renderPage();
    expect(await screen.findByTestId('duplicates-empty')).toBeTruthy();
    expect(screen.queryByTestId('duplicate-cluster')).toBeNull();
    expect(screen.getByTestId('duplicates-progress').textContent).toContain('62');
  });

  it("shows the server's refusal of a scope too broad", async () => {
    serve(() => refuse('范围太大，请选择部门或文件夹缩小范围'));
    renderPage();
    expect((await screen.findByTestId('duplicates-refusal')).textContent).toContain('范围太大');
    expect(screen.queryByTestId('duplicates-empty')).toBeNull();
  });
});
