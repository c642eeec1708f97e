import { Suspense } from 'react';
import { RouterProvider } from 'react-router';
import { PageLoading } from './lazyPage';
import { router } from './router';

/** The root: the routes only; Ant Design and the query cache come with the pages using them (AppShell). */
export function App() {
  return (
    <Suspense fallback={<PageLoading />}>
      <RouterProvider router={router} />
    </Suspense>
  );
}
