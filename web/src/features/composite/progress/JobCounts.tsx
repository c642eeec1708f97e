import type { ComposeArticleStatus, ComposeJobSummary } from '@dam/contract';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** The tag colour of an article status, in the counts and the article table alike. */
export const STATUS_COLOURS: Record<ComposeArticleStatus, string> = {
  pending: 'default',
  rendering: 'processing',
  done: 'success',
  missing: 'warning',
  failed: 'error',
  cancelled: 'default',
};

/** How many articles of a job are in each status. */
export function JobCounts({ job }: { job: ComposeJobSummary }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {(Object.entries(job.counts) as [ComposeArticleStatus, number][])
        .filter(([, count]) => count > 0)
        .map(([status, count]) => (
          <Tag key={status} color={STATUS_COLOURS[status]} data-testid={`job-count-${status}`}>
            {t(`composite.articleStatus.${status}`)} × {count}
          </Tag>
        ))}
    </Space>
  );
}
