import type { Item } from '@dam/contract';
import { LIMITS } from '@dam/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Spin } from 'antd';
import { Fragment, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadMoreFooter } from '../../ui/LoadMoreFooter';
import styles from './files.module.css';
import { type ItemAction, ItemCard } from './ItemCard';
import { useGridOverscan } from './useGridOverscan';

const GAP = 16;
/** Name and facts under the thumbnail. */
const META_HEIGHT = 58;

interface Props {
  items: Item[];
  waterfall: boolean;
  selected: ReadonlySet<number>;
  onSelect: (item: Item, additive: boolean) => void;
  onAction: (action: ItemAction, item: Item) => void;
  hasMore: boolean;
  loadingMore: boolean;
  loadMoreFailed: boolean;
  onLoadMore: () => void;
  empty: ReactNode;
  /** Draws something around each card (a collection's drag handle). */
  frame?: (item: Item, card: ReactNode) => ReactNode;
}

/**
 * A virtualised card grid: only the rows on screen are in the DOM, so thousands of items scroll
 * smoothly. The waterfall view lays cards in columns of measured height. Reaching 20 px from the
 * bottom loads the next page (SPEC §2).
 */
export function ItemGrid({
  items,
  waterfall,
  selected,
  onSelect,
  onAction,
  hasMore,
  loadingMore,
  loadMoreFailed,
  onLoadMore,
  empty,
  frame,
}: Props) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  // Unknown until the layout effect has measured the scroller: the first render draws no cards,
  // since it could only guess the columns and drawing them twice doubles the first page's work.
  const [width, setWidth] = useState<number | null>(null);
  const cardSize = LIMITS.defaultCardSize;

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);

  const drawn = width !== null && items.length > 0;
  const overscan = useGridOverscan(scroller, drawn);

  const columns = Math.max(1, Math.floor(((width ?? 0) - 8 + GAP) / (cardSize + GAP)));
  const rows = waterfall ? items.length : Math.ceil(items.length / columns);
  const fixedRow = cardSize * 0.75 + META_HEIGHT + GAP;
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => fixedRow,
    overscan,
    gap: waterfall ? GAP : 0,
    lanes: waterfall ? columns : 1,
  });

  // Switching views or column counts changes every size: measure again.
  const layoutKey = `${waterfall}-${columns}`;
  useEffect(() => {
    if (layoutKey) virtualizer.measure();
  }, [layoutKey, virtualizer]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element || !hasMore || loadingMore || loadMoreFailed) return;
    if (element.scrollHeight - element.scrollTop - element.clientHeight <= LIMITS.scrollBottomTriggerPx)
      onLoadMore();
  };

  // A first page that does not fill the screen cannot be scrolled: load on.
  useEffect(() => {
    const element = scroller.current;
    if (
      element &&
      hasMore &&
      !loadingMore &&
      !loadMoreFailed &&
      element.scrollHeight <= element.clientHeight + LIMITS.scrollBottomTriggerPx
    ) {
      onLoadMore();
    }
  });

  const card = (item: Item) => {
    const drawn = (
      <ItemCard
        key={item.id}
        item={item}
        size={cardSize}
        waterfall={waterfall}
        selected={selected.has(item.id)}
        onSelect={onSelect}
        onAction={onAction}
        eager
      />
    );
    return frame ? <Fragment key={item.id}>{frame(item, drawn)}</Fragment> : drawn;
  };

  return (
    <div ref={scroller} className={styles.scroller} onScroll={onScroll} data-testid="item-grid">
      {items.length === 0 && !loadingMore ? (
        <div className={styles.empty}>{empty}</div>
      ) : (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {(width === null ? [] : virtualizer.getVirtualItems()).map((row) => {
            if (waterfall) {
              const item = items[row.index] as Item;
              return (
                <div
                  key={item.id}
                  data-index={row.index}
                  ref={virtualizer.measureElement}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: row.lane * (cardSize + GAP),
                    transform: `translateY(${row.start}px)`,
                  }}
                >
                  {card(item)}
                </div>
              );
            }
            const start = row.index * columns;
            return (
              <div
                key={row.key}
                className={styles.row}
                style={{ height: fixedRow, transform: `translateY(${row.start}px)`, gap: GAP }}
              >
                {items.slice(start, start + columns).map(card)}
              </div>
            );
          })}
        </div>
      )}
      <div className={styles.footer}>
        <LoadMoreFooter
          list={{ hasNextPage: hasMore, isFetchingNextPage: loadingMore, fetchNextPage: onLoadMore }}
          failed={loadMoreFailed}
          whileLoading={
            <Spin size="small" tip={t('common.loading')}>
              <span className={styles.footerText}>{t('common.loading')}</span>
            </Spin>
          }
          end={items.length > 0 ? <span className={styles.footerText}>{t('common.noMore')}</span> : null}
        />
      </div>
    </div>
  );
}
