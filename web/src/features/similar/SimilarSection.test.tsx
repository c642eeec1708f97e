// @vitest-environment jsdom
import type { SimilarOfFileResult } from '@dam/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { similarItem } from '../../test/similarFixtures';
import { SimilarSection } from './SimilarSection';

const answer = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));

function serve(result: SimilarOfFileResult) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      return answer(result);
    }),
  );
  return asked;
}

function renderSection(onOpen = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SimilarSection fileId={42} onOpen={onOpen} />
    </QueryClientProvider>,
  );
  return onOpen;
}

afterEach(() => vi.unstubAllGlobals());

describe('similar images in the info panel', () => {
  it('lists near-duplicates with how close they are, then the same colours, and opens one', async () => {
    const near = [
      similarItem({ id: 1, distance: 2 }),
      similarItem({ id: 2, name: 'AB9001-crop.jpg', distance: 7 }),
      similarItem({ id: 3, name: 'AB9001-shift.jpg', distance: 10 }),
    ];
    const byColour = [similarItem({ id: 9, name: 'other-red.jpg', distance: null, colourDistance: 40 })];
    const asked = serve({ fingerprint: 'ready', progress: null, near, byColour });
    const onOpen = renderSection();

    const grid = await screen.findByTestId('similar-near');
    expect(asked[0]).toContain('folderDataId=42');
    const tiles = within(grid).getAllByTestId('similar-item');
    expect(tiles.map((tile) => tile.textContent)).toEqual([
      'AB9001-red.jpg非常接近',
      'AB9001-crop.jpg接近',
      'AB9001-shift.jpg相似',
    ]);
    expect(
      within(tiles[0] as HTMLElement)
        .getByRole('img')
        .getAttribute('src'),
    ).toBe('/thumbs/1.jpg');
    expect(within(screen.getByTestId('similar-by-colour')).getByText('other-red.jpg')).toBeTruthy();
    expect(screen.queryByTestId('similar-status')).toBeNull();

    await userEvent.click(within(screen.getByTestId('similar-by-colour')).getByTestId('similar-item'));
    expect(onOpen).toHaveBeenCalledWith([...near, ...byColour], 9);
  });

  it('says why a file is not compared, and how far the back-fill is', async () => {
    serve({ fingerprint: 'tooSmall', progress: { done: 40, total: 100 }, near: [], byColour: [] });
    renderSection();
    expect((await screen.findByTestId('similar-status')).textContent).toBe('未比较：图片小于 32 像素');
    expect(screen.getByTestId('similar-progress').textContent).toContain('40/100');
    expect(screen.queryByTestId('similar-empty')).toBeNull();
  });

  it('shows an empty state when a compared file has no near-duplicates', async () => {
    serve({ fingerprint: 'ready', progress: null, near: [], byColour: [] });
    renderSection();
    expect((await screen.findByTestId('similar-empty')).textContent).toContain('没有找到相似的图片');
  });
});
