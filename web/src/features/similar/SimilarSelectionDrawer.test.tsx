// @vitest-environment jsdom
import { type Item, ItemType } from '@dam/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { similarItem } from '../../test/similarFixtures';
import { filesForSimilar, SimilarSelectionDrawer } from './SimilarSelectionDrawer';

const listed = (id: number, name: string, type: Item['type'] = ItemType.image) =>
  ({ id, name, type }) as unknown as Item;

afterEach(() => vi.unstubAllGlobals());

describe("the selection's similar images", () => {
  it('asks for the selected files only (no folders) and groups the matches under each file', async () => {
    const bodies: unknown[] = [];
    const match = similarItem({ id: 7, name: 'AB9001-copy', distance: 2 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init?.body)));
        const result = {
          groups: [
            { folderDataId: 1, near: [match] },
            { folderDataId: 2, near: [] },
          ],
        };
        return new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));
      }),
    );
    const onOpen = vi.fn();
    const items = [listed(1, 'AB9001'), listed(2, 'AB9002'), listed(3, 'Shoots', ItemType.folder)];
    expect(filesForSimilar(items).map((item) => item.id)).toEqual([1, 2]);
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SimilarSelectionDrawer items={items} onOpen={onOpen} onClose={() => {}} />
      </QueryClientProvider>,
    );
    const group = await screen.findByTestId('similar-selection-group');
    expect(bodies[0]).toEqual({ folderDataIdList: [1, 2] });
    expect(within(group).getByText('AB9001')).toBeTruthy();
    // The file without matches is counted, not shown.
    expect(screen.getAllByTestId('similar-selection-group')).toHaveLength(1);
    await userEvent.click(within(group).getByTestId('similar-item'));
    expect(onOpen).toHaveBeenCalledWith([match], 7);
  });
});
