import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Spin, Tooltip } from 'antd';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../../auth/useCurrentUser';
import styles from './FolderSidebar.module.css';

// The tree (Ant Design's Tree) loads after the listing: the folder page's first view stays light.
const FolderTree = lazy(async () => ({ default: (await import('../../ui/FolderTree')).FolderTree }));
/** FolderTree's key of "all files". */
const TOP_KEY = 'all';

const SHOWN_KEY = 'folderTree:shown';

function storedShown(): boolean {
  try {
    return localStorage.getItem(SHOWN_KEY) !== '0';
  } catch {
    return true;
  }
}

/**
 * The folder tree beside a folder's listing (issue 39): item counts per folder, opening a folder
 * by a click, the open branches remembered per user in this browser, and the whole tree folded
 * away (also remembered) for more room.
 */
export function FolderSidebar({
  folderId,
  refreshKey,
  children,
}: {
  folderId: string;
  /** Changes when the listing was read again: the open folder's branch is reloaded. */
  refreshKey: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useCurrentUser();
  const [shown, setShown] = useState(storedShown);
  const toggle = () => {
    setShown(!shown);
    try {
      localStorage.setItem(SHOWN_KEY, shown ? '0' : '1');
    } catch {
      // Remembered for this page only.
    }
  };
  const selected = folderId === 'all' ? TOP_KEY : folderId;
  return (
    <div className={styles.layout}>
      {shown ? (
        <nav className={styles.aside} aria-label={t('files.folderTree')} data-testid="folder-sidebar">
          <div className={styles.asideHead}>
            <span>{t('files.folderTree')}</span>
            <Tooltip title={t('files.hideTree')}>
              <Button
                type="text"
                size="small"
                icon={<MenuFoldOutlined />}
                aria-label={t('files.hideTree')}
                onClick={toggle}
                data-testid="tree-hide"
              />
            </Tooltip>
          </div>
          {user && (
            <Suspense fallback={<Spin size="small" />}>
              <FolderTree
                key={user.id}
                selected={selected}
                withCounts
                testId="side-folder-tree"
                rememberAs={`folderTree:open:${user.id}`}
                refreshKey={refreshKey}
                onSelect={(key) => navigate(`/allfiles/${key === TOP_KEY ? 'all' : key}`)}
              />
            </Suspense>
          )}
        </nav>
      ) : (
        <div className={styles.collapsed}>
          <Tooltip title={t('files.showTree')} placement="right">
            <Button
              icon={<MenuUnfoldOutlined />}
              aria-label={t('files.showTree')}
              onClick={toggle}
              data-testid="tree-show"
            />
          </Tooltip>
        </div>
      )}
      <div className={styles.main}>{children}</div>
    </div>
  );
}
