import {
  CloudUploadOutlined,
  DesktopOutlined,
  DownOutlined,
  LinkOutlined,
  LogoutOutlined,
  MailOutlined,
  ShareAltOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { FunctionCode } from '@dam/contract';
import { Avatar, Button, Dropdown, Layout, Menu, Spin } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { SIDE_TABS } from '../app/navigation';
import { authApi } from '../auth/api';
import { holdsCodes } from '../auth/guard';
import { clearToken } from '../auth/token';
import { functionCodesOf, useCurrentUser } from '../auth/useCurrentUser';
import { DEFAULT_AVATAR } from '../features/account/avatar';
import { useClientDownloads } from '../features/account/clientsApi';
import { mustChangePassword } from '../features/account/mustChangePassword';
import { ArtNumDownloadButton } from '../features/download/ArtNumDownloadButton';
import { ManageEntry } from '../features/manage/ManageEntry';
import { SearchBar } from '../features/search/SearchBar';
import { FinishedBanner } from '../features/upload/FinishedBanner';
import { InterruptedBanner } from '../features/upload/InterruptedBanner';
import { UploadProvider, useUploadState } from '../features/upload/UploadProvider';
import { LazyResult } from '../ui/LazyResult';
import { useViewMode } from '../ui/ListControls';
import { lazyDialog } from '../ui/lazyPage';
import { LanguageSwitch } from './LanguageSwitch';
import styles from './MainLayout.module.css';

// Loaded with the first upload of the session (issue 39, the home page's weight): the panel,
// its progress bars and its near-duplicate checks are not part of the first listing.
const UploadPanel = lazyDialog(async () => (await import('../features/upload/UploadPanel')).UploadPanel);
/** The upload panel while anything is uploading or has finished since the page was opened. */
function UploadPanelWhenBusy() {
  const state = useUploadState();
  return state.tasks.length > 0 || state.finished.length > 0 ? <UploadPanel /> : null;
}
const MyInfoDialog = lazyDialog(async () => (await import('../features/account/MyInfoDialog')).MyInfoDialog);
const DownloadClientDialog = lazyDialog(
  async () => (await import('../features/account/DownloadClientDialog')).DownloadClientDialog,
);
// With Ant Design's Form, which the first view then does not load (issue 12 goal 4).
const OpenShareLinkDialog = lazyDialog(
  async () => (await import('../features/share/OpenShareLinkDialog')).OpenShareLinkDialog,
);
const ForcedPasswordChange = lazyDialog(
  async () => (await import('../features/account/ForcedPasswordChange')).ForcedPasswordChange,
);

/** SPEC §2 layout: top bar, side tabs, content area. */
export function MainLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [infoOpen, setInfoOpen] = useState(false);
  const [viewMode] = useViewMode();
  const [openShareLink, setOpenShareLink] = useState(false);
  // Until the password is changed the server answers nothing else (SE_502): the page stays empty
  // rather than firing calls whose refusals would toast behind the change-password dialog.
  const passwordLocked = mustChangePassword(user.data);
  const [clientOpen, setClientOpen] = useState(false);
  const clientLinks = useClientDownloads({ enabled: user.isSuccess && !passwordLocked }).data;
  const offersClient = Boolean(clientLinks?.mac || clientLinks?.windows);
  // SPEC §2 top-bar menu "Mail group", for holders of function code 1 (SPEC §6).
  const functionCodes = functionCodesOf(user.data);
  const managesMail = holdsCodes(functionCodes, [FunctionCode.mail]);

  // A second click while the first sign-out is under way would find the session gone and send the
  // browser to /login, cutting short the first one's trip to the company sign-on's logout page.
  const signingOut = useRef(false);
  const signOut = async () => {
    if (signingOut.current) return;
    signingOut.current = true;
    let logoutUrl: string | null = null;
    try {
      ({ logoutUrl } = await authApi.signOut());
    } finally {
      clearToken();
      // A company sign-on session ends at the provider too, which sends the browser back to /login.
      if (logoutUrl) window.location.assign(logoutUrl);
      else void navigate('/login', { replace: true });
    }
  };

  const selected = SIDE_TABS.filter((tab) => location.pathname.startsWith(tab.match)).map((tab) => tab.key);

  return (
    <UploadProvider>
      <Layout className={styles.shell}>
        <Layout.Header className={styles.header}>
          <Link to="/" className={styles.brand}>
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <span className={styles.title}>{t('app.title')}</span>
          </Link>
          <div className={styles.search}>
            <SearchBar />
          </div>
          <div className={styles.actions}>
            <ArtNumDownloadButton />
            <ManageEntry />
            <LanguageSwitch />
            <Dropdown
              trigger={['hover', 'click']}
              menu={{
                items: [
                  { key: 'records', icon: <CloudUploadOutlined />, label: t('nav.uploadRecords') },
                  ...(managesMail
                    ? [{ key: 'mailGroups', icon: <MailOutlined />, label: t('mailGroups.menu') }]
                    : []),
                  { key: 'shares', icon: <ShareAltOutlined />, label: t('nav.myShares') },
                  { key: 'openShare', icon: <LinkOutlined />, label: t('share.openLinkTitle') },
                  { key: 'info', icon: <UserOutlined />, label: t('nav.myInfo') },
                  ...(offersClient
                    ? [{ key: 'client', icon: <DesktopOutlined />, label: t('nav.downloadClient') }]
                    : []),
                  { type: 'divider' },
                  { key: 'logout', icon: <LogoutOutlined />, label: t('nav.logout'), danger: true },
                ],
                onClick: ({ key }) => {
                  if (key === 'logout') void signOut();
                  else if (key === 'records') void navigate('/upload-record/current');
                  else if (key === 'mailGroups') void navigate('/mail');
                  else if (key === 'shares') void navigate('/myshare');
                  else if (key === 'openShare') setOpenShareLink(true);
                  else if (key === 'client') setClientOpen(true);
                  else setInfoOpen(true);
                },
              }}
            >
              <Button type="text" className={styles.user} data-testid="user-menu">
                {/* Decorative: the name beside it says whose menu this is (empty alt, issue 39 axe). */}
                <Avatar size={28} src={user.data?.avatar || DEFAULT_AVATAR} alt="" />
                <span className={styles.userName}>{user.data?.name ?? ''}</span>
                <DownOutlined />
              </Button>
            </Dropdown>
          </div>
        </Layout.Header>
        <Layout>
          <Layout.Sider
            width={208}
            theme="light"
            className={styles.sider}
            breakpoint="lg"
            collapsedWidth={64}
          >
            <Menu
              mode="inline"
              selectedKeys={selected}
              items={SIDE_TABS.filter(
                (tab) =>
                  !(tab.hiddenInWaterfall && viewMode === 'WaterFall') &&
                  (!tab.codes || holdsCodes(functionCodes, tab.codes)),
              ).map((tab) => ({
                key: tab.key,
                icon: tab.icon,
                label: <Link to={tab.to}>{t(tab.labelKey)}</Link>,
              }))}
              data-testid="side-tabs"
            />
          </Layout.Sider>
          <Layout.Content className={styles.content}>
            {user.isPending ? (
              <div className={styles.center}>
                <Spin size="large" />
              </div>
            ) : user.isError && !user.data ? (
              // Only when there is no user at all: a failed refetch in the background keeps the page
              // (and whatever is being typed in it) on screen.
              <LazyResult
                status="warning"
                title={t('common.loadFailed')}
                extra={<Button onClick={() => void user.refetch()}>{t('common.retry')}</Button>}
              />
            ) : passwordLocked ? null : (
              <>
                <FinishedBanner />
                <InterruptedBanner />
                <Outlet />
              </>
            )}
          </Layout.Content>
        </Layout>
        <MyInfoDialog open={infoOpen} onClose={() => setInfoOpen(false)} />
        {!passwordLocked && <UploadPanelWhenBusy />}
        {openShareLink && <OpenShareLinkDialog onClose={() => setOpenShareLink(false)} />}
        {clientOpen && clientLinks && (
          <DownloadClientDialog links={clientLinks} onClose={() => setClientOpen(false)} />
        )}
        <ForcedPasswordChange open={passwordLocked} />
      </Layout>
    </UploadProvider>
  );
}
