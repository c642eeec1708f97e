// @vitest-environment jsdom

import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../api/queryClient';
import { clearToken, setToken } from '../auth/token';
import { currentUserKey } from '../auth/useCurrentUser';
import { filesKeys } from '../features/files/api';
import { DEFAULT_SORT } from '../features/files/listingQuery';
import { isFirstLoad } from './firstLoad';
import { createAppRouter } from './router';

/** A server that answers every call with an empty success, recording what was asked. */
function recordCalls() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      return new Response(JSON.stringify({ success: true, result: null }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

describe('the router the app starts with', () => {
  afterEach(() => {
    queryClient.clear();
    clearToken();
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '/');
  });

  it('asks for the first page’s calls at once when signed in, before any page code has loaded', async () => {
    setToken('tok', false);
    const calls = recordCalls();
    window.history.replaceState(null, '', '/allfiles/42');
    const router = createAppRouter();
    expect(calls).toEqual([
      'POST /security-api/user-info',
      'GET /ske-api/v1_0/file/all-file-v2?folderDataId=42&pageNo=1&pageSize=60&rankStatus=0',
    ]);
    // The pages' code loads and their loaders take those answers before the next test.
    await vi.waitFor(() => expect(router.state.initialized).toBe(true), { timeout: 20_000 });
    // From now on the loaders hold no navigation for their data.
    expect(isFirstLoad()).toBe(false);
    router.dispose();
  });

  it('has the folder’s first page and the user in the query cache as the page is drawn, each asked for once', async () => {
    setToken('tok', false);
    const calls = recordCalls();
    window.history.replaceState(null, '', '/allfiles/77');
    const router = createAppRouter();
    // The route loaders start both queries (taking the answers asked for above), without waiting.
    await vi.waitFor(() => expect(router.state.initialized).toBe(true), { timeout: 20_000 });
    await vi.waitFor(() => {
      expect(queryClient.getQueryState(filesKeys.folder('77', DEFAULT_SORT, {}))?.status).toBe('success');
      expect(queryClient.getQueryState(currentUserKey)?.status).toBe('success');
    });
    expect(calls).toEqual([
      'POST /security-api/user-info',
      'GET /ske-api/v1_0/file/all-file-v2?folderDataId=77&pageNo=1&pageSize=60&rankStatus=0',
    ]);
    router.dispose();
  });

  it('sends a signed-out visitor of a signed-in page to /login first, remembering the page, and asks nothing', () => {
    const calls = recordCalls();
    window.history.replaceState(null, '', '/allfiles/42?sort=1');
    const router = createAppRouter();
    expect(window.location.pathname).toBe('/login');
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe('/allfiles/42?sort=1');
    expect(router.state.location.pathname).toBe('/login');
    expect(calls).toEqual([]);
    router.dispose();
  });

  it('leaves the share visitor page to visitors without a session', () => {
    recordCalls();
    window.history.replaceState(null, '', '/visitfile?code=abc');
    const router = createAppRouter();
    expect(router.state.location.pathname).toBe('/visitfile');
    router.dispose();
  });
});
