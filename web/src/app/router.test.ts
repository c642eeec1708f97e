// @vitest-environment jsdom

import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToken, setToken } from '../auth/token';

const LISTING_77 = 'GET /ske-api/v1_0/file/all-file-v2?folderDataId=77&pageNo=1&pageSize=60&rankStatus=0';

/**
 * A server that answers every call with an empty success, recording what was asked; the calls
 * `held` names wait for `release`.
 */
function recordCalls(held: string[] = []) {
  const calls: string[] = [];
  const waiting: Array<() => void> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const call = `${init?.method ?? 'GET'} ${url}`;
      calls.push(call);
      if (held.includes(call)) await new Promise<void>((resolve) => waiting.push(resolve));
      return new Response(JSON.stringify({ success: true, result: null }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  const release = () => {
    for (const resume of waiting.splice(0)) resume();
  };
  return { calls, release };
}

/** The app's modules as a fresh page has them (the first-load flag and the query cache included). */
async function freshApp() {
  vi.resetModules();
  const [{ createAppRouter }, { isFirstLoad }, { queryClient }, { currentUserKey }, { filesKeys }, listing] =
    await Promise.all([
      import('./router'),
      import('./firstLoad'),
      import('../api/queryClient'),
      import('../auth/useCurrentUser'),
      import('../api/items'),
      import('../api/listingQuery'),
    ]);
  const listingState = (folderId: string) =>
    queryClient.getQueryState(filesKeys.folder(folderId, listing.DEFAULT_SORT, {}))?.status;
  const userState = () => queryClient.getQueryState(currentUserKey)?.status;
  return { createAppRouter, isFirstLoad, listingState, userState };
}

/** The first page's code is compiled on first import: a few seconds alone, more beside other suites. */
const PAGE_CODE_MS = 30_000;

describe('the router the app starts with', { timeout: 60_000 }, () => {
  afterEach(() => {
    clearToken();
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '/');
  });

  it('asks for the first page’s calls at once when signed in, before any page code has loaded', async () => {
    const app = await freshApp();
    setToken('tok', false);
    const { calls } = recordCalls();
    window.history.replaceState(null, '', '/allfiles/42');
    const router = app.createAppRouter();
    expect(calls).toEqual([
      'POST /security-api/user-info',
      'GET /ske-api/v1_0/file/all-file-v2?folderDataId=42&pageNo=1&pageSize=60&rankStatus=0',
    ]);
    // The pages' code loads and their loaders take those answers before the next test.
    await vi.waitFor(() => expect(router.state.initialized).toBe(true), { timeout: PAGE_CODE_MS });
    // From now on the loaders hold no navigation for their data.
    expect(app.isFirstLoad()).toBe(false);
    router.dispose();
  });

  it('draws the first page once its folder listing and user are in the query cache, each asked for once', async () => {
    const app = await freshApp();
    setToken('tok', false);
    const { calls, release } = recordCalls([LISTING_77]);
    window.history.replaceState(null, '', '/allfiles/77');
    const router = app.createAppRouter();
    // The pages' code has loaded and the user's answer is in: the router still waits for the listing.
    await vi.waitFor(() => expect(app.userState()).toBe('success'), { timeout: PAGE_CODE_MS });
    expect(app.listingState('77')).toBe('pending');
    expect(router.state.initialized).toBe(false);
    release();
    await vi.waitFor(() => expect(router.state.initialized).toBe(true));
    expect(app.listingState('77')).toBe('success');
    expect(calls).toEqual(['POST /security-api/user-info', LISTING_77]);
    router.dispose();
  });

  it('sends a signed-out visitor of a signed-in page to /login first, remembering the page, and asks nothing', async () => {
    const app = await freshApp();
    const { calls } = recordCalls();
    window.history.replaceState(null, '', '/allfiles/42?sort=1');
    const router = app.createAppRouter();
    expect(window.location.pathname).toBe('/login');
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe('/allfiles/42?sort=1');
    expect(router.state.location.pathname).toBe('/login');
    expect(calls).toEqual([]);
    router.dispose();
  });

  it('leaves the share visitor page to visitors without a session', async () => {
    const app = await freshApp();
    recordCalls();
    window.history.replaceState(null, '', '/visitfile?code=abc');
    const router = app.createAppRouter();
    expect(router.state.location.pathname).toBe('/visitfile');
    router.dispose();
  });
});
