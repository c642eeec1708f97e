import type { Item } from '@dam/contract';
import { LIMITS } from '@dam/contract';
import { Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadMoreFooter } from '../../ui/LoadMoreFooter';
import type { GridProps } from '../files';
import { ItemCard } from '../files';
import styles from './GroupedResults.module.css';
import { groupByArtNum } from './groupByArtNum';

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
