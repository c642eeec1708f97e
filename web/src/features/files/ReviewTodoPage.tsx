import { Empty, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useViewMode } from '../../ui/ListControls';
import { useReviewTodo } from '../review';
import { ItemBrowser, type PagedItemsQuery } from './ItemBrowser';

/**
 * The "to review" page (/review, issue 43 item 2): files in review whose reviewers include the
 * caller, oldest request first; the viewer's "Review" section approves or asks for changes. Here in
 * files, beside the browser it shows them in, as the collection page is.
 */
export function ReviewTodoPage() {
  const { t } = useTranslation();
  const [viewMode] = useViewMode();
  const listing = useReviewTodo();
  const total = listing.data?.pages[0]?.total;
  return (
    <ItemBrowser
      listing={listing as unknown as PagedItemsQuery}
      testId="review-todo"
      waterfall={viewMode === 'WaterFall'}
      empty={<Empty description={t('review.empty')} />}
      toolbar={
        <Space direction="vertical" size={2}>
          <Space>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('review.title')}
            </Typography.Title>
            {total !== undefined && total > 0 && (
              <Tag color="processing" data-testid="review-todo-count">
                {t('review.count', { count: total })}
              </Tag>
            )}
          </Space>
          <Typography.Text type="secondary">{t('review.intro')}</Typography.Text>
        </Space>
      }
    />
  );
}
