// @vitest-environment jsdom

import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { askEarly } from '../api/client';
import { endpoints } from '../api/endpoints';
import { queryClient } from '../api/queryClient';
import { setToken } from '../auth/token';
import { useCurrentUser } from '../auth/useCurrentUser';
import { useFolderListing } from '../features/files/api';
import { DEFAULT_SORT, folderListingQuery } from '../features/files/listingQuery';
import { seedCurrentUser, seedFolderListing } from './firstQueries';

const envelope = (result: unknown) => ({ success: true, result, errorCode: null, errorDesc: null });

function FirstPage() {
  const user = useCurrentUser();
  const listing = useFolderListing('7', DEFAULT_SORT, {});
  return (
    <p>
      {user.isPending || listing.isPending
        ? 'pending'
        : `${user.data?.username} ${listing.data?.pages[0]?.list.length}`}
    </p>
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

it('the first page’s queries take the answers asked for early, and the page renders with them at once', async () => {
  setToken('tok-first', false);
  const fetchMock = vi.fn(async (url: string) => {
    const result = url.includes('user-info')
      ? { username: 'ada', resourcesList: [] }
      : { list: [{ id: 1 }, { id: 2 }], pageNo: 1, hasMore: false };
    return new Response(JSON.stringify(envelope(result)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  // What the router does when the app starts on /allfiles/7.
  askEarly(endpoints.userInfo);
  askEarly(endpoints.folderListing, { query: folderListingQuery('7', 1) });
  seedCurrentUser();
  seedFolderListing('7');
  await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));

  render(
    <QueryClientProvider client={queryClient}>
      <FirstPage />
    </QueryClientProvider>,
  );
  // The first render already has the data, and mounting asks the server for nothing more.
  expect(screen.getByText('ada 2')).toBeTruthy();
  expect(fetchMock.mock.calls.map((args) => (args as unknown as [string])[0])).toEqual([
    '/security-api/user-info',
    '/ske-api/v1_0/file/all-file-v2?folderDataId=7&pageNo=1&pageSize=60&rankStatus=0',
  ]);
});
