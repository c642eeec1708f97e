import type { Item } from '@dam/contract';
import { LIMITS } from '@dam/contract';
import { Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadMoreFooter } from '../../ui/LoadMoreFooter';
import type { GridProps } from '../files';
import { ItemCard } from '../files';
import styles from './GroupedResults.module.css';

export interface ResultGroup {
  value: string;
  items: Item[];
}

/**
 * The loaded results of a batch search by article number, one group per number in the order they
 * were pasted (numbers with nothing loaded yet left out); files whose number is none of them
 * (none today: the search matches whole numbers) come last under their own number.
 */
export function groupByArtNum(items: Item[], values: string[]): ResultGroup[] {
  const groups = new Map<string, ResultGroup>();
  for (const value of values) {
    const key = value.toLowerCase();
    if (!groups.has(key)) groups.set(key, { value, items: [] });
  }
  for (const item of items) {
    const key = (item.artNum ?? '').toLowerCase();
    const group = groups.get(key) ?? { value: item.artNum ?? '', items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return [...groups.values()].filter((group) => group.items.length > 0);
}

/**
 * Batch search results grouped under each article number (issue 39); the numbers not found are
 * listed above them by the results page.
 */
export function GroupedResults({
  grid,
  values,
  unmatched,
}: {
  grid: GridProps;
  values: string[];
  unmatched: string[];
}) {
  const { t } = useTranslation();
  const groups = groupByArtNum(grid.items, values);
  const card = (item: Item) => (
    <ItemCard
      key={item.id}
      item={item}
      size={LIMITS.defaultCardSize}
      waterfall={false}
      selected={grid.selected.has(item.id)}
      onSelect={grid.onSelect}
      onAction={grid.onAction}
    />
  );
  return (
    <div className={styles.scroller} data-testid="grouped-results">
      {groups.length === 0 && unmatched.length === 0 && !grid.loadingMore && grid.empty}
      {groups.map((group) => (
        <section
          key={group.value}
          className={styles.group}
          data-testid="result-group"
          data-value={group.value}
        >
          <div className={styles.head}>
            <Typography.Title level={5} className={styles.title}>
              {group.value}
            </Typography.Title>
            <Typography.Text type="secondary">
              {t('search.groupCount', { count: group.items.length })}
              {grid.hasMore ? '…' : ''}
            </Typography.Text>
          </div>
          <div className={styles.cards}>{group.items.map(card)}</div>
        </section>
      ))}
      <div className={styles.footer}>
        <LoadMoreFooter
          list={{
            hasNextPage: grid.hasMore,
            isFetchingNextPage: grid.loadingMore,
            fetchNextPage: grid.onLoadMore,
          }}
          failed={grid.loadMoreFailed}
          whileLoading={<Spin size="small" />}
          label={t('search.loadMore')}
          look="button"
          testId="grouped-more"
        />
      </div>
    </div>
  );
}
