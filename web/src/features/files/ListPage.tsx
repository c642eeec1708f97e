import { Button, Empty, Result, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileViewer } from '../viewer/FileViewer';
import { type ListKind, usePagedList } from './api';
import styles from './files.module.css';
import { ItemGrid } from './ItemGrid';
import { storedViewMode } from './ListControls';
import { SelectionBar } from './SelectionBar';
import { useItemActions } from './useItemActions';
import { useSelection } from './useSelection';

const TITLES: Record<ListKind, string> = {
  recent: 'nav.recent',
  favourites: 'nav.favourites',
  uploads: 'nav.myUploads',
};
const EMPTY: Record<ListKind, string> = {
  recent: 'files.emptyRecent',
  favourites: 'files.emptyFavourites',
  uploads: 'files.emptyUploads',
};

/** SPEC §2 /rencent, /myCollect, /myUpload: the same grid over a personal list. */
export function ListPage({ kind }: { kind: ListKind }) {
  const { t } = useTranslation();
  const list = usePagedList(kind);
  const selection = useSelection();
  const [viewing, setViewing] = useState<number | null>(null);
  const actions = useItemActions({ onDone: selection.clear, onOpenFile: (file) => setViewing(file.id) });
  const items = useMemo(() => list.data?.pages.flatMap((p) => p.list) ?? [], [list.data]);
  const selectedItems = items.filter((i) => selection.selected.has(i.id));

  if (list.isPending) {
    return (
      <div className={styles.empty}>
        <Spin size="large" />
      </div>
    );
  }
  if (list.isError && items.length === 0) {
    return (
      <Result
        status="warning"
        title={t('common.loadFailed')}
        extra={<Button onClick={() => void list.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  return (
    <div className={styles.page} data-testid={`list-${kind}`}>
      <div className={styles.toolbar}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t(TITLES[kind])}
        </Typography.Title>
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
        waterfall={storedViewMode() === 'WaterFall'}
        selected={selection.selected}
        onSelect={(item) => selection.toggle(item)}
        onAction={actions.run}
        hasMore={Boolean(list.hasNextPage)}
        loadingMore={list.isFetchingNextPage}
        loadMoreFailed={list.isFetchNextPageError}
        onLoadMore={() => void list.fetchNextPage()}
        empty={<Empty description={t(EMPTY[kind])} />}
      />
      {actions.dialogs}
      {viewing !== null && <FileViewer items={items} startId={viewing} onClose={() => setViewing(null)} />}
    </div>
  );
}
