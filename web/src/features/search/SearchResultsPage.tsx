import { DownOutlined, TagsOutlined } from '@ant-design/icons';
import { hasMetadataFilter, RankStatus, REVIEW_STATES, type ReviewState, SearchType } from '@dam/contract';
import { Alert, Button, Dropdown, Empty, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { SortState } from '../../api/items';
import { SortToggle, useViewMode } from '../../ui/ListControls';
import { ItemBrowser } from '../files';
import { useSearch } from './api';
import { batchTagUrl } from './batchTagUrl';
import { GroupedResults } from './GroupedResults';
import { MetadataChips } from './MetadataChips';
import { batchSummary, type WebSearch } from './searchUrl';

/** The results of a global search (route `/` with `global=true`), in the usual grid. */
export function SearchResultsPage({ content }: { content: WebSearch }) {
  const [viewMode] = useViewMode();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [sort, setSort] = useState<SortState>(RankStatus.normal);
  const [reviewState, setReviewState] = useState<ReviewState | undefined>();
  const search = useSearch(content, sort, reviewState);
  const unmatched = search.data?.pages[0]?.unmatched ?? [];
  const values =
    content.searchType === SearchType.batchArtNums
      ? content.artNumList
      : content.searchType === SearchType.batchTitles
        ? content.nameList
        : [content.query].filter(Boolean);
  const { shown, more } = batchSummary(values);

  return (
    <ItemBrowser
      listing={search}
      testId="search-results"
      waterfall={viewMode === 'WaterFall'}
      empty={<Empty description={t('search.empty')} />}
      grid={
        content.searchType === SearchType.batchArtNums
          ? (grid) => <GroupedResults grid={grid} values={values} unmatched={unmatched} />
          : undefined
      }
      toolbar={
        <>
          <Space wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('search.results')}
            </Typography.Title>
            {values.length > 0 && (
              <Typography.Text type="secondary">
                {t(`search.type.${typeKey(content.searchType)}`)}:
              </Typography.Text>
            )}
            {shown.map((v) => (
              <Tag key={v}>{v}</Tag>
            ))}
            {more > 0 && <Typography.Text type="secondary">+{more}</Typography.Text>}
            <MetadataChips content={content} />
            {content.colour && (
              <Tag data-testid="search-results-colour">
                <span
                  style={{
                    display: 'inline-block',
                    width: 10,
                    height: 10,
                    marginInlineEnd: 6,
                    borderRadius: 2,
                    background: content.colour,
                    border: '1px solid rgba(15, 23, 42, 0.25)',
                  }}
                />
                {t('colour.chosen', { colour: content.colour })}
              </Tag>
            )}
          </Space>
          <Space>
            {/* Batch tagging repeats the search without its colour or metadata: offered only for searches without them. */}
            {!content.colour && !hasMetadataFilter(content) && (
              <Button
                icon={<TagsOutlined />}
                onClick={() => void navigate(batchTagUrl(content))}
                data-testid="search-batch-tag"
              >
                {t('nav.batchTag')}
              </Button>
            )}
            {/* A menu, not a Select: the results page is in the home page's first load (issue 12 goal 4). */}
            <Dropdown
              trigger={['click']}
              menu={{
                selectable: true,
                selectedKeys: [reviewState ?? 'any'],
                items: [
                  { key: 'any', label: t('review.anyState') },
                  ...REVIEW_STATES.map((state) => ({ key: state, label: t(`review.state.${state}`) })),
                ],
                onClick: ({ key }) => setReviewState(key === 'any' ? undefined : (key as ReviewState)),
              }}
            >
              <Button data-testid="search-review-state">
                {reviewState ? t(`review.state.${reviewState}`) : t('review.filter')} <DownOutlined />
              </Button>
            </Dropdown>
            <SortToggle sort={sort} onChange={setSort} />
          </Space>
        </>
      }
      notice={
        unmatched.length > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title={t('search.unmatched', { count: unmatched.length })}
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
