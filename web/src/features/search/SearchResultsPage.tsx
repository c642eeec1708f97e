import { isBatchSearch, RankStatus, type SearchContent, type SearchResult, SearchType } from '@dam/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Alert, Empty, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { PAGE_SIZE, type SortState } from '../files/api';
import { ItemBrowser } from '../files/ItemBrowser';
import { SortToggle, storedViewMode } from '../files/ListControls';
import { batchSummary } from './searchUrl';

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
  const [sort, setSort] = useState<SortState>(RankStatus.normal);
  const search = useSearch(content, sort);
  const unmatched = search.data?.pages[0]?.unmatched ?? [];
  const values =
    content.searchType === SearchType.batchArtNums
      ? content.artNumList
      : content.searchType === SearchType.batchTitles
        ? content.nameList
        : [content.query];
  const { shown, more } = batchSummary(values);

  return (
    <ItemBrowser
      listing={search}
      testId="search-results"
      waterfall={storedViewMode() === 'WaterFall'}
      empty={<Empty description={t('search.empty')} />}
      toolbar={
        <>
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
        </>
      }
      notice={
        unmatched.length > 0 && (
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
        )
      }
    />
  );
}

function typeKey(type: SearchType): string {
  return { 1: 'title', 2: 'artNum', 3: 'batchArtNums', 4: 'batchTitles' }[type];
}
