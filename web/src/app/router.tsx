import { firstPageCalls } from '@dam/contract';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { askEarly } from '../api/client';
import { decideLayoutAccess } from '../auth/guard';
import { RequireAuth } from '../auth/RequireAuth';
import { getToken } from '../auth/token';
import { PageLoading, page, shellPage } from '../ui/lazyPage';
import { firstLoadDone } from './firstLoad';

/** The signed-in layout's route: everything under it needs a session. */
const LAYOUT_ID = 'layout';

// One chunk per route group (issue 10 item 7); the sign-in and visitor pages load nothing else, and
// not even Ant Design (the layout comes with AppShell; the visitor page is drawn without it).
/**
 * The routes of SPEC §2 that exist so far; features add theirs here and in navigation.tsx. A new
 * table for each router: the router keeps what a route's `lazy` loaded in the route object itself.
 */
const appRoutes = (): RouteObject[] =>
  [
    { path: '/login', lazy: page(() => import('../features/login/LoginPage'), 'LoginPage') },
    // The single sign-on return (SPEC §2 /oauth): always allowed, it signs the visitor in.
    { path: '/oauth', lazy: page(() => import('../features/login/OAuthPage'), 'OAuthPage') },
    // Always allowed (SPEC §2 navigation guard), like /login.
    {
      path: '/login/reset-password',
      lazy: page(() => import('../features/login/ResetPasswordPage'), 'ResetPasswordPage'),
    },
    {
      path: '/login/confirm-email',
      lazy: page(() => import('../features/login/ConfirmEmailPage'), 'ConfirmEmailPage'),
    },
    // The share-link visitor page needs no sign-in (SPEC §2 navigation guard). Drawn without Ant
    // Design and the query cache, it does not load AppShell (issue 39, the visitor page's weight).
    { path: '/visitfile', lazy: page(() => import('../features/share/VisitPage'), 'VisitPage') },
    {
      id: LAYOUT_ID,
      path: '/',
      lazy: {
        ...shellPage(
          () => import('../layout/MainLayout'),
          (m) => (
            <RequireAuth>
              <m.MainLayout />
            </RequireAuth>
          ),
        ),
        loader: async () => (await import('../auth/useCurrentUser')).prefetchCurrentUser,
      },
      children: [
        { index: true, lazy: page(() => import('../features/search/HomeIndex'), 'HomeIndex') },
        {
          path: 'allfiles/:folderId',
          lazy: {
            ...page(() => import('../features/files/AllFilesPage'), 'AllFilesPage'),
            loader: async () => (await import('../api/items')).prefetchFolderListing,
          },
        },
        {
          path: 'rencent',
          lazy: page(
            () => import('../features/files/ListPage'),
            (m) => <m.ListPage kind="recent" key="recent" />,
          ),
        },
        {
          path: 'myCollect',
          lazy: page(
            () => import('../features/files/ListPage'),
            (m) => <m.ListPage kind="favourites" key="favourites" />,
          ),
        },
        {
          path: 'myUpload',
          lazy: page(
            () => import('../features/files/ListPage'),
            (m) => <m.ListPage kind="uploads" key="uploads" />,
          ),
        },
        {
          path: 'collections',
          lazy: page(() => import('../features/collections/CollectionsPage'), 'CollectionsPage'),
        },
        {
          path: 'collections/:id',
          lazy: page(() => import('../features/files/CollectionPage'), 'CollectionPage'),
        },
        { path: 'review', lazy: page(() => import('../features/files/ReviewTodoPage'), 'ReviewTodoPage') },
        { path: 'recycle', lazy: page(() => import('../features/files/RecyclePage'), 'RecyclePage') },
        { path: 'myshare', lazy: page(() => import('../features/share/MySharesPage'), 'MySharesPage') },
        { path: 'newShare', lazy: page(() => import('../features/files/NewSharesPage'), 'NewSharesPage') },
        { path: 'upload-record', element: <Navigate to="/upload-record/current" replace /> },
        {
          path: 'upload-record/:tab',
          lazy: page(() => import('../features/upload/UploadRecordsPage'), 'UploadRecordsPage'),
        },
        {
          path: 'batch-tag',
          lazy: page(() => import('../features/tagging/BatchTaggingPage'), 'BatchTaggingPage'),
        },
        { path: 'about', lazy: page(() => import('../features/about/AboutPage'), 'AboutPage') },
        // Detail-page composition (issue 16): composing for everyone, templates for code 9.
        { path: 'composite', lazy: page(() => import('../features/composite/ComposePage'), 'ComposePage') },
        {
          path: 'templates',
          lazy: page(() => import('../features/composite/TemplatesPage'), 'TemplatesPage'),
        },
        {
          path: 'templates/:id',
          lazy: page(() => import('../features/composite/TemplateEditorPage'), 'TemplateEditorPage'),
        },
        // SPEC §2 /mail (mail groups, code 1): one of the admin area's tabs, at its own path.
        {
          path: 'mail',
          lazy: page(() => import('../features/manage/ManageLayout'), 'ManageLayout'),
          children: [
            { index: true, lazy: page(() => import('../features/mail/MailGroupsPage'), 'MailGroupsPage') },
          ],
        },
        {
          path: 'manage',
          lazy: page(() => import('../features/manage/ManageLayout'), 'ManageLayout'),
          children: [
            { index: true, lazy: page(() => import('../features/manage/ManageLayout'), 'ManageIndex') },
            { path: 'users', lazy: page(() => import('../features/accounts/UsersPage'), 'UsersPage') },
            { path: 'role', lazy: page(() => import('../features/accounts/RolesPage'), 'RolesPage') },
            {
              path: 'role/modify',
              lazy: page(() => import('../features/accounts/RoleModifyPage'), 'RoleModifyPage'),
            },
            { path: 'tag', lazy: page(() => import('../features/tags/TagsPage'), 'TagsPage') },
            {
              path: 'download-presets',
              lazy: page(() => import('../features/presets/DownloadPresetsPage'), 'DownloadPresetsPage'),
            },
            {
              path: 'metadata-mapping',
              lazy: page(
                () => import('../features/metadata-mapping/MetadataMappingPage'),
                'MetadataMappingPage',
              ),
            },
            { path: 'log', lazy: page(() => import('../features/logs/LogsPage'), 'LogsPage') },
            {
              path: 'data-table',
              lazy: page(() => import('../features/reports/DataReportPage'), 'DataReportPage'),
            },
            { path: 'api', lazy: page(() => import('../features/open-api/ApiAccessPage'), 'ApiAccessPage') },
            { path: 'import', lazy: page(() => import('../features/imports/ImportPage'), 'ImportPage') },
            {
              path: 'completeness',
              lazy: page(() => import('../features/completeness/CompletenessPage'), 'CompletenessPage'),
            },
            {
              path: 'duplicates',
              lazy: page(() => import('../features/reports/DuplicatesPage'), 'DuplicatesPage'),
            },
            { path: 'jobs', lazy: page(() => import('../features/jobs/JobsPage'), 'JobsPage') },
          ],
        },
        { path: '*', lazy: page(() => import('./NotFoundPage'), 'NotFoundPage') },
      ],
    },
  ].map((route) => ({ ...route, hydrateFallbackElement: <PageLoading /> }));

/**
 * The app's router, started on the address the browser opened. A signed-out visitor of a page that
 * needs a session goes to /login before any of the layout's code loads (the guard of SPEC §2;
 * RequireAuth applies it again on later navigations, once the layout has loaded). A signed-in one's first page has the calls
 * its routes name made at once, beside the page's code, instead of after it has loaded and
 * rendered (issue 12 goal 4).
 */
export function createAppRouter() {
  const routes = appRoutes();
  const matches = matchRoutes(routes, window.location) ?? [];
  if (!getToken()) {
    if (matches.some(({ route }) => route.id === LAYOUT_ID)) {
      const decision = decideLayoutAccess(window.location, false);
      if (!decision.allow) window.history.replaceState(null, '', decision.redirectTo);
    }
  } else {
    // The calls the contract names for this address (the server answers the same ones in the page).
    for (const call of firstPageCalls(window.location.pathname)) askEarly(call);
  }
  const router = createBrowserRouter(routes);
  if (router.state.initialized) firstLoadDone();
  else {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      firstLoadDone();
      unsubscribe();
    });
  }
  return router;
}
