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
 * What a route loader returns for a query it has started: on the app's first page, a promise kept
 * when the answer is in the cache or after FIRST_LOAD_WAIT_MS, so the page draws once, with its
 * data, instead of drawing placeholders and then drawing again as each answer comes (issue 12
 * goal 4); on later navigations nothing to wait for. A failed query is the page's to show: its
 * prefetch never rejects.
 */
export function firstLoadData(prefetch: Promise<void>): Promise<null> | null {
  if (!isFirstLoad()) return null;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), FIRST_LOAD_WAIT_MS);
    void prefetch.then(() => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}
