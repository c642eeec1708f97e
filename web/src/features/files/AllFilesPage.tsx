import { FolderAddOutlined } from '@ant-design/icons';
import { type Item, ItemType } from '@dam/contract';
import { Button, Empty, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { filesApi, type ListingFilter, useFolderListing } from '../../api/items';
import { useCurrentUser } from '../../auth/useCurrentUser';
import { LazyResult } from '../../ui/LazyResult';
import { FilterButton, useViewMode, ViewToggle } from '../../ui/ListControls';
import { lazyDialog } from '../../ui/lazyPage';
import { UploadButton } from '../upload';
import { FolderSidebar } from './FolderSidebar';
import styles from './files.module.css';
import { ItemBrowser } from './ItemBrowser';
import { PathBreadcrumb } from './PathBreadcrumb';
import { SortControl, useListingSort } from './SortControl';

const FolderDialog = lazyDialog(async () => (await import('./FolderDialog')).FolderDialog);

/** SPEC §2 /allfiles/{folderId}: one folder of the tree, browsed, sorted, filtered and organised. */
export function AllFilesPage() {
  const { t } = useTranslation();
  const { folderId = 'all' } = useParams();
  const { data: user } = useCurrentUser();
  const [sort, setSort] = useListingSort();
  const [filter, setFilter] = useState<ListingFilter>({});
  const [view, setView] = useViewMode();
  const [folderDialog, setFolderDialog] = useState<{ open: boolean; folder: Item | null }>({
    open: false,
    folder: null,
  });
  const listing = useFolderListing(folderId, sort.rank, filter, sort.by);
  const filtered = Object.keys(filter).length > 0;
  // A dialog opened for one folder does not carry over to the next (Back pressed while it is open).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the folder is the trigger, not an input
  useEffect(
    () => setFolderDialog((dialog) => (dialog.open ? { open: false, folder: null } : dialog)),
    [folderId],
  );

  // Opening a folder is a view: it lands in "recently viewed" (SPEC §7 check-view-folder).
  useEffect(() => {
    if (folderId !== 'all') void filesApi.openFolder(Number(folderId)).catch(() => {});
  }, [folderId]);

  const first = listing.data?.pages[0];
  // The tree reloads the open folder's branch when its subfolders change (one created, say).
  const subfolders = first?.list.filter((item) => item.type === ItemType.folder).length ?? 0;
  const folder = first?.folder ?? null;
  const canCreate = folder ? folder.authList.includes('upload') : user?.filePermissions.upload !== 'none';
  const here = {
    id: folder ? folder.id : ('all' as const),
    path: folder ? `${folder.path === '/' ? '' : folder.path}/${folder.name}` : '/',
  };

  return (
    <FolderSidebar folderId={folderId} refreshKey={`${here.id}:${subfolders}`}>
      <ItemBrowser
        listing={listing}
        waterfall={view === 'WaterFall'}
        selectionScope={folderId}
        onEditFolder={(edited) => setFolderDialog({ open: true, folder: edited })}
        empty={
          filtered ? (
            // Defect 10 of issue 39: a filter that finds nothing says so and offers to clear it.
            <Empty description={t('files.noMatch')} data-testid="no-match">
              <Button type="primary" onClick={() => setFilter({})} data-testid="clear-filters">
                {t('files.clearFilters')}
              </Button>
            </Empty>
          ) : (
            <Empty description={folder ? t('files.emptyFolder') : t('files.emptyTop')} />
          )
        }
        failure={(error, retry) => {
          const code = error instanceof ApiError ? error.code : null;
          return (
            <LazyResult
              status={code === 'SE_502' ? '403' : code === 'SE_404' || code === 'SEF_04' ? '404' : 'warning'}
              title={error instanceof ApiError ? error.desc : t('common.loadFailed')}
              extra={
                <Space>
                  <Link to="/">
                    <Button>{t('files.topLevel')}</Button>
                  </Link>
                  <Button type="primary" onClick={retry}>
                    {t('common.retry')}
                  </Button>
                </Space>
              }
            />
          );
        }}
        toolbar={
          <>
            <div className={styles.crumbs}>
              <PathBreadcrumb trail={first?.breadcrumb ?? []} />
            </div>
            <Space wrap>
              {canCreate && <UploadButton target={here} />}
              {canCreate && (
                <Button
                  type="primary"
                  icon={<FolderAddOutlined />}
                  onClick={() => setFolderDialog({ open: true, folder: null })}
                  data-testid="new-folder"
                >
                  {t('files.newFolder')}
                </Button>
              )}
              <SortControl sort={sort} onChange={setSort} />
              <FilterButton filter={filter} onChange={setFilter} />
              <ViewToggle mode={view} onChange={setView} />
            </Space>
          </>
        }
      >
        <FolderDialog
          open={folderDialog.open}
          folder={folderDialog.folder}
          parent={{ ...here, private: folder?.visibility === 'private' }}
          onClose={() => setFolderDialog({ open: false, folder: null })}
        />
      </ItemBrowser>
    </FolderSidebar>
  );
}
