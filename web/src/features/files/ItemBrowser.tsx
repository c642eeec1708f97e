import { type Item, ItemType, type SimilarItem } from '@dam/contract';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Button, Spin } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { notifySuccess } from '../../api/notify';
import { useModifyTags } from '../../api/tags';
import { LazyResult } from '../../ui/LazyResult';
import { SimilarSelectionDrawer } from '../similar/lazy';
import { AddTagDialog } from '../tagging/lazy';
import { FileViewer } from '../viewer/lazy';
import { BrowserSelection } from './BrowserSelection';
import styles from './files.module.css';
import { ItemGrid } from './ItemGrid';
import type { SelectionAction } from './SelectionBar';
import { useItemActions } from './useItemActions';
import { useSelection } from './useSelection';

/** What a grid of the browser is given: the loaded items, the selection and paging. */
export type GridProps = Omit<Parameters<typeof ItemGrid>[0], 'waterfall'>;

/** A listing read page by page: a folder, a personal list, search results. */
export type PagedItemsQuery = UseInfiniteQueryResult<InfiniteData<{ list: Item[] }>, Error>;

interface Props {
  listing: PagedItemsQuery;
  /** The bar above the grid (title, breadcrumb, buttons). */
  toolbar: ReactNode;
  /** Shown between the toolbar and the grid (a search's unmatched values, say). */
  notice?: ReactNode;
  empty: ReactNode;
  waterfall: boolean;
  testId?: string;
  /** The selection is cleared whenever this changes (another folder opened). */
  selectionScope?: unknown;
  onEditFolder?: (folder: Item) => void;
  /** What replaces the page when its first page cannot be read (default: the reason and Retry). */
  failure?: (error: Error, retry: () => void) => ReactNode;
  /** The page's own dialogs. */
  children?: ReactNode;
  /** Draws the items instead of the usual grid (batch search groups, say). */
  grid?: (props: GridProps) => ReactNode;
  /** The page's own actions on the selection ("more" menu); with them, no "delete" (a collection's page). */
  selectionActions?: SelectionAction[];
}

/**
 * The grid every listing page shares (SPEC §2): loading and failure states, the virtualised grid
 * with infinite scroll, multi-select with its action bar, the item actions with their dialogs,
 * and the file viewer.
 */
export function ItemBrowser({
  listing,
  toolbar,
  notice,
  empty,
  waterfall,
  testId,
  selectionScope,
  onEditFolder,
  failure,
  children,
  grid,
  selectionActions,
}: Props) {
  const { t } = useTranslation();
  const selection = useSelection();
  const [viewing, setViewing] = useState<number | null>(null);
  const [tagging, setTagging] = useState<Item[] | null>(null);
  const [similarOf, setSimilarOf] = useState<Item[] | null>(null);
  /** A similar image opened from the selection's drawer: the viewer steps through its group. */
  const [viewingSimilar, setViewingSimilar] = useState<{ list: SimilarItem[]; id: number } | null>(null);
  const modifyTags = useModifyTags();
  const actions = useItemActions({
    onEditFolder,
    onOpenFile: (file) => setViewing(file.id),
    onDone: selection.clear,
  });
  const items = useMemo(() => listing.data?.pages.flatMap((p) => p.list) ?? [], [listing.data]);
  const selectedItems = items.filter((i) => selection.selected.has(i.id));

  // biome-ignore lint/correctness/useExhaustiveDependencies: the scope is the trigger, not an input
  useEffect(() => selection.clear(), [selectionScope, selection.clear]);

  // The page's own dialogs (children) come second in every state, so they stay mounted through
  // loading and failure: an open dialog keeps what is typed in it while the listing is fetched anew.
  const withDialogs = (body: ReactNode) => (
    <>
      {body}
      {children}
    </>
  );
  if (listing.isPending) {
    return withDialogs(
      <div className={styles.empty}>
        <Spin size="large" />
      </div>,
    );
  }
  if (listing.isError && items.length === 0) {
    const retry = () => void listing.refetch();
    return withDialogs(
      failure?.(listing.error, retry) ?? (
        <LazyResult
          status="warning"
          title={listing.error instanceof ApiError ? listing.error.desc : t('common.loadFailed')}
          extra={<Button onClick={retry}>{t('common.retry')}</Button>}
        />
      ),
    );
  }
  return withDialogs(
    <div className={styles.page} data-testid={testId}>
      <div className={styles.toolbar}>{toolbar}</div>
      {notice}
      {selectedItems.length > 0 && (
        <BrowserSelection
          selected={selectedItems}
          all={items}
          selection={selection}
          actions={actions}
          onTag={() => setTagging(selectedItems)}
          onSimilar={() => setSimilarOf(selectedItems)}
          {...(selectionActions ? { extraActions: selectionActions, withDelete: false } : {})}
        />
      )}
      {(grid ?? ((props: GridProps) => <ItemGrid {...props} waterfall={waterfall} />))({
        items,
        selected: selection.selected,
        onSelect: (item) => selection.toggle(item),
        onAction: actions.run,
        hasMore: Boolean(listing.hasNextPage),
        loadingMore: listing.isFetchingNextPage,
        loadMoreFailed: listing.isFetchNextPageError,
        onLoadMore: () => void listing.fetchNextPage(),
        empty,
      })}
      {actions.dialogs}
      {tagging && (
        <AddTagDialog
          title={t('tagging.titleMany', { count: tagging.length })}
          artNums={tagging.flatMap((item) => (item.artNum ? [item.artNum] : []))}
          chooseMode
          onConfirm={async (tagIdList, mode) => {
            const { count } = await modifyTags({
              folderDataIdList: tagging.map((item) => item.id),
              tagIdList,
              mode,
            });
            notifySuccess(t('tagging.savedMany', { count }));
            selection.clear();
          }}
          onClose={() => setTagging(null)}
        />
      )}
      {similarOf && (
        <SimilarSelectionDrawer
          items={similarOf}
          onOpen={(list, id) => setViewingSimilar({ list, id })}
          onClose={() => setSimilarOf(null)}
        />
      )}
      {viewing !== null && <FileViewer items={items} startId={viewing} onClose={() => setViewing(null)} />}
      {viewingSimilar && (
        <FileViewer
          items={viewingSimilar.list.map((item) => ({ id: item.id, type: ItemType.image }))}
          startId={viewingSimilar.id}
          onClose={() => setViewingSimilar(null)}
        />
      )}
    </div>,
  );
}
