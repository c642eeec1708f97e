import { FolderAddOutlined } from '@ant-design/icons';
import type { Item } from '@dam/contract';
import { Button, Empty, Result, Space, Spin } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useCurrentUser } from '../../auth/useCurrentUser';
import { UploadButton } from '../upload/UploadButton';
import { FileViewer } from '../viewer/FileViewer';
import { filesApi, type ListingFilter, type SortState, useFolderListing } from './api';
import { FolderDialog } from './FolderDialog';
import styles from './files.module.css';
import { ItemGrid } from './ItemGrid';
import { FilterButton, SortToggle, storedViewMode, type ViewMode, ViewToggle } from './ListControls';
import { PathBreadcrumb } from './PathBreadcrumb';
import { SelectionBar } from './SelectionBar';
import { useItemActions } from './useItemActions';
import { useSelection } from './useSelection';

/** SPEC §2 /allfiles/{folderId}: one folder of the tree, browsed, sorted, filtered and organised. */
export function AllFilesPage() {
  const { t } = useTranslation();
  const { folderId = 'all' } = useParams();
  const { data: user } = useCurrentUser();
  const [sort, setSort] = useState<SortState>('0');
  const [filter, setFilter] = useState<ListingFilter>({});
  const [view, setView] = useState<ViewMode>(storedViewMode);
  const [folderDialog, setFolderDialog] = useState<{ open: boolean; folder: Item | null }>({
    open: false,
    folder: null,
  });
  const selection = useSelection();
  const listing = useFolderListing(folderId, sort, filter);
  const [viewing, setViewing] = useState<number | null>(null);
  const actions = useItemActions({
    onEditFolder: (folder) => setFolderDialog({ open: true, folder }),
    onOpenFile: (file) => setViewing(file.id),
    onDone: selection.clear,
  });

  // Opening a folder is a view: it lands in "recently viewed" (SPEC §7 check-view-folder).
  useEffect(() => {
    selection.clear();
    if (folderId !== 'all') void filesApi.openFolder(Number(folderId)).catch(() => {});
  }, [folderId, selection.clear]);

  const items = useMemo(() => listing.data?.pages.flatMap((p) => p.list) ?? [], [listing.data]);
  const first = listing.data?.pages[0];
  const folder = first?.folder ?? null;
  const selectedItems = items.filter((i) => selection.selected.has(i.id));
  const canCreate = folder ? folder.authList.includes('upload') : user?.filePermissions.upload !== 'none';

  if (listing.isPending) {
    return (
      <div className={styles.empty}>
        <Spin size="large" />
      </div>
    );
  }
  if (listing.isError && items.length === 0) {
    const code = listing.error instanceof ApiError ? listing.error.code : null;
    return (
      <Result
        status={code === 'SE_502' ? '403' : code === 'SE_404' || code === 'SEF_04' ? '404' : 'warning'}
        title={listing.error instanceof ApiError ? listing.error.desc : t('common.loadFailed')}
        extra={
          <Space>
            <Link to="/">
              <Button>{t('files.topLevel')}</Button>
            </Link>
            <Button type="primary" onClick={() => void listing.refetch()}>
              {t('common.retry')}
            </Button>
          </Space>
        }
      />
    );
  }

  return (
    <div className={styles.page}>
      <div className={styles.toolbar}>
        <div className={styles.crumbs}>
          <PathBreadcrumb trail={first?.breadcrumb ?? []} />
        </div>
        <Space wrap>
          {canCreate && (
            <UploadButton
              target={{
                id: folder ? folder.id : 'all',
                path: folder ? `${folder.path === '/' ? '' : folder.path}/${folder.name}` : '/',
              }}
            />
          )}
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
          <SortToggle sort={sort} onChange={setSort} />
          <FilterButton filter={filter} onChange={setFilter} />
          <ViewToggle mode={view} onChange={setView} />
        </Space>
      </div>
      {selectedItems.length > 0 && (
        <SelectionBar
          items={selectedItems}
          onMove={() => actions.move(selectedItems)}
          onDelete={() => actions.remove(selectedItems)}
          onFavourite={() => void actions.favourite(selectedItems)}
          onDownload={() => actions.download(selectedItems)}
          onShare={() => actions.share(selectedItems)}
          onClear={selection.clear}
          onSelectAll={() => selection.selectAll(items)}
        />
      )}
      <ItemGrid
        items={items}
        waterfall={view === 'WaterFall'}
        selected={selection.selected}
        onSelect={(item) => selection.toggle(item)}
        onAction={actions.run}
        hasMore={Boolean(listing.hasNextPage)}
        loadingMore={listing.isFetchingNextPage}
        loadMoreFailed={listing.isFetchNextPageError}
        onLoadMore={() => void listing.fetchNextPage()}
        empty={<Empty description={folder ? t('files.emptyFolder') : t('files.emptyTop')} />}
      />
      <FolderDialog
        open={folderDialog.open}
        folder={folderDialog.folder}
        parent={{
          id: folder ? folder.id : 'all',
          path: folder ? `${folder.path === '/' ? '' : folder.path}/${folder.name}` : '/',
          private: folder?.visibility === 'private',
        }}
        onClose={() => setFolderDialog({ open: false, folder: null })}
      />
      {actions.dialogs}
      {viewing !== null && <FileViewer items={items} startId={viewing} onClose={() => setViewing(null)} />}
    </div>
  );
}
