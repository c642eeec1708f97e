import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Link, Navigate } from 'react-router';
import { RequireAuth } from '../auth/RequireAuth';
import { AboutPage } from '../features/about/AboutPage';
import { AllFilesPage } from '../features/files/AllFilesPage';
import { ListPage } from '../features/files/ListPage';
import { RecyclePage } from '../features/files/RecyclePage';
import { LoginPage } from '../features/login/LoginPage';
import { DownloadPresetsPage } from '../features/manage/DownloadPresetsPage';
import { LogsPage } from '../features/manage/LogsPage';
import { ManageIndex, ManageLayout } from '../features/manage/ManageLayout';
import { RoleModifyPage } from '../features/manage/RoleModifyPage';
import { RolesPage } from '../features/manage/RolesPage';
import { SkuImportPage } from '../features/manage/SkuImportPage';
import { TagsPage } from '../features/manage/TagsPage';
import { UsersPage } from '../features/manage/UsersPage';
import { HomeIndex } from '../features/search/HomeIndex';
import { MySharesPage } from '../features/share/MySharesPage';
import { NewSharesPage } from '../features/share/NewSharesPage';
import { VisitPage } from '../features/share/VisitPage';
import { UploadRecordsPage } from '../features/upload/UploadRecordsPage';
import { MainLayout } from '../layout/MainLayout';

function NotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('common.notFound')}
      extra={
        <Link to="/">
          <Button type="primary">{t('common.backHome')}</Button>
        </Link>
      }
    />
  );
}

/** The routes of SPEC §2 that exist so far; features add theirs here and in navigation.tsx. */
export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  // The share-link visitor page needs no sign-in (SPEC §2 navigation guard).
  { path: '/visitfile', element: <VisitPage /> },
  {
    path: '/',
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
      { path: 'about', element: <AboutPage /> },
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
          { path: 'import', element: <SkuImportPage /> },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
