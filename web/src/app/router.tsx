import { createBrowserRouter, Navigate } from 'react-router';
import { RequireAuth } from '../auth/RequireAuth';
import { lazyPage, shellPage } from './lazyPage';

// One chunk per route group (issue 10 item 7); the sign-in and visitor pages load nothing else, and
// the sign-in page not even Ant Design (the layout and the visitor page come in AppShell).
const LoginPage = lazyPage(() => import('../features/login/LoginPage'), 'LoginPage');
const OAuthPage = lazyPage(() => import('../features/login/OAuthPage'), 'OAuthPage');
const ConfirmEmailPage = lazyPage(() => import('../features/login/ConfirmEmailPage'), 'ConfirmEmailPage');
const ResetPasswordPage = lazyPage(() => import('../features/login/ResetPasswordPage'), 'ResetPasswordPage');
const VisitPage = shellPage(() => import('../features/share/VisitPage'), 'VisitPage');
const MainLayout = shellPage(() => import('../layout/MainLayout'), 'MainLayout');
const NotFoundPage = lazyPage(() => import('./NotFoundPage'), 'NotFoundPage');
const HomeIndex = lazyPage(() => import('../features/search/HomeIndex'), 'HomeIndex');
const AllFilesPage = lazyPage(() => import('../features/files/AllFilesPage'), 'AllFilesPage');
const ListPage = lazyPage(() => import('../features/files/ListPage'), 'ListPage');
const RecyclePage = lazyPage(() => import('../features/files/RecyclePage'), 'RecyclePage');
const MySharesPage = lazyPage(() => import('../features/share/MySharesPage'), 'MySharesPage');
const NewSharesPage = lazyPage(() => import('../features/share/NewSharesPage'), 'NewSharesPage');
const UploadRecordsPage = lazyPage(() => import('../features/upload/UploadRecordsPage'), 'UploadRecordsPage');
const BatchTaggingPage = lazyPage(() => import('../features/tagging/BatchTaggingPage'), 'BatchTaggingPage');
const AboutPage = lazyPage(() => import('../features/about/AboutPage'), 'AboutPage');
const ManageLayout = lazyPage(() => import('../features/manage/ManageLayout'), 'ManageLayout');
const ManageIndex = lazyPage(() => import('../features/manage/ManageLayout'), 'ManageIndex');
const UsersPage = lazyPage(() => import('../features/manage/UsersPage'), 'UsersPage');
const RolesPage = lazyPage(() => import('../features/manage/RolesPage'), 'RolesPage');
const RoleModifyPage = lazyPage(() => import('../features/manage/RoleModifyPage'), 'RoleModifyPage');
const TagsPage = lazyPage(() => import('../features/manage/TagsPage'), 'TagsPage');
const DownloadPresetsPage = lazyPage(
  () => import('../features/manage/DownloadPresetsPage'),
  'DownloadPresetsPage',
);
const LogsPage = lazyPage(() => import('../features/manage/LogsPage'), 'LogsPage');
const DataReportPage = lazyPage(() => import('../features/reports/DataReportPage'), 'DataReportPage');
const ImportPage = lazyPage(() => import('../features/imports/ImportPage'), 'ImportPage');
const ApiAccessPage = lazyPage(() => import('../features/open-api/ApiAccessPage'), 'ApiAccessPage');
const MailGroupsPage = lazyPage(() => import('../features/mail/MailGroupsPage'), 'MailGroupsPage');
const ComposePage = lazyPage(() => import('../features/composite/ComposePage'), 'ComposePage');
const TemplatesPage = lazyPage(() => import('../features/composite/TemplatesPage'), 'TemplatesPage');
const TemplateEditorPage = lazyPage(
  () => import('../features/composite/TemplateEditorPage'),
  'TemplateEditorPage',
);
const CompletenessPage = lazyPage(
  () => import('../features/completeness/CompletenessPage'),
  'CompletenessPage',
);
const DuplicatesPage = lazyPage(() => import('../features/reports/DuplicatesPage'), 'DuplicatesPage');

/** The routes of SPEC §2 that exist so far; features add theirs here and in navigation.tsx. */
export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  // The single sign-on return (SPEC §2 /oauth): always allowed, it signs the visitor in.
  { path: '/oauth', element: <OAuthPage /> },
  // Always allowed (SPEC §2 navigation guard), like /login.
  { path: '/login/reset-password', element: <ResetPasswordPage /> },
  { path: '/login/confirm-email', element: <ConfirmEmailPage /> },
  // The share-link visitor page needs no sign-in (SPEC §2 navigation guard).
  { path: '/visitfile', element: <VisitPage /> },
  {
    path: '/',
    // The guard is in the entry chunk: signed-out visitors go to /login without loading the layout.
    element: (
      <RequireAuth>
        <MainLayout />
      </RequireAuth>
    ),
    children: [
      { index: true, element: <HomeIndex /> },
      { path: 'allfiles/:folderId', element: <AllFilesPage /> },
      { path: 'rencent', element: <ListPage kind="recent" key="recent" /> },
      { path: 'myCollect', element: <ListPage kind="favourites" key="favourites" /> },
      { path: 'myUpload', element: <ListPage kind="uploads" key="uploads" /> },
      { path: 'recycle', element: <RecyclePage /> },
      { path: 'myshare', element: <MySharesPage /> },
      { path: 'newShare', element: <NewSharesPage /> },
      { path: 'upload-record', element: <Navigate to="/upload-record/current" replace /> },
      { path: 'upload-record/:tab', element: <UploadRecordsPage /> },
      { path: 'batch-tag', element: <BatchTaggingPage /> },
      { path: 'about', element: <AboutPage /> },
      // Detail-page composition (issue 16): composing for everyone, templates for code 9.
      { path: 'composite', element: <ComposePage /> },
      { path: 'templates', element: <TemplatesPage /> },
      { path: 'templates/:id', element: <TemplateEditorPage /> },
      // SPEC §2 /mail (mail groups, code 1): one of the admin area's tabs, at its own path.
      { path: 'mail', element: <ManageLayout />, children: [{ index: true, element: <MailGroupsPage /> }] },
      {
        path: 'manage',
        element: <ManageLayout />,
        children: [
          { index: true, element: <ManageIndex /> },
          { path: 'users', element: <UsersPage /> },
          { path: 'role', element: <RolesPage /> },
          { path: 'role/modify', element: <RoleModifyPage /> },
          { path: 'tag', element: <TagsPage /> },
          { path: 'download-presets', element: <DownloadPresetsPage /> },
          { path: 'log', element: <LogsPage /> },
          { path: 'data-table', element: <DataReportPage /> },
          { path: 'api', element: <ApiAccessPage /> },
          { path: 'import', element: <ImportPage /> },
          { path: 'completeness', element: <CompletenessPage /> },
          { path: 'duplicates', element: <DuplicatesPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
