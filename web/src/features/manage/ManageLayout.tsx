import {
  ApiOutlined,
  BarChartOutlined,
  CheckSquareOutlined,
  ClusterOutlined,
  CopyOutlined,
  DownloadOutlined,
  FileSearchOutlined,
  MailOutlined,
  NodeIndexOutlined,
  SafetyCertificateOutlined,
  TableOutlined,
  TagsOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Result, Spin, Tabs, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import styles from './ManageLayout.module.css';
import { type ManageTabKey, visibleManageTabs } from './tabs';

const TAB_ICONS: Record<ManageTabKey, ReactNode> = {
  users: <TeamOutlined />,
  role: <SafetyCertificateOutlined />,
  tag: <TagsOutlined />,
  'download-presets': <DownloadOutlined />,
  'metadata-mapping': <NodeIndexOutlined />,
  log: <FileSearchOutlined />,
  'data-table': <BarChartOutlined />,
  import: <TableOutlined />,
  mail: <MailOutlined />,
  completeness: <CheckSquareOutlined />,
  duplicates: <CopyOutlined />,
  api: <ApiOutlined />,
  jobs: <ClusterOutlined />,
};

function useVisibleTabs() {
  const user = useCurrentUser();
  return { tabs: visibleManageTabs(functionCodesOf(user.data)), pending: user.isPending };
}

function NoAccess() {
  const { t } = useTranslation();
  return <Result status="403" title="403" subTitle={t('manage.noAccess')} />;
}

/** /manage: the first tab the user may see (SPEC §2, §6), or "no access". */
export function ManageIndex() {
  const { tabs, pending } = useVisibleTabs();
  if (pending) return <Spin />;
  const first = tabs[0];
  return first ? <Navigate to={first.path} replace /> : <NoAccess />;
}

/** The admin area: its tabs, filtered by the user's function codes, over the chosen screen. */
export function ManageLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const { tabs, pending } = useVisibleTabs();
  if (pending) return <Spin />;
  const active = tabs.find((tab) => location.pathname.startsWith(tab.path));
  const isIndex = location.pathname.replace(/\/+$/, '') === '/manage';
  return (
    <div data-testid="manage-layout">
      <Typography.Title level={4} style={{ marginTop: 0, marginBottom: 8 }}>
        {t('manage.title')}
      </Typography.Title>
      {tabs.length > 0 && (
        <Tabs
          className={styles.tabs}
          activeKey={active?.key ?? ''}
          onChange={(key) => {
            const tab = tabs.find((x) => x.key === key);
            if (tab) void navigate(tab.path);
          }}
          items={tabs.map((tab) => ({
            key: tab.key,
            label: (
              <span>
                {TAB_ICONS[tab.key]} {t(tab.labelKey)}
              </span>
            ),
          }))}
          data-testid="manage-tabs"
        />
      )}
      {active || isIndex ? <Outlet /> : <NoAccess />}
    </div>
  );
}
