import { isBatchSearch, type SearchContent, type SearchResult, SearchType } from '@dam/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Result, Space, Spin, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client';
import { PAGE_SIZE, type SortState } from '../files/api';
import styles from '../files/files.module.css';
import { ItemGrid } from '../files/ItemGrid';
import { SortToggle, storedViewMode } from '../files/ListControls';
import { SelectionBar } from '../files/SelectionBar';
import { useItemActions } from '../files/useItemActions';
import { useSelection } from '../files/useSelection';
import { FileViewer } from '../viewer/FileViewer';
import { batchSummary } from './SearchBar';

export function useSearch(content: SearchContent, sort: SortState) {
  return useInfiniteQuery({
    queryKey: ['files', 'search', content, sort],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.post<SearchResult>('/ske-api/v1_0/global/search', {
        searchType: content.searchType,
        fileType: content.fileType,
        ...(isBatchSearch(content.searchType)
          ? content.searchType === SearchType.batchArtNums
            ? { artNumList: content.artNumList }
            : { nameList: content.nameList }
          : { query: content.query }),
        rankStatus: sort,
        pageNo: pageParam,
        pageSize: PAGE_SIZE,
      }),
    getNextPageParam: (last) => (last.hasMore ? last.pageNo + 1 : undefined),
  });
}

/** The results of a global search (route `/` with `global=true`), in the usual grid. */
export function SearchResultsPage({ content }: { content: SearchContent }) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<SortState>('0');
  const search = useSearch(content, sort);
  const selection = useSelection();
  const [viewing, setViewing] = useState<number | null>(null);
  const actions = useItemActions({ onDone: selection.clear, onOpenFile: (file) => setViewing(file.id) });
  const items = useMemo(() => search.data?.pages.flatMap((p) => p.list) ?? [], [search.data]);
  const unmatched = search.data?.pages[0]?.unmatched ?? [];
  const selectedItems = items.filter((i) => selection.selected.has(i.id));
  const values =
    content.searchType === SearchType.batchArtNums
      ? content.artNumList
      : content.searchType === SearchType.batchTitles
        ? content.nameList
        : [content.query];
  const { shown, more } = batchSummary(values);

  if (search.isPending) {
    return (
      <div className={styles.empty}>
        <Spin size="large" />
      </div>
    );
  }
  if (search.isError && items.length === 0) {
    return (
      <Result
        status="warning"
        title={search.error instanceof ApiError ? search.error.desc : t('common.loadFailed')}
        extra={<Button onClick={() => void search.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  return (
    <div className={styles.page} data-testid="search-results">
      <div className={styles.toolbar}>
        <Space wrap>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('search.results')}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t(`search.type.${typeKey(content.searchType)}`)}:
          </Typography.Text>
          {shown.map((v) => (
            <Tag key={v}>{v}</Tag>
          ))}
          {more > 0 && <Typography.Text type="secondary">+{more}</Typography.Text>}
        </Space>
        <SortToggle sort={sort} onChange={setSort} />
      </div>
      {unmatched.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('search.unmatched', { count: String(unmatched.length) })}
          description={
            <Typography.Paragraph copyable={{ text: unmatched.join('\n') }}>
              {unmatched.join('  ')}
            </Typography.Paragraph>
          }
          data-testid="search-unmatched"
        />
      )}
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
        hasMore={Boolean(search.hasNextPage)}
        loadingMore={search.isFetchingNextPage}
        loadMoreFailed={search.isFetchNextPageError}
        onLoadMore={() => void search.fetchNextPage()}
        empty={<Empty description={t('search.empty')} />}
      />
      {actions.dialogs}
      {viewing !== null && <FileViewer items={items} startId={viewing} onClose={() => setViewing(null)} />}
    </div>
  );
}

function typeKey(type: SearchType): string {
  return { 1: 'title', 2: 'artNum', 3: 'batchArtNums', 4: 'batchTitles' }[type];
}
