import type { ReviewAction, ReviewState } from '@dam/contract';
import { Button, Collapse, Space, Spin, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../ui/format';
import { ReviewStateTag } from '../../ui/ReviewStateTag';
import { useReviewState } from './api';
import { ReviewActionDialog } from './ReviewActionDialog';

/** Actions shown as the primary button (the others as plain ones). */
const PRIMARY: readonly ReviewAction[] = ['request', 'approve'];

/**
 * The viewer's "Review" section (issue 43 item 2): the file's state and who set it, its reviewers,
 * the actions the caller may take now, and the history folded away.
 */
export function ReviewSection({ itemId }: { itemId: number }) {
  const { t } = useTranslation();
  const review = useReviewState(itemId);
  // The state seen when the action was chosen travels with it, not the state read later.
  const [acting, setActing] = useState<{ action: ReviewAction; state: ReviewState } | null>(null);
  if (review.isPending) return <Spin size="small" />;
  if (!review.data) return null;
  const detail = review.data;
  return (
    <section data-testid="review-section" style={{ marginTop: 12 }}>
      <Typography.Title level={5} style={{ marginBottom: 8 }}>
        {t('review.section')}
      </Typography.Title>
      <Space wrap size={[8, 4]}>
        <ReviewStateTag state={detail.state} />
        {detail.changedBy && detail.changedAt && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('review.changedBy', { name: detail.changedBy.name, time: formatDate(detail.changedAt) })}
          </Typography.Text>
        )}
      </Space>
      {detail.reviewers.length > 0 && (
        <Typography.Paragraph style={{ margin: '6px 0 0', fontSize: 13 }} data-testid="review-reviewers-list">
          {t('review.reviewersLine', { names: detail.reviewers.map((r) => r.name).join(', ') })}
        </Typography.Paragraph>
      )}
      {detail.actions.length > 0 && (
        <Space wrap style={{ marginTop: 8 }}>
          {detail.actions.map((action) => (
            <Button
              key={action}
              size="small"
              type={PRIMARY.includes(action) ? 'primary' : 'default'}
              danger={action === 'requestChanges'}
              onClick={() => setActing({ action, state: detail.state })}
              data-testid={`review-${action}`}
            >
              {t(`review.action.${action}`)}
            </Button>
          ))}
        </Space>
      )}
      {detail.history.length > 0 && (
        <Collapse
          ghost
          size="small"
          style={{ marginTop: 4 }}
          items={[
            {
              key: 'history',
              label: t('review.history'),
              children: (
                <Timeline
                  data-testid="review-history"
                  items={detail.history.map((event) => ({
                    key: event.id,
                    children: (
                      <>
                        <Typography.Text strong>{t(`review.action.${event.action}`)}</Typography.Text>{' '}
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {t('review.changedBy', { name: event.userName ?? '—', time: formatDate(event.at) })}
                        </Typography.Text>
                        {event.note && <div style={{ whiteSpace: 'pre-wrap' }}>{event.note}</div>}
                      </>
                    ),
                  }))}
                />
              ),
            },
          ]}
        />
      )}
      {acting && (
        <ReviewActionDialog
          itemId={itemId}
          action={acting.action}
          state={acting.state}
          onClose={() => setActing(null)}
        />
      )}
    </section>
  );
}
