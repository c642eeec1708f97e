import { QueryClient } from '@tanstack/react-query';
import { onSessionChange } from '../auth/token';

/** The one query cache of the pages drawn in AppShell. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

// The page keeps running across a sign-out and the next sign-in: one person's cached answers must
// never show to the next.
onSessionChange(() => queryClient.clear());
