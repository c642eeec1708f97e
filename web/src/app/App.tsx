import { Suspense } from 'react';
import { RouterProvider } from 'react-router';
import { PageLoading } from '../ui/lazyPage';
import type { createAppRouter } from './router';

/** The root: the routes only; Ant Design and the query cache come with the pages using them (AppShell). */
export function App({ router }: { router: ReturnType<typeof createAppRouter> }) {
  return (
    <Suspense fallback={<PageLoading />}>
      <RouterProvider router={router} />
    </Suspense>
  );
}
