import { QueryClient } from '@tanstack/react-query';
import { isFirstLoad } from '../app/firstLoad';
import { onSessionChange } from '../auth/token';

/** The one query cache of the pages drawn in AppShell. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

// The page keeps running across a sign-out and the next sign-in: one person's cached answers must
// never show to the next.
onSessionChange(() => queryClient.clear());

/** How long the app's first page waits for the data its route loaders asked for. */
export const FIRST_LOAD_WAIT_MS = 800;

/**
 * What a route loader does for the page the app opens with (issue 12 goal 4): starts the page's
 * query and keeps the router waiting until its answer is in the cache or FIRST_LOAD_WAIT_MS have
 * passed, so the page draws once, with its data, instead of drawing placeholders and again as each
 * answer comes. The screen holds only the loading indicator then anyway. On later navigations it
 * does nothing: the page being left stays on screen while loaders run, and the page's own query,
 * with the sort and filter it has, is the one to ask. `prefetch` gets the retry policy to use: none,
 * so that a refusal (a folder not found, a session ended) lets the page draw at once and show it.
 */
export function firstLoadData(prefetch: (options: { retry: false }) => Promise<void>): Promise<null> | null {
  if (!isFirstLoad()) return null;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve(null);
    };
    const timer = setTimeout(done, FIRST_LOAD_WAIT_MS);
    prefetch({ retry: false }).then(done, done);
  });
}
