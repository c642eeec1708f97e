// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { ItemBrowser, type PagedItemsQuery } from './ItemBrowser';

/** A listing in one of the states a page goes through: loading, failed, read (with no items). */
function listingIn(state: 'pending' | 'error' | 'success'): PagedItemsQuery {
  return {
    isPending: state === 'pending',
    isError: state === 'error',
    error: state === 'error' ? new Error('offline') : null,
    data: state === 'success' ? { pages: [{ list: [] }], pageParams: [1] } : undefined,
    hasNextPage: false,
    isFetchingNextPage: false,
    isFetchNextPageError: false,
    refetch: vi.fn(),
    fetchNextPage: vi.fn(),
  } as unknown as PagedItemsQuery;
}

function Page({ listing, children }: { listing: PagedItemsQuery; children: ReactNode }) {
  return (
    <ItemBrowser listing={listing} toolbar={null} empty={<p>empty</p>} waterfall={false}>
      {children}
    </ItemBrowser>
  );
}

describe('item browser', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the page’s open dialog, and what is typed in it, while the listing loads again or fails', async () => {
    // The signed-in user is read by the grid's actions; nothing else is asked for.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ success: false, result: null, errorCode: 'SE_501' }))),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const dialog = <input aria-label="folder name" />;
    const wrap = (state: 'pending' | 'error' | 'success') => (
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <App>
            <Page listing={listingIn(state)}>{dialog}</Page>
          </App>
        </MemoryRouter>
      </QueryClientProvider>
    );
    const view = render(wrap('success'));
    await userEvent.type(screen.getByRole('textbox', { name: 'folder name' }), '分享样品');

    view.rerender(wrap('pending'));
    expect(screen.getByRole('textbox', { name: 'folder name' })).toHaveProperty('value', '分享样品');
    view.rerender(wrap('error'));
    // The failure's Result loads when first drawn (ui/LazyResult).
    expect(await screen.findByText(i18n.t('common.loadFailed'))).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'folder name' })).toHaveProperty('value', '分享样品');
    view.rerender(wrap('success'));
    expect(screen.getByText('empty')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'folder name' })).toHaveProperty('value', '分享样品');
  });
});
