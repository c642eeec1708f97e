import type { ResultProps } from 'antd';
import { lazy, Suspense } from 'react';

// Ant Design's Result brings its 403, 404 and 500 illustrations (~9.5 kB gzipped) whatever the
// status shown. The first view draws one only when something failed, so it loads then (issue 39,
// the home page's weight); nothing is drawn in its place for the moment it takes.
const AntResult = lazy(() => import('antd/es/result'));

/** Ant Design's Result, loaded when first drawn. */
export function LazyResult(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <AntResult {...props} />
    </Suspense>
  );
}
